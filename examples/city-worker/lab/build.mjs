// Bundles the Worker as `wrangler deploy` would (one ES module, `cloudflare:*` left to the
// runtime) into build/worker.js, the lab's wrapper of it (lab/worker/) into build/lab_worker.js,
// and the lab's Node side into build/*.mjs.
import { build } from "esbuild";

const common = { bundle: true, format: "esm", target: "es2022", sourcemap: true, logLevel: "warning" };
const worker = { ...common, platform: "neutral", external: ["cloudflare:*"], mainFields: ["module", "main"] };
await build({ ...worker, entryPoints: ["src/worker.ts"], outfile: "build/worker.js" });
await build({ ...worker, entryPoints: ["lab/worker/worker.ts"], outfile: "build/lab_worker.js" });
await build({ ...common, entryPoints: ["lab/run.ts"], outfile: "build/lab.mjs", platform: "node", external: ["ws", "miniflare"] });
await build({ ...common, entryPoints: ["lab/bot_process.ts"], outfile: "build/bot_process.mjs", platform: "node", external: ["ws"] });
await build({ ...common, entryPoints: ["lab/tick_bench.ts"], outfile: "build/tick_bench.mjs", platform: "node" });
await build({ ...common, entryPoints: ["lab/wire_bench.ts"], outfile: "build/wire_bench.mjs", platform: "node" });
await build({ ...common, entryPoints: ["lab/playout_lab.ts"], outfile: "build/playout_lab.mjs", platform: "node" });
await build({ ...common, entryPoints: ["lab/lagcomp_check.ts"], outfile: "build/lagcomp_check.mjs", platform: "node" });
await build({ ...common, entryPoints: ["lab/ack_check.ts"], outfile: "build/ack_check.mjs", platform: "node" });
await build({ ...common, entryPoints: ["lab/clock_lab.ts"], outfile: "build/clock_lab.mjs", platform: "node", external: ["ws", "miniflare"] });
await build({ ...common, entryPoints: ["lab/races.ts"], outfile: "build/races.mjs", platform: "node", external: ["ws", "miniflare"] });

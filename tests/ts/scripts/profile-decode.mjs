// Where a decode spends its time: a V8 CPU profile (node --cpu-prof) of the generated
// `decode` on each bench fixture, self time per function, top rows. Prints the Markdown that
// scripts/bench.d/26-ts-profile.sh writes into BENCHMARKS.md.
//
//   node scripts/profile-decode.mjs          (after `npm run build`)

import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = join(dirname(fileURLToPath(import.meta.url)), "..");
const cases = [
  ["player:move (relayed)", "player-move.bin", "PlayerMoveRelayedCodec", 400000],
  ["birds:stream", "birds-stream.bin", "BirdStreamCodec", 20000],
  ["world:snapshot", "world-snapshot.bin", "WorldSnapshotCodec", 20000],
];

const dir = mkdtempSync(join(tmpdir(), "tuplet-profile-"));
try {
  console.log("## TypeScript decode profile\n");
  console.log("`node --cpu-prof` of `decode` on each bench fixture in a loop (`tests/ts/scripts/profile-decode.mjs`): self time per function, share of the samples in that loop's process (module loading included), top 8.\n");
  for (const [title, file, codec, n] of cases) {
    const script = join(dir, "run.mjs");
    writeFileSync(
      script,
      `import { readFileSync } from "node:fs";
const m = await import(${JSON.stringify(join(here, "build", "generated", "ts", "src", "index.js"))});
const bytes = new Uint8Array(readFileSync(${JSON.stringify(join(here, "bench", "fixtures", file))}));
let sink;
for (let i = 0; i < ${n}; i++) sink = m.${codec}.decode(bytes);
if (!sink.ok) throw new Error("decode failed");
`,
    );
    const out = join(dir, file);
    execFileSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir", out, script]);
    const profile = JSON.parse(readFileSync(join(out, readdirSync(out)[0]), "utf8"));
    const byId = new Map(profile.nodes.map((x) => [x.id, x]));
    const self = new Map();
    for (const s of profile.samples) {
      const f = byId.get(s).callFrame;
      const name = `${f.functionName || "(anonymous)"} (${f.url.split("/").pop() || "V8"})`;
      self.set(name, (self.get(name) ?? 0) + 1);
    }
    const total = profile.samples.length;
    console.log(`### ${title}, ${n} decodes\n`);
    console.log("| function | self time |");
    console.log("|---|---:|");
    for (const [name, k] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 8)) {
      console.log(`| \`${name}\` | ${((100 * k) / total).toFixed(1)}% |`);
    }
    console.log();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

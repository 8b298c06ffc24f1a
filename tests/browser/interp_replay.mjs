// Replays what the interpolation browser test's page received through the TypeScript runtime
// with other settings: a study tool, not a test. The moves of a dump
// (TUPLET_BROWSER_DUMP=FILE node ../browser/interp.mjs) are pushed into a fresh `Interpolator`
// per player when their arrival time has passed, and it is sampled at each frame's time, so the
// same inputs are drawn as the page would have drawn them with those settings. Prints the
// test's measures (a run replayed with the settings that drew it lands within about 0.1 point
// of the page's share: a message can arrive between a frame's timestamp and its callback).
//
//   cd tests/ts && node ../browser/interp_replay.mjs '{"dilateBelowMs":0}' /tmp/a.json /tmp/b.json

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { root } from "./harness.mjs";
import { measure, row, total } from "./interp_measure.mjs";
import { PATHS } from "./interp_paths.mjs";

const { build } = createRequire(join(root, "tests", "ts", "package.json"))("esbuild");
const built = await build({
  entryPoints: [join(root, "codegen", "ts-runtime", "index.ts")],
  bundle: true,
  format: "esm",
  platform: "node",
  write: false,
  logLevel: "silent",
});
const runtime = await import(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].contents).toString("base64")}`);

const [settingsArg, ...files] = process.argv.slice(2);
if (files.length === 0) throw new Error("usage: interp_replay.mjs SETTINGS_JSON DUMP...");
const settings = JSON.parse(settingsArg);

for (const file of files) {
  const { drawn, bots, S, nodeOrigin } = JSON.parse(readFileSync(file, "utf8"));
  const rows = { near: [], far: [] };
  for (const [i, bot] of bots.entries()) {
    const { frames, moves } = drawn.remotes[bot.session];
    const it = new runtime.Interpolator({ linear: 2, angle: 0, hold: 0 }, settings);
    const xz = new Float64Array(2);
    const out = [];
    let k = 0;
    for (let j = 0; j < frames.length; j += 9) {
      const now = frames[j];
      for (; k < moves.length && moves[k] <= now; k += 4) {
        xz[0] = moves[k + 2];
        xz[1] = moves[k + 3];
        it.pushSent(moves[k + 1], moves[k], xz);
      }
      const st = it.sample(now);
      out.push(now, st, it.renderTime, it.out[0], it.out[1], 0, 0, 0, 0);
    }
    // Without the test's own clock origin (dumps before it was written) the delay is relative.
    const origin = nodeOrigin ?? drawn.timeOrigin;
    const toBotClock = (now) => drawn.timeOrigin + now - origin + bot.clock;
    const pick = (f, j) => [f[j + 1] !== S.Empty, f[j + 1] === S.Snapped, f[j + 2], f[j + 3], f[j + 4]];
    rows[PATHS[i].near ? "near" : "far"].push(measure(out, pick, bot, PATHS[i], toBotClock));
  }
  console.log(`${file}${nodeOrigin === undefined ? " (delay relative: no nodeOrigin)" : ""}`);
  console.log(`  ${row("replayed, near", total(rows.near))}\n  ${row("replayed, far", total(rows.far))}`);
}

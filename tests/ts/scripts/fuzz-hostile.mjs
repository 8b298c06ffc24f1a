// The long seeded fuzz run of the generated package under hostile input (the short one is in
// `npm test`): `npm run fuzz:hostile -- [inputs per direction] [seed]` after `npm run build`.
// Prints each direction's counts; exits 1 on any failure (an exception that was not a drop
// with issues, an input slower than 5 s (a hang; single inputs take well under a millisecond, but a loaded machine stalls a process for a second or more), a touched prototype).
import { hostileRun } from "../build/tests/ts/tests/hostile_support.js";

const count = Number(process.argv[2] ?? 500000);
const seed = Number(process.argv[3] ?? 1);
let failed = false;
for (const dir of ["c2s", "s2c"]) {
  const t0 = Date.now();
  const r = hostileRun(dir, seed, count);
  const secs = ((Date.now() - t0) / 1000).toFixed(0);
  const codes = Object.entries(r.codes).sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(", ");
  console.log(`${dir}: seed ${seed}, ${r.inputs} inputs in ${secs} s: ${r.handled} handled, ${r.dropped} dropped (${codes}), ${r.fromWire} also through fromWire, slowest ${r.slowestMs.toFixed(1)} ms, ${r.failures.length} failures`);
  console.log(`  slowest input: ${r.slowest.slice(0, 200)}`);
  for (const f of r.failures.slice(0, 10)) console.log("  " + f);
  failed ||= r.failures.length > 0 || r.slowestMs >= 5000;
}
process.exit(failed ? 1 : 0);

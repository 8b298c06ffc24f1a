/**
 * The interpolator's cost and garbage in Node: 40 entities (10 Hz moves, 60 fps frames, a
 * teleport, silences, entities leaving and entering view) through an `InterpolatedSet`.
 * After a warm-up, FRAMES frames must leave the heap where it was (after a full GC) and cause
 * no garbage collection at all (PerformanceObserver 'gc'); a frame of 40 entities must cost
 * under 0.2 ms (median over blocks of 1000 frames).
 *
 *   node --expose-gc build/examples/netcode-lab/src/bench.js [--frames N] [--no-timing]
 */
import { PerformanceObserver, performance } from "node:perf_hooks";
import { InterpolatedSet } from "../../../codegen/ts-runtime/pool.js";

const args = process.argv.slice(2);
const fi = args.indexOf("--frames");
const FRAMES = fi >= 0 ? Number(args[fi + 1]) : 1_000_000;
const timing = !args.includes("--no-timing");
const gc = (globalThis as { gc?: () => void }).gc;
/** The most the heap may grow over 2,000 warm-up frames for the JIT to count as settled. */
const WARM_BYTES = 1024;
if (!gc) throw new Error("run with node --expose-gc");

const set = new InterpolatedSet<number>({ linear: 3, angle: 1, hold: 1 });
let frame = 0;
const sink = new Float64Array(1);
function step(): void {
  const f = frame++;
  // whole milliseconds (16, 17, 17, ...): the caller's own numbers stay small integers, so any
  // garbage measured is the runtime's (performance.now()'s fresh doubles are the page's)
  const now = Math.floor((f * 1000) / 60);
  if (f % 120 === 0) {
    for (let k = 30; k < 40; k++) {
      if ((f / 120) % 2 === 0) set.leave(k);
      else set.enter(k);
    }
  }
  if (f % 6 === 0) {
    for (let k = 0; k < 40; k++) {
      if (k >= 30 && (f / 120) % 2 < 1 && Math.floor(f / 120) % 2 === 0) continue;
      const it = k >= 30 ? set.get(k) : set.enter(k);
      if (!it) continue;
      const t = now - (k >> 1);
      const walking = f % 600 < 400;
      const inp = it.input;
      inp[0] = (walking ? t * 0.0015 : 0.6 * Math.floor(f / 600)) + k + (k === 3 && f % 180 === 0 ? 50 : 0);
      inp[1] = Math.sin(t * 0.001);
      inp[2] = 0;
      inp[3] = ((t * 0.002) % 6) - 3;
      inp[4] = Math.floor(f / 60);
      if (walking || f % 600 < 412) it.pushSent(t, now + 30 + ((f + k) % 9) * 8);
    }
  }
  set.sampleAll(now + 16);
  for (let i = 0; i < set.size; i++) sink[0] = sink[0]! + set.at(i).out[0]!;
}

// Warm-up: every entity entered, then until the JIT has settled. On a busy machine its
// background compiler may still be at work after 20,000 frames, and code it has not optimized
// yet boxes doubles (garbage that is the compiler's timing, not the runtime's). So the warm-up
// goes on, up to 20 rounds, until 2,000 frames leave the heap where they found it; code that
// allocates never gets there, and the measured frames below still fail on it.
for (let i = 0; i < 20_000; i++) step();
for (let round = 0; round < 20; round++) {
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 2_000; i++) step();
  if (process.memoryUsage().heapUsed - before <= WARM_BYTES) break;
}
gc();
gc();
const heapBefore = process.memoryUsage().heapUsed;
let gcs = 0;
const obs = new PerformanceObserver((list) => { gcs += list.getEntries().length; });
obs.observe({ entryTypes: ["gc"] });
const blocks: number[] = [];
for (let done = 0; done < FRAMES; done += 1000) {
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++) step();
  blocks.push((performance.now() - t0) / 1000);
}
// let the observer deliver what happened during the loop
await new Promise((r) => setTimeout(r, 50));
obs.disconnect();
const heapAfterNoGc = process.memoryUsage().heapUsed;
gc();
gc();
const heapAfter = process.memoryUsage().heapUsed;
blocks.sort((a, b) => a - b);
const perFrame = blocks[Math.floor(blocks.length / 2)]!;
const growth = heapAfter - heapBefore;
const result = {
  frames: FRAMES,
  entities: 40,
  gcs,
  heapGrowthBytes: growth,
  heapGrowthWithoutGcBytes: heapAfterNoGc - heapBefore,
  frameMsMedian: perFrame,
  frameMsP95: blocks[Math.floor(blocks.length * 0.95)]!,
  sink: Number.isFinite(sink[0]!),
};
console.log(JSON.stringify(result));
const fails: string[] = [];
if (gcs !== 0) fails.push(`${gcs} garbage collection(s) during ${FRAMES} frames`);
if (growth > 64 * 1024) fails.push(`heap grew ${growth} bytes`);
if (timing && perFrame >= 0.2) fails.push(`a frame of 40 entities costs ${perFrame.toFixed(4)} ms >= 0.2 ms`);
for (const f of fails) process.stderr.write(`FAIL ${f}\n`);
if (fails.length) process.exitCode = 1;

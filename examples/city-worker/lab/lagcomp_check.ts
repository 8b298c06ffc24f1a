/**
 * Checks the Worker's lag compensation (src/lag_comp.ts) against what it claims: a driver's
 * collision is resolved against the world at its view time, and a view time older than the
 * cap is resolved exactly as one at the cap (counted), whether given directly or claimed by
 * an `input:batch`'s `view`; a batch without `view` falls back to the estimate. Exits 1 on a
 * failed check.
 */

import { LagComp } from "../src/lag_comp.js";
import { City } from "../src/sim.js";

const fails: string[] = [];
const check = (ok: boolean, what: string): void => {
  if (!ok) fails.push(what);
};

const city = new City(1, 0, 1);
const ai = city.cars[0]!;
Object.assign(ai, { x: 0, y: 10, heading: 0, speed: 10, cruise: 10 });
const p = city.join("driver");
city.enter(p, p.car.id);
Object.assign(p.car, { x: 200, y: 200, heading: Math.PI, speed: 0 });
const lag = new LagComp(600);
for (let k = 0; k < 40; k++) {
  city.step();
  lag.record(city);
}
const newest = lag.hist.newestMs!;
const cap = newest - 600;
check(lag.hist.clamp(newest - 10_000) === cap, `a view 10 s old is answered at ${lag.hist.clamp(newest - 10_000)}, not at the cap ${cap}`);
// Where the AI car was at the cap: the driver's car is put 2 m behind it, facing it.
lag.hist.view(cap);
const atCap = lag.hist.get(ai.id)!;
const from = { x: atCap[0]! - 2, y: atCap[1]!, heading: 0, speed: 5 };
const run = (viewMs: number): { n: number; x: number; speed: number } => {
  Object.assign(p.car, from);
  const n = lag.bump(p, viewMs);
  return { n, x: p.car.x, speed: p.car.speed };
};
check(Math.hypot(ai.x - from.x, ai.y - from.y) > 3, "the AI car never moved away from where it was at the cap");
const now = run(newest);
check(now.n === 0, `a view at the newest tick touched ${now.n} car(s): the AI car is no longer there`);
const capped0 = lag.hist.stats.capped;
const atCapRun = run(cap);
const ancient = run(newest - 10_000);
check(atCapRun.n === 1, `a view at the cap touched ${atCapRun.n} car(s), not the one there then`);
check(ancient.n === atCapRun.n && ancient.x === atCapRun.x && ancient.speed === atCapRun.speed, "a view older than the cap resolved differently from one at the cap");
check(lag.hist.stats.capped === capped0 + 1, "the view older than the cap was not counted");
check(lag.viewOf(p, 7) !== lag.viewOf(p, 7), "an unstamped frame has a view time (it should be NaN: the newest record)");

// The view time from the frames' stamps (`view` in ticks with the fraction, `ahead` in ms).
const TICK_MS = 50;
lag.stamp(p, 100, [{ view: newest / TICK_MS - 2.5, ahead: 120 }, {}], city.tick);
check(lag.stamped(p, 100) && lag.viewOf(p, 100) === newest - 125, `frame 100's view is ${lag.viewOf(p, 100)}, not its stamp's ${newest - 125}`);
// A frame without `view`: the estimate, the newest tick less the client's interpolation.
check(!lag.stamped(p, 101) && lag.viewOf(p, 101) === city.tick * TICK_MS - 100, `an unstamped frame's view is ${lag.viewOf(p, 101)}, not the estimate ${city.tick * TICK_MS - 100}`);
// A claim 10 s old, on the wire: resolved exactly as a claim at the cap with the same horizon; counted.
const runFrame = (seq: number): { n: number; x: number; speed: number } => {
  Object.assign(p.car, from);
  const n = lag.bumpFrame(p, seq);
  return { n, x: p.car.x, speed: p.car.speed };
};
for (const ahead of [0, 150]) {
  lag.stamp(p, 108, [{ view: cap / TICK_MS, ahead }], city.tick);
  const claimAtCap = runFrame(108);
  const capped1 = lag.hist.stats.capped;
  lag.stamp(p, 112, [{ view: (newest - 10_000) / TICK_MS, ahead }], city.tick);
  const claimAncient = runFrame(112);
  check(claimAncient.n === claimAtCap.n && claimAncient.x === claimAtCap.x && claimAncient.speed === claimAtCap.speed, `ahead ${ahead}: a claimed view 10 s old resolved differently (${JSON.stringify(claimAncient)}) from one at the cap (${JSON.stringify(claimAtCap)})`);
  check(lag.hist.stats.capped === capped1 + 1, `ahead ${ahead}: the claimed view older than the cap was not counted`);
  // The same as the world at the cap run ahead by the stamp's horizon, given directly.
  Object.assign(p.car, from);
  const direct = { n: lag.bump(p, cap, ahead), x: p.car.x, speed: p.car.speed };
  check(direct.n === claimAtCap.n && direct.x === claimAtCap.x && direct.speed === claimAtCap.speed, `ahead ${ahead}: a stamped frame is not the world at its view run ahead by its horizon`);
}
// The claim at the cap meets the AI car that was there (not run ahead): the stamp is used, not the estimate.
lag.stamp(p, 116, [{ view: cap / TICK_MS, ahead: 0 }], city.tick);
check(runFrame(116).n === 1, "a frame stamped at the cap did not meet the car that was there then");
lag.stamp(p, 120, [{}], city.tick);
check(runFrame(120).n === 0, "an unstamped frame (the estimate, 100 ms back) met a car that had left");
if (fails.length > 0) {
  console.error(fails.join("\n"));
  process.exit(1);
}
console.error("lag compensation: capped views resolve at the cap, stamped or given; every check holds");

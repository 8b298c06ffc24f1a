/**
 * The input lab: the city's simulation (src/sim.ts: the same `stepPlayer` on the simulated
 * server and the driving client) over simulated links, on a simulated clock, deterministic
 * from the seed. One player drives (60 Hz frames, four to a batch every 66.7 ms), one
 * watches; the server ticks at 20 Hz and sends both the driver's car each tick.
 *
 * Per link and seed it runs the server with and without input playout (the runtime's
 * `Playout`: three frames per tick), and the driver's client with and without
 * reconciliation (the runtime's `Reconciler`; without: the server's state is taken as is,
 * no replay). It counts the watched player's hitching frames (drawn motion more than 30% off
 * the car's own speed while it moves), the driver's corrections past 4 cm, the input delay
 * playout adds, the buffer depth, and inputs lost, duplicated or reordered.
 *
 * A second table (lab/ramming.ts, lab/ram_table.ts) is the hard case: a driver ramming AI
 * traffic and parked cars, with and without prediction of the other cars and lag compensation.
 *
 * `node build/playout_lab.mjs` prints the tables BENCHMARKS.md quotes (6 seeds × 30 s);
 * `--smoke` runs one seed of 10 s on every link with every check and prints no timing.
 */

import { Playout, Reconciler, type Predictor } from "village-protocol/runtime";
import type { InputFrame } from "village-protocol";
import { City, rng, stepPlayer, type Body, type Mover } from "../src/sim.js";
import { LINKS, Pipe, type Link } from "./links.js";
import { ramTable } from "./ram_table.js";

const TICK_MS = 50;
const FRAME_MS = 1000 / 60;
/** Hitch: drawn speed more than this share off the car's own speed, while it moves faster than MOVING m/s. */
const HITCH_OFF = 0.3;
const MOVING = 1;
/** The watcher draws this far behind its newest estimate of the server's time, ms (two ticks). */
const INTERP_MS = 100;

/** The car's state as sent: cm, mrad, 1/64 m/s (NearbyEntity's quantization). */
interface CarState {
  x: number;
  y: number;
  heading: number;
  speed: number;
}

const q = (v: number, s: number): number => Math.round(v * s) / s;
function quantized(b: Body): CarState {
  return { x: q(b.x, 100), y: q(b.y, 100), heading: q(b.heading, 1000), speed: q(b.speed, 64) };
}

function freshMover(c: CarState): Mover {
  const car: Body = { id: 0, kind: "Vehicle", x: c.x, y: c.y, heading: c.heading, speed: c.speed, anim: 0 };
  const body: Body = { id: 0, kind: "Npc", x: c.x, y: c.y, heading: 0, speed: 0, anim: 0 };
  return { car, body, driving: true };
}

/** The driver's client predicts its car with the city's own step. */
const predictor: Predictor<Mover, InputFrame> = {
  linear: 2,
  angle: 1,
  step: (m, f) => stepPlayer(m, f),
  channels(m, out) {
    out[0] = m.car.x;
    out[1] = m.car.y;
    out[2] = m.car.heading;
  },
  copy(from, to) {
    Object.assign(to.car, from.car);
    Object.assign(to.body, from.body);
    to.driving = from.driving;
  },
};

export interface RunResult {
  hitches: number;
  frames: number;
  corrections: number;
  correctionsNoRec: number;
  maxCorrection: number;
  delays: number[];
  depths: number[];
  sent: number;
  lost: number;
  duplicated: number;
  reordered: number;
  dropped: number;
}

/** One run: `seconds` of driving on `link` with seed `seed`, the server with or without playout. */
export function run(link: Link, seed: number, seconds: number, playout: boolean): RunResult {
  const r = rng(seed * 7877 + 11);
  const city = new City(seed, 0, 0);
  const driver = city.join("driver");
  city.join("watcher");
  city.enter(driver, driver.car.id);
  const up = new Pipe<{ first: number; frames: InputFrame[] }>(link, rng(seed * 31 + 1));
  const downDriver = new Pipe<{ tick: number; car: CarState; ack: number }>(link, rng(seed * 31 + 2));
  const downWatcher = new Pipe<{ tick: number; car: CarState }>(link, rng(seed * 31 + 3));
  const buffer = new Playout<InputFrame>();
  const start = quantized(driver.car);
  const rec = new Reconciler(predictor, freshMover(start), 0);
  // Without reconciliation: the client takes the server's state as is (no replay).
  const naive = freshMover(start);
  const server = freshMover(start);
  let naiveCorrections = 0;
  const arrivedAt = new Map<number, number>();
  const res: RunResult = { hitches: 0, frames: 0, corrections: 0, correctionsNoRec: 0, maxCorrection: 0, delays: [], depths: [], sent: 0, lost: 0, duplicated: 0, reordered: 0, dropped: 0 };
  const applied = new Set<number>();
  let lastApplied = -1;
  const applyFrame = (seq: number, f: InputFrame, now: number): void => {
    if (applied.has(seq)) res.duplicated += 1;
    if (seq < lastApplied) res.reordered += 1;
    applied.add(seq);
    lastApplied = seq;
    res.delays.push(now - arrivedAt.get(seq)!);
    driver.frames += 1;
    stepPlayer(driver, f);
  };
  // The driver's inputs: throttle mostly, a new steer every 1–3 s.
  let steer = 0;
  let steerUntil = 0;
  let batch: InputFrame[] = [];
  let seq = 0;
  // The watcher's snapshots (tick, car), its estimate of the server clock, its last drawn position.
  const snaps: { t: number; car: CarState }[] = [];
  let offset = Infinity;
  let drawnX = NaN;
  let drawnY = NaN;
  const phase = r() * FRAME_MS;
  const end = seconds * 1000;
  let nextFrame = phase;
  let nextTick = TICK_MS;
  let nextDraw = r() * FRAME_MS;
  const warmup = 1000;
  while (true) {
    const now = Math.min(nextFrame, nextTick, nextDraw);
    if (now > end) break;
    up.take(now, (b, at) => {
      for (let k = 0; k < b.frames.length; k++) arrivedAt.set(b.first + k, at);
      if (playout) buffer.push(b.first, b.frames);
      else b.frames.forEach((f, k) => applyFrame(b.first + k, f, at));
    });
    downDriver.take(now, (m) => {
      Object.assign(server.car, m.car);
      rec.reconcile(server, m.ack);
      const d = Math.hypot(naive.car.x - m.car.x, naive.car.y - m.car.y);
      if (d > 0.04) naiveCorrections += 1;
      predictor.copy(server, naive);
    });
    downWatcher.take(now, (m, at) => {
      offset = Math.min(offset, at - m.tick * TICK_MS);
      snaps.push({ t: m.tick * TICK_MS, car: m.car });
      if (snaps.length > 64) snaps.shift();
    });
    if (now === nextFrame) {
      if (now >= steerUntil) {
        steer = Math.round((r() * 2 - 1) * 100);
        steerUntil = now + 1000 + r() * 2000;
      }
      const dt = (res.sent + batch.length) % 3 === 2 ? 16 : 17;
      const f: InputFrame = { dt, buttons: { forward: r() < 0.9, back: false, left: false, right: false, jump: false, sprint: false, interact: false, primary: false, aim: false, brake: r() < 0.02, horn: false }, look: [0, 0], steer };
      rec.predict(f);
      stepPlayer(naive, f);
      batch.push(f);
      if (batch.length === 4) {
        up.send(now, { first: seq, frames: batch });
        seq += 4;
        res.sent += 4;
        batch = [];
      }
      nextFrame += FRAME_MS;
    } else if (now === nextTick) {
      if (playout) {
        for (let k = 0; k < 3; k++) buffer.step((s, f) => applyFrame(s, f, now));
        if (now >= warmup) res.depths.push(buffer.held);
      }
      city.step();
      const tick = city.tick;
      const car = quantized(driver.car);
      downDriver.send(now, { tick, car, ack: lastApplied });
      downWatcher.send(now, { tick, car });
      nextTick += TICK_MS;
    } else {
      // The watcher draws the driver's car INTERP_MS behind the newest server time it can estimate.
      if (snaps.length >= 2 && offset !== Infinity) {
        const t = now - offset - INTERP_MS;
        let i = snaps.length - 1;
        while (i > 0 && snaps[i - 1]!.t > t) i--;
        const a = snaps[Math.max(0, i - 1)]!;
        const b = snaps[i]!;
        const u = b.t === a.t ? 1 : Math.max(0, Math.min(1, (t - a.t) / (b.t - a.t)));
        const x = a.car.x + (b.car.x - a.car.x) * u;
        const y = a.car.y + (b.car.y - a.car.y) * u;
        const speed = a.car.speed + (b.car.speed - a.car.speed) * u;
        if (!Number.isNaN(drawnX) && now >= warmup && speed > MOVING) {
          res.frames += 1;
          const drawnSpeed = Math.hypot(x - drawnX, y - drawnY) / (FRAME_MS / 1000);
          if (Math.abs(drawnSpeed - speed) > HITCH_OFF * speed) res.hitches += 1;
        }
        drawnX = x;
        drawnY = y;
      }
      rec.frame(FRAME_MS);
      nextDraw += FRAME_MS;
    }
  }
  // Every frame sent at least a second before the end must have been applied.
  for (let s = 0; s < seq; s++) if (!applied.has(s) && (arrivedAt.get(s) ?? Infinity) < end - 1000) res.lost += 1;
  res.corrections = rec.stats.corrections;
  res.maxCorrection = rec.stats.maxCorrection;
  res.correctionsNoRec = naiveCorrections;
  res.dropped = buffer.stats.dropped;
  return res;
}

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

/** The seed's figures: hitching frames before → after playout (its empty-road run), corrections per 30 s before. */
const SEED_CORRECTIONS: Record<string, string> = { clean: "18", wifi: "37", far: "286" };

function main(): void {
  const smoke = process.argv.includes("--smoke");
  const seeds = smoke ? [1] : [1, 2, 3, 4, 5, 6];
  const seconds = smoke ? 10 : 30;
  const problems: string[] = [];
  const rows: string[] = [];
  rows.push(
    `${seeds.length} seeds × ${seconds} s per link; per ${seconds} s, means over seeds. Hitches: frames where the watched car's drawn speed is >30% off its own (of ~${seconds * 60} drawn frames). Corrections: the driver's prediction moving >4 cm when the server's answer arrives.`,
    "",
    "| link | hitches, no playout | hitches, playout | cut | added input delay p50 / p95 (ms) | depth p95 (frames) | corrections, no reconciliation | corrections, reconciliation (seed's before) | largest correction (cm) | lost / duplicated / reordered | dropped by cap |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const link of LINKS) {
    const off: RunResult[] = [];
    const on: RunResult[] = [];
    for (const seed of seeds) {
      off.push(run(link, seed, seconds, false));
      on.push(run(link, seed, seconds, true));
    }
    const mean = (rs: RunResult[], f: (r: RunResult) => number): number => rs.reduce((s, r) => s + f(r), 0) / rs.length;
    const hOff = mean(off, (r) => r.hitches);
    const hOn = mean(on, (r) => r.hitches);
    const delays = on.flatMap((r) => r.delays);
    const depths = on.flatMap((r) => r.depths);
    const all = [...off, ...on];
    const lost = all.reduce((s, r) => s + r.lost, 0);
    const dup = all.reduce((s, r) => s + r.duplicated, 0);
    const reo = all.reduce((s, r) => s + r.reordered, 0);
    const dropped = on.reduce((s, r) => s + r.dropped, 0);
    const corr = mean(all, (r) => r.corrections);
    const corrNo = mean(all, (r) => r.correctionsNoRec);
    const maxC = Math.max(...all.map((r) => r.maxCorrection));
    const cut = hOff === 0 ? 0 : 1 - hOn / hOff;
    rows.push(
      `| ${link.name} | ${hOff.toFixed(1)} | ${hOn.toFixed(1)} | ${(cut * 100).toFixed(0)}% | ${pct(delays, 0.5).toFixed(0)} / ${pct(delays, 0.95).toFixed(0)} | ${pct(depths, 0.95)} | ${corrNo.toFixed(1)} | ${corr.toFixed(1)}${SEED_CORRECTIONS[link.name] ? ` (${SEED_CORRECTIONS[link.name]})` : ""} | ${(maxC * 100).toFixed(1)} | ${lost} / ${dup} / ${reo} | ${dropped} |`,
    );
    if (lost + dup + reo > 0) problems.push(`${link.name}: ${lost} lost, ${dup} duplicated, ${reo} reordered inputs`);
    if (dropped > 0) problems.push(`${link.name}: ${dropped} frames dropped by the cap from a well-behaved client`);
    if (all.some((r) => r.frames === 0)) problems.push(`${link.name}: the watcher drew no moving frame`);
    const seedCorr = Number(SEED_CORRECTIONS[link.name] ?? Infinity);
    if (!(corr < seedCorr)) problems.push(`${link.name}: ${corr} corrections per run with reconciliation, not below the seed's ${seedCorr}`);
    if (link.name === "wifi" && !(cut >= 0.75)) problems.push(`wifi: playout cut hitching frames by ${(cut * 100).toFixed(0)}%, not 75%`);
  }
  rows.push("", "The seed's lab, for comparison: 518 → 116 hitching frames per run with playout (empty road), 18 / 37 / 286 corrections per 30 s on clean / Wi-Fi / far before its netcode work.");
  rows.push("", ...ramTable(seeds, seconds, problems));
  if (!smoke) console.log(rows.join("\n"));
  if (problems.length > 0) {
    console.error(problems.join("\n"));
    process.exit(1);
  }
  console.error(`input lab: ${LINKS.length} links × ${seeds.length} seed(s) × ${seconds} s: every check holds`);
}

main();

/**
 * The input lab's hard case (the city game's own setup): a bot driver laps the city centre and
 * rams moving AI traffic and parked cars, a watcher watches it. The server and the driver's
 * client run the same step and the same collisions (src/sim.ts, src/collide.ts); what differs
 * is the world the driver's car collides with:
 *
 * - `none`: the client collides with the other cars as it draws them (interpolated, 100 ms
 *   behind its estimate of the server's time), the server with the cars as they are when it
 *   applies the frame.
 * - `ahead`: the client runs the other cars forward to the time the server will apply the
 *   frame (their interpolated state and last known velocity, straight on); the server as above.
 * - `lagcomp`: the client as in `ahead`; each frame carries its view time and horizon as the
 *   wire does (`view` in hundredths of a tick, `ahead` in 2 ms steps), and the server is the
 *   Worker's `LagComp` (src/lag_comp.ts): it collides the driver's car with its history of
 *   the world at that view time (a `Rewind` of the cars as sent, capped at `MAX_REWIND_MS`),
 *   run forward by the same horizon: the world as the driver saw it. The other car still
 *   takes its impulse now.
 *
 * Deterministic from the seed.
 */

import { Playout, Reconciler, Rewind, type Predictor } from "village-protocol/runtime";
import type { InputFrame } from "village-protocol";
import { bumpAgainst, carChannels as channels, historySettings, LagComp, MAX_AHEAD_MS, MAX_REWIND_MS } from "../src/lag_comp.js";
import { City, rng, stepPlayer, type Body, type Mover } from "../src/sim.js";
import { Pipe, type Link } from "./links.js";

const TICK_MS = 50;
const FRAME_MS = 1000 / 60;
const INTERP_MS = 100;
export { MAX_REWIND_MS };
const HITCH_OFF = 0.3;
const MOVING = 1;

/** The ways the driver's collisions are resolved (see the module docs). */
export type Mode = "none" | "ahead" | "lagcomp";

/** An input frame with the view it was predicted against. */
interface Stamped {
  f: InputFrame;
  /** The time of the world the driver drew (server clock, ms), and how far it ran the other cars ahead. */
  viewMs: number;
  aheadMs: number;
}

function freshMover(c: number[]): Mover {
  const car: Body = { id: 0, kind: "Vehicle", x: c[0]!, y: c[1]!, heading: c[3]!, speed: c[2]!, anim: 0 };
  const body: Body = { id: 0, kind: "Npc", x: c[0]!, y: c[1]!, heading: 0, speed: 0, anim: 0 };
  return { car, body, driving: true };
}

/** One run's counts. */
export interface RamResult {
  corrections: number;
  maxCorrection: number;
  /** The most the drawn own car moved in one frame apart from its prediction (the easing and snaps), m. */
  maxJump: number;
  snaps: number;
  /** Times from a counted correction until its offset is under 1 cm, ms. */
  converge: number[];
  hitches: number;
  frames: number;
  crashes: number;
  capped: number;
}

/** Puts the city's AI cars on the streets of the centre (±150 m), where the driver laps. */
function crowd(city: City, r: () => number): void {
  for (const c of city.cars) {
    const horizontal = Math.abs(Math.sin(c.heading)) < 0.5;
    const lane = (Math.floor(r() * 7) - 3) * 50;
    const along = (r() * 2 - 1) * 150;
    c.x = horizontal ? along : lane;
    c.y = horizontal ? lane : along;
  }
}

/** One run: `seconds` of ramming on `link`. */
export function ram(link: Link, seed: number, seconds: number, mode: Mode): RamResult {
  const r = rng(seed * 7877 + 29);
  const city = new City(seed, 0, 60);
  crowd(city, r);
  const driver = city.join("driver");
  const watcher = city.join("watcher");
  city.enter(driver, driver.car.id);
  const own = driver.car.id;
  const players = new Set([own, watcher.car.id]);
  const lag = new LagComp();
  const clientHist = new Rewind(3, 1, historySettings(2000));
  type Down = { tick: number; car: number[]; ack: number; others: number[][] };
  const up = new Pipe<{ first: number; frames: Stamped[] }>(link, rng(seed * 31 + 1));
  const downDriver = new Pipe<Down>(link, rng(seed * 31 + 2));
  const downWatcher = new Pipe<{ tick: number; car: number[] }>(link, rng(seed * 31 + 3));
  const buffer = new Playout<Stamped>();
  const predictor: Predictor<Mover, Stamped> = {
    linear: 2,
    angle: 1,
    step(m, s) {
      stepPlayer(m, s.f);
      bumpAgainst(m, clientHist, s.viewMs, s.aheadMs, own, players);
    },
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
  const rec = new Reconciler(predictor, freshMover(channels(driver.car, [])), 0);
  const server = freshMover(channels(driver.car, []));
  const res: RamResult = { corrections: 0, maxCorrection: 0, maxJump: 0, snaps: 0, converge: [], hitches: 0, frames: 0, crashes: 0, capped: 0 };
  let lastApplied = -1;
  let touching = false;
  const applyFrame = (seq: number, s: Stamped): void => {
    lastApplied = seq;
    driver.frames += 1;
    stepPlayer(driver, s.f);
    let n: number;
    if (mode === "lagcomp") n = lag.bumpFrame(driver, seq);
    else n = city.bumpPresent(driver);
    if (n > 0 && !touching) res.crashes += 1;
    touching = n > 0;
  };
  // The client's clock: one-way delay estimate, and how long after its creation a frame is applied.
  let owd = Infinity;
  let lead = 100;
  const created = new Map<number, number>();
  let batch: Stamped[] = [];
  let seq = 0;
  const snaps: { t: number; car: number[] }[] = [];
  let wOffset = Infinity;
  let drawnX = NaN;
  let drawnY = NaN;
  let correctionAt = -1;
  const prevErr = new Float64Array(3);
  const end = seconds * 1000;
  let nextFrame = r() * FRAME_MS;
  let nextTick = TICK_MS;
  let nextDraw = r() * FRAME_MS;
  const warmup = 1000;
  let lap = 0;
  while (true) {
    const now = Math.min(nextFrame, nextTick, nextDraw);
    if (now > end) break;
    up.take(now, (b) => {
      buffer.push(b.first, b.frames);
      lag.stamp(driver, b.first, b.frames.map((s) => s.f), city.tick);
    });
    downDriver.take(now, (m, at) => {
      owd = Math.min(owd, at - m.tick * TICK_MS);
      if (!(m.tick * TICK_MS <= (clientHist.newestMs ?? -1))) {
        clientHist.record(m.tick, m.tick * TICK_MS);
        for (const o of m.others) clientHist.put(o[0]!, o.slice(1));
      }
      const c = created.get(m.ack);
      if (c !== undefined) lead = lead * 0.9 + (m.tick * TICK_MS - c) * 0.1;
      Object.assign(server.car, { x: m.car[0], y: m.car[1], speed: m.car[2], heading: m.car[3] });
      server.body.x = server.car.x;
      server.body.y = server.car.y;
      const corr = rec.reconcile(server, m.ack);
      if (corr !== undefined && corr.distance > rec.settings.countAbove && now >= warmup && correctionAt < 0) correctionAt = now;
    });
    downWatcher.take(now, (m, at) => {
      wOffset = Math.min(wOffset, at - m.tick * TICK_MS);
      snaps.push({ t: m.tick * TICK_MS, car: m.car });
      if (snaps.length > 64) snaps.shift();
    });
    if (now === nextFrame) {
      // The view time stamped is the one the client's history answers (a view past its newest record is at that record).
      const viewMs = owd === Infinity ? 0 : (clientHist.clamp(now - owd - INTERP_MS) ?? now - owd - INTERP_MS);
      const aheadMs = mode === "none" ? 0 : Math.max(0, Math.min(MAX_AHEAD_MS, now + lead - viewMs));
      const steer = aim(rec.state, clientHist, viewMs, aheadMs, own, lap);
      if (Math.hypot(rec.state.car.x - LAP[lap]![0], rec.state.car.y - LAP[lap]![1]) < 25) lap = (lap + 1) % LAP.length;
      const dt = seq % 3 === 2 ? 16 : 17;
      // The stamps as the wire carries them (hundredths of a tick, rounded down: never past the
      // newest snapshot the client has; 2 ms steps); the client predicts with the same.
      const view = Math.floor((Math.max(0, viewMs) / TICK_MS) * 100) / 100;
      const ahead = Math.round(aheadMs / 2) * 2;
      const f: InputFrame = { dt, buttons: { forward: rec.state.car.speed < 14, back: false, left: false, right: false, jump: false, sprint: false, interact: false, primary: false, aim: false, brake: false, horn: false }, look: [0, 0], steer, view, ahead };
      const s: Stamped = { f, viewMs: view * TICK_MS, aheadMs: ahead };
      created.set(rec.nextSeq, now);
      rec.predict(s);
      batch.push(s);
      if (batch.length === 4) {
        up.send(now, { first: seq, frames: batch });
        seq += 4;
        batch = [];
      }
      nextFrame += FRAME_MS;
    } else if (now === nextTick) {
      city.step();
      for (let k = 0; k < 3; k++) buffer.step((sq, s) => applyFrame(sq, s));
      const tick = city.tick;
      lag.record(city);
      const others: number[][] = [];
      for (const c of [...city.cars, watcher.car]) {
        const ch = channels(c, []);
        if (Math.hypot(c.x - driver.car.x, c.y - driver.car.y) < 90) others.push([c.id, ...ch]);
      }
      const car = channels(driver.car, []);
      downDriver.send(now, { tick, car, ack: lastApplied, others });
      downWatcher.send(now, { tick, car });
      nextTick += TICK_MS;
    } else {
      if (snaps.length >= 2 && wOffset !== Infinity) {
        const t = now - wOffset - INTERP_MS;
        let i = snaps.length - 1;
        while (i > 0 && snaps[i - 1]!.t > t) i--;
        const a = snaps[Math.max(0, i - 1)]!;
        const b = snaps[i]!;
        const u = b.t === a.t ? 1 : Math.max(0, Math.min(1, (t - a.t) / (b.t - a.t)));
        const x = a.car[0]! + (b.car[0]! - a.car[0]!) * u;
        const y = a.car[1]! + (b.car[1]! - a.car[1]!) * u;
        const speed = a.car[2]! + (b.car[2]! - a.car[2]!) * u;
        if (!Number.isNaN(drawnX) && now >= warmup && speed > MOVING) {
          res.frames += 1;
          const drawnSpeed = Math.hypot(x - drawnX, y - drawnY) / (FRAME_MS / 1000);
          if (Math.abs(drawnSpeed - speed) > HITCH_OFF * speed) res.hitches += 1;
        }
        drawnX = x;
        drawnY = y;
      }
      // The own car's drawn jump apart from its prediction: how much the offset changed this frame.
      prevErr.set(rec.error);
      rec.frame(FRAME_MS);
      const jump = Math.hypot(rec.error[0]! - prevErr[0]!, rec.error[1]! - prevErr[1]!);
      if (now >= warmup && jump > res.maxJump) res.maxJump = jump;
      if (correctionAt >= 0 && Math.hypot(rec.error[0]!, rec.error[1]!) < 0.01) {
        res.converge.push(now - correctionAt);
        correctionAt = -1;
      }
      nextDraw += FRAME_MS;
    }
  }
  res.corrections = rec.stats.corrections;
  res.maxCorrection = rec.stats.maxCorrection;
  res.snaps = rec.stats.snaps;
  res.capped = lag.hist.stats.capped;
  return res;
}

/** The driver's lap: the corners of the centre's block ring. */
const LAP: readonly (readonly [number, number])[] = [
  [100, 100],
  [-100, 100],
  [-100, -100],
  [100, -100],
];

/** The bot's steer: at the nearest car ahead within 40 m (as the driver sees it), else along its lap. */
function aim(m: Mover, hist: Rewind, viewMs: number, aheadMs: number, own: number, lap: number): number {
  const c = m.car;
  let tx = LAP[lap]![0];
  let ty = LAP[lap]![1];
  let best = 40;
  if (hist.view(viewMs) !== undefined) {
    for (let i = 0; i < hist.length; i++) {
      if (hist.id(i) === own) continue;
      const ch = hist.channels(i);
      const x = ch[0]! + Math.cos(ch[3]!) * ch[2]! * (aheadMs / 1000);
      const y = ch[1]! + Math.sin(ch[3]!) * ch[2]! * (aheadMs / 1000);
      const d = Math.hypot(x - c.x, y - c.y);
      const off = Math.abs(wrap(Math.atan2(y - c.y, x - c.x) - c.heading));
      if (d < best && off < 0.8) {
        best = d;
        tx = x;
        ty = y;
      }
    }
  }
  const want = wrap(Math.atan2(ty - c.y, tx - c.x) - c.heading);
  return Math.max(-100, Math.min(100, Math.round(want * 120)));
}

function wrap(a: number): number {
  return Math.atan2(Math.sin(a), Math.cos(a));
}

/**
 * One run of the lab: true paths, senders (10 Hz moves on the sender's frames, or `sendMs`,
 * relayed every 1st/3rd/10th time; 20 Hz server snapshots), one in-order link, a receiver's noisy frames, and
 * the four strategies drawing the same messages at the same frames. Deterministic from a seed.
 */
import { Rng } from "./rng.js";
import { T0, Truth, type Kind } from "./truth.js";
import type { Link } from "./links.js";
import type { NetcodeSettings } from "../../../codegen/ts-runtime/settings.js";
import { Arrival, Drew, Geckos, Lerp, MirrorSI, Tuplet, type Strategy } from "./strategies.js";

/** Settings over tuplet's defaults, for tuning runs only: NETCODE_LAB_SETTINGS='{"jitterFactor":2}'. */
const TUNE: Partial<NetcodeSettings> | undefined = process.env.NETCODE_LAB_SETTINGS ? JSON.parse(process.env.NETCODE_LAB_SETTINGS) : undefined;

/** One entity of a run. */
export interface Entity {
  readonly kind: Kind;
  /** Stamped by the 20 Hz server tick (snapshot stream) instead of a 10 Hz sender. */
  readonly tick: boolean;
  /** Relayed every `stride`th move (interest management). */
  readonly stride: number;
}

/**
 * The lab's entities: six near players (a walker, a turning car, stop-and-go, a teleporter,
 * 180° turns back and forth, long idles), a far walker and a far stop-and-go relayed every 3rd
 * move, a very far car every 10th, and two entities of a 20 Hz tick-stamped snapshot.
 */
export const ENTITIES: readonly Entity[] = [
  { kind: "walk", tick: false, stride: 1 },
  { kind: "car", tick: false, stride: 1 },
  { kind: "stopgo", tick: false, stride: 1 },
  { kind: "teleport", tick: false, stride: 1 },
  { kind: "walk", tick: false, stride: 3 },
  { kind: "car", tick: false, stride: 10 },
  { kind: "car", tick: true, stride: 1 },
  { kind: "walk", tick: true, stride: 1 },
  { kind: "turn", tick: false, stride: 1 },
  { kind: "idle", tick: false, stride: 1 },
  { kind: "stopgo", tick: false, stride: 3 },
];

/** The strategies' names, in the order `run` builds them. */
export const NAMES = ["colyseus-lerp", "geckos", "arrival-120ms", "mirror", "tuplet"] as const;

/** What happens to the receiver during a run. */
export type Event = "steady" | "hidden" | "stall";
/** When an event starts (true ms) and how long it lasts. */
export const EVENT_AT = 12000;
export const EVENT_MS: Record<Event, number> = { steady: 0, hidden: 5000, stall: 1000 };
/** Frames before this true time are warm-up, not measured. */
export const WARMUP = 2000;

/** A run's parameters. */
export interface RunConfig {
  readonly seed: number;
  readonly link: Link;
  readonly fps: number;
  readonly event: Event;
  readonly durationMs: number;
  /** How often each entity's own sender sends (ms; 100: 10 Hz); relays forward every `stride`th. */
  readonly sendMs?: number;
  /** Called each frame with the strategies' drawings (the picture, the checks). */
  readonly onFrame?: (f: FrameView) => void;
}

/** What `onFrame` sees. */
export interface FrameView {
  readonly trueNow: number;
  readonly dt: number;
  readonly strategies: readonly Strategy[];
  readonly truths: readonly Truth[];
  /** Skew of the clock entity `e` is stamped with: stamp = true time + skew. */
  readonly skew: Float64Array;
  readonly recvSkew: number;
}

interface Msg { arrive: number; stamp: number; e: number; x: number; y: number; snap: boolean }

/** Builds the run's messages and frames and drives every strategy; returns them for metrics. */
export function run(cfg: RunConfig): { strategies: Strategy[]; truths: Truth[] } {
  const rng = new Rng(cfg.seed * 7919 + cfg.fps);
  const trng = new Rng(cfg.seed);
  const lrng = new Rng(cfg.seed * 104729 + cfg.link.name.length * 31 + cfg.fps);
  const dur = cfg.durationMs;
  const sendMs = cfg.sendMs ?? 100;
  const truths = ENTITIES.map((e) => new Truth(e.kind, dur + 1000, trng));
  const skew = new Float64Array(ENTITIES.length);
  const serverSkew = trng.range(1e6, 9e6);
  for (let e = 0; e < ENTITIES.length; e++) skew[e] = ENTITIES[e]!.tick ? serverSkew : trng.range(1e6, 9e6);
  // every clock reads like Date.now() (positive: geckos takes a time <= 1 for a percentage)
  const recvSkew = trng.range(1e6, 9e6);
  const p = { x: 0, y: 0 };

  // ---- senders: (true send time, stamp, entity, pose) ----
  const sends: Omit<Msg, "arrive">[] = [];
  const sendTimes: number[] = [];
  for (let e = 0; e < ENTITIES.length; e++) {
    const ent = ENTITIES[e]!;
    if (ent.tick) continue;
    let f = T0 + 500 + trng.range(0, 20), due = f + trng.range(0, 100), count = 0, lastX = NaN, lastY = NaN, same = 0, silent = false;
    while (f < dur) {
      if (f >= due) {
        due += sendMs;
        truths[e]!.at(f, p);
        const still = p.x === lastX && p.y === lastY;
        same = still ? same + 1 : 0;
        lastX = p.x; lastY = p.y;
        // the first unchanged pose is sent; then silence until it moves
        if (same <= 1) {
          count++;
          // the relay forwards every `stride`th move, and always the pose that ends a movement
          // and the first after a silence
          if (count % ent.stride === 0 || same === 1 || silent) { sends.push({ stamp: f + skew[e]!, e, x: p.x, y: p.y, snap: false }); sendTimes.push(f + 2); }
        }
        silent = same > 1;
      }
      f += (1000 / 60) * (1 + trng.range(-0.1, 0.1));
    }
  }
  for (let k = Math.ceil((T0 + 500) / 50); k * 50 < dur; k++) {
    const t = k * 50;
    sends.push({ stamp: t + serverSkew, e: -1, x: 0, y: 0, snap: true });
    sendTimes.push(t + trng.range(0.5, 4));
    for (let e = 0; e < ENTITIES.length; e++) {
      if (!ENTITIES[e]!.tick) continue;
      truths[e]!.at(t, p);
      sends.push({ stamp: t + serverSkew, e, x: p.x, y: p.y, snap: false });
      sendTimes.push(sendTimes[sendTimes.length - 1]!);
    }
  }
  // ---- the link: latency per message, in order (one WebSocket) ----
  const order = sends.map((_, i) => i).sort((a, b) => sendTimes[a]! - sendTimes[b]! || a - b);
  const msgs: Msg[] = [];
  let lastArrive = -Infinity, lastSendTime = NaN, lat = 0, stallAt = T0 + 2000, stallMs = 250;
  for (const i of order) {
    const st = sendTimes[i]!;
    if (st !== lastSendTime) lat = cfg.link.latency(lrng); // a snapshot's parts travel together
    lastSendTime = st;
    let arrive = Math.max(st + lat, lastArrive);
    if (cfg.event === "stall" && arrive >= EVENT_AT && arrive < EVENT_AT + EVENT_MS.stall) arrive = EVENT_AT + EVENT_MS.stall;
    // a link that stalls: 200–300 ms without messages every 2–4 s
    while (cfg.link.stalls && arrive >= stallAt) {
      if (arrive < stallAt + stallMs) arrive = stallAt + stallMs;
      stallAt += lrng.range(2000, 4000);
      stallMs = lrng.range(200, 300);
    }
    lastArrive = arrive;
    msgs.push({ ...sends[i]!, arrive });
  }

  // ---- the receiver ----
  const clock = { now: 0 };
  const realNow = Date.now;
  Date.now = () => clock.now;
  const infos = ENTITIES.map((e) => ({ tick: e.tick }));
  const interval = (e: number): number => (ENTITIES[e]!.tick ? 50 : sendMs * ENTITIES[e]!.stride);
  const strategies: Strategy[] = [new Lerp(ENTITIES.length), new Geckos(infos, clock), new Arrival(ENTITIES.length), new MirrorSI(infos, interval), new Tuplet(infos, TUNE)];
  try {
    let t = T0 + 600, mi = 0, prev = t;
    const hideFrom = cfg.event === "hidden" ? EVENT_AT : Infinity, hideTo = EVENT_AT + EVENT_MS.hidden;
    const deliver = (upTo: number, at: number | undefined): void => {
      while (mi < msgs.length && msgs[mi]!.arrive <= upTo) {
        const m = msgs[mi++]!;
        // noticed between frames (at the frame's time) or, in a hidden tab, when it arrives
        const arrived = (at ?? m.arrive) + recvSkew;
        clock.now = arrived;
        for (const s of strategies) {
          if (m.snap) s.snapshot(m.stamp, arrived);
          else s.message(m.e, m.stamp, arrived, m.x, m.y);
        }
      }
    };
    while (t < dur) {
      if (t >= hideFrom && t < hideTo) {
        deliver(hideTo, undefined);
        t = hideTo;
      }
      deliver(t, t);
      clock.now = t + recvSkew;
      for (const s of strategies) s.frame(t + recvSkew);
      cfg.onFrame?.({ trueNow: t, dt: t - prev, strategies, truths, skew, recvSkew });
      prev = t;
      let dt = (1000 / cfg.fps) * (1 + rng.range(-0.15, 0.15));
      if (rng.chance(0.01)) dt *= 3; // a long frame now and then
      t += dt;
    }
  } finally {
    Date.now = realNow;
  }
  return { strategies, truths };
}

export { Drew };

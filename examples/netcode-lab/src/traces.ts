/**
 * The shared traces (tests/fixtures/netcode/traces.json): inputs and what TypeScript's
 * interpolator drew, which Rust's `tuplet::netcode` must reproduce (runtime/tests/netcode_traces.rs):
 * the same state on every frame, every value within the stated tolerance.
 *
 *   node build/examples/netcode-lab/src/traces.js --write FILE   regenerate
 *   node build/examples/netcode-lab/src/traces.js --check FILE   fail when FILE differs
 *
 * Ops: [0, sentMs, arrivedMs, ...channels] pushSent; [1, nowMs] sample; [2, timeMs, ...channels]
 * pushAt; [3, serverMs, arrivedMs] RenderClock.observe; [4, nowMs] sampleAt(clock.now(nowMs));
 * [5, sentMs, arrivedMs, ...channels] pushSent flagged as a teleport.
 * Each frame op (1, 4) has one expected row: [state, ...out] (4 adds the clock's time first).
 * A trace's `settings` (camelCase, over the defaults) apply to its interpolator and clock.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { Interpolator, type ChannelLayout } from "../../../codegen/ts-runtime/interp.js";
import { RenderClock } from "../../../codegen/ts-runtime/render_clock.js";
import type { NetcodeSettings } from "../../../codegen/ts-runtime/settings.js";
import { Rng } from "./rng.js";

/** Absolute tolerance, scaled by max(1, |value|). */
export const TOLERANCE = 1e-9;

interface Trace { name: string; layout: ChannelLayout; settings: Partial<NetcodeSettings>; ops: number[][]; expect: number[][] }

function replay(t: Trace): number[][] {
  const it = new Interpolator(t.layout, t.settings);
  const clock = new RenderClock(t.settings);
  const rows: number[][] = [];
  for (const op of t.ops) {
    switch (op[0]) {
      case 0: it.pushSent(op[1]!, op[2]!, op.slice(3)); break;
      case 5: it.pushSent(op[1]!, op[2]!, op.slice(3), true); break;
      case 1: rows.push([it.sample(op[1]!), ...it.out]); break;
      case 2: it.pushAt(op[1]!, op.slice(2)); break;
      case 3: clock.observe(op[1]!, op[2]!); break;
      case 4: {
        const r = clock.now(op[1]!);
        rows.push(r === r ? [it.sampleAt(r), r, ...it.out] : [0, 0, ...it.out]);
        break;
      }
    }
  }
  return rows;
}

/** How a walker's run goes wrong, beyond jitter. */
interface Trouble {
  /** The teleport's sample arrives this much late (ms). */
  readonly lateTeleport: number;
  /** The teleport is a short respawn (3 m) flagged as one. */
  readonly flagged: boolean;
  /** Stalls of 250 ms every 2 s (Wi-Fi). */
  readonly stalls: boolean;
  /** The sender's first still pose is lost: the newest sample ends a movement. */
  readonly lostStop: boolean;
}
const CALM: Trouble = { lateTeleport: 0, flagged: false, stalls: false, lostStop: false };

/** A walker (x, y, heading, animation id) over a jittery link at 60 fps with every event. */
function moves(seed: number, jitter: number, trouble: Trouble = CALM, settings: Partial<NetcodeSettings> = {}): Trace {
  const rng = new Rng(seed);
  const ops: number[][] = [];
  const skew = 5e6 + rng.range(0, 1e6);
  let x = 0, y = 0, h = 3, v = 1.5, anim = 1, still = 0;
  const sends: { at: number; row: number[] }[] = [];
  for (let t = 0, due = 0; t < 14000; t += 1000 / 60) {
    h += 0.0005 * 16.7 * (rng.next() - 0.3); // turns, wrapping past ±π
    if (t > 4000 && t < 5500) v = 0; else v = 1.5; // stop, silence
    x += v * Math.cos(h) * 0.0167; y += v * Math.sin(h) * 0.0167;
    const jumpNow = t >= 10000 && t < 10017;
    if (jumpNow) x += trouble.flagged ? 3 : 40; // a teleport
    if (t < due) continue;
    due += 100;
    const wrapped = h - 2 * Math.PI * Math.floor((h + Math.PI) / (2 * Math.PI));
    still = v === 0 ? still + 1 : 0;
    if (still > 1) continue; // the sender is silent while still
    if (trouble.lostStop && still === 1) continue; // ... and its first still pose was lost
    anim = v === 0 ? 0 : 1 + Math.floor(t / 3000);
    let arrive = t + 20 + rng.range(0, jitter);
    if (arrive > 11000 && arrive < 12000) arrive = 12000; // a stall
    if (trouble.stalls && arrive % 2000 < 250) arrive += 250 - (arrive % 2000);
    const teleport = t >= 10000 && t < 10100;
    if (teleport) arrive += trouble.lateTeleport;
    sends.push({ at: arrive, row: [teleport && trouble.flagged ? 5 : 0, t + skew, 0, x, y, wrapped, anim] });
  }
  sends.sort((a, b) => a.at - b.at || a.row[1]! - b.row[1]!);
  let si = 0;
  for (let now = 50; now < 14500; now += (1000 / 60) * (1 + rng.range(-0.15, 0.15))) {
    if (now > 6000 && now < 6100) now = 9000; // a hidden tab: 3 s without frames
    while (si < sends.length && sends[si]!.at <= now) {
      const s = sends[si++]!;
      s.row[2] = Math.max(s.at, 0) + 1e6; // noticed at its arrival, our clock
      ops.push(s.row);
    }
    ops.push([1, now + 1e6]);
  }
  const what = Object.entries(trouble).filter(([, v]) => v).map(([k, v]) => (v === true ? k : `${k} ${v}`)).join(", ");
  const set = Object.entries(settings).map(([k, v]) => `${k} ${v}`).join(", ");
  return { name: `moves seed ${seed} jitter ${jitter}${what ? `, ${what}` : ""}${set ? `, ${set}` : ""}`, layout: { linear: 2, angle: 1, hold: 1 }, settings, ops, expect: [] };
}

/** A car in 20 Hz tick-stamped snapshots, drawn at a render clock, over a Wi-Fi-like link; the server's tick `drift` slow (negative: fast). */
function ticks(seed: number, drift = 0): Trace {
  const rng = new Rng(seed);
  const ops: number[][] = [];
  const server = 3e6;
  const sends: { at: number; tick: number; x: number; y: number }[] = [];
  let last = 0;
  for (let k = 0; k * 50 < 8000; k++) {
    const t = k * 50;
    const at = Math.max(last, t * (1 + drift) + 45 + rng.range(0, 30) + (rng.chance(0.05) ? rng.range(0, 120) : 0));
    last = at;
    sends.push({ at, tick: t, x: 10 * Math.cos(t / 2000) * t / 1000, y: 8 * Math.sin(t / 1500) });
  }
  let si = 0;
  for (let now = 0; now < 8500 * (1 + drift); now += (1000 / 144) * (1 + rng.range(-0.15, 0.15))) {
    while (si < sends.length && sends[si]!.at <= now) {
      const s = sends[si++]!;
      ops.push([3, s.tick + server, now + 2e6], [2, s.tick + server, s.x, s.y]);
    }
    ops.push([4, now + 2e6]);
  }
  return { name: `ticks seed ${seed}${drift ? ` drift ${drift}` : ""}`, layout: { linear: 2, angle: 0, hold: 0 }, settings: {}, ops, expect: [] };
}

function build(): { tolerance: number; traces: Trace[] } {
  const traces = [
    moves(1, 80), moves(2, 5), moves(3, 150), ticks(4),
    moves(5, 40, { ...CALM, lateTeleport: 400, stalls: true, lostStop: true }),
    moves(6, 40, { ...CALM, flagged: true }, { extrapolateMs: 250, extrapolateAfter: 1 }),
    ticks(7, 0.12), ticks(8, -0.1),
    // a ring of 6 behind stalls: full while the drawing still needs its oldest sample, it thins
    moves(9, 40, { ...CALM, stalls: true, lostStop: true }, { ringSize: 6 }),
  ];
  for (const t of traces) t.expect = replay(t);
  return { tolerance: TOLERANCE, traces };
}

/** Rounds to 12 significant digits past the decimal point, so the file stays small and stable. */
function text(v: unknown): string {
  return JSON.stringify(v, (_, x) => (typeof x === "number" ? Number(x.toPrecision(15)) : x)) + "\n";
}

const [mode, file] = process.argv.slice(2);
if (mode === "--write" && file) {
  writeFileSync(file, text(build()));
  process.stderr.write(`traces: wrote ${file}\n`);
} else if (mode === "--check" && file) {
  const want = JSON.parse(readFileSync(file, "utf8")) as { traces: Trace[] };
  const got = build();
  let bad = 0;
  got.traces.forEach((t, i) => {
    const w = want.traces[i];
    if (!w || JSON.stringify(w.ops) !== JSON.stringify(JSON.parse(text(t.ops)))) { bad++; return; }
    const rows = replay(w); // the committed inputs, replayed by today's code
    rows.forEach((r, j) => {
      const e = w.expect[j]!;
      if (r[0] !== e[0] || r.some((x, k) => Math.abs(x - e[k]!) > TOLERANCE * Math.max(1, Math.abs(x)) * 1e3)) bad++;
    });
  });
  if (bad > 0) {
    process.stderr.write(`traces: ${file} differs from what interp.ts draws (${bad} rows); rewrite it with --write if the change is intended\n`);
    process.exit(1);
  }
  process.stderr.write(`traces: ${file} matches interp.ts\n`);
} else {
  process.stderr.write("usage: traces.js --write FILE | --check FILE\n");
  process.exit(2);
}

/**
 * The object's tick without workerd: the city's simulation and both snapshot streams (tuplet's
 * `Tracker`, the JSON twin's deltas) in plain Node, on the same V8, with sockets that only count
 * bytes. It isolates what the object's own code costs per tick (the part a profile of the lab
 * attributes to the tracker) from WebSocket framing, compression and the runtime.
 *
 *   node build/tick_bench.mjs [--players 50] [--ticks 1200] [--rounds 5] [--seed 1]
 *
 * Rounds alternate the two streams; each round runs the same seeded city for `ticks` ticks
 * (20 Hz, a keyframe every 5 s, the bots' input pattern). Prints the process's CPU time per
 * tick (median of the rounds, with the range; CPU time, not wall time, so that other work on a
 * shared machine counts less) and snapshot bytes per player per tick.
 */

import { City as Sim, type Player } from "../src/sim.js";
import { JsonStream, TupletStream, type Stream } from "../src/streams.js";
import type { Buttons, InputFrame } from "village-protocol";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const players = Number(args.get("players") ?? 50);
const ticks = Number(args.get("ticks") ?? 1200);
const rounds = Number(args.get("rounds") ?? 5);
const seed = Number(args.get("seed") ?? 1);
const only = args.get("only");

const KEYFRAME_EVERY = 100;

function buttons(held: Partial<Buttons>): Buttons {
  return { forward: false, back: false, left: false, right: false, jump: false, sprint: false, interact: false, primary: false, aim: false, brake: false, horn: false, ...held };
}

/** A socket that counts what it is sent. */
class CountingSocket {
  bytes = 0;
  send(data: Uint8Array | string): void {
    this.bytes += typeof data === "string" ? data.length : data.byteLength;
  }
}

interface Seat {
  player: Player;
  stream: Stream;
  ws: CountingSocket;
  rand: () => number;
  heading: number;
}

function lcg(s: number): () => number {
  let x = s >>> 0 || 1;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 4294967296;
  };
}

function frame(s: Seat): InputFrame {
  const r = s.rand;
  if (s.player.driving) {
    return { dt: 16, buttons: buttons({ forward: r() < 0.8, brake: r() < 0.05 }), look: [0, 0], steer: Math.round(30 + r() * 40) };
  }
  const turn = (r() - 0.5) * 0.2;
  s.heading += turn;
  const forward = r() < 0.7;
  return { dt: 16, buttons: buttons({ forward, sprint: forward && r() < 0.2 }), look: [Math.round(turn * 1000) / 1000, 0], steer: 0 };
}

/** One round: a fresh city, `players` seats, `ticks` ticks; returns ms per tick and bytes. */
function round(kind: "tuplet" | "json"): { msPerTick: number; bytesPerSlot: number } {
  const sim = new Sim(seed);
  const seats: Seat[] = [];
  for (let i = 0; i < players; i++) {
    const player = sim.join(`bot${String(i).padStart(6, "0")}`);
    if (i % 2 === 0) sim.enter(player, player.car.id);
    seats.push({ player, stream: kind === "tuplet" ? new TupletStream() : new JsonStream(), ws: new CountingSocket(), rand: lcg(seed * 1000 + i), heading: 0 });
  }
  let first = 0;
  let ms = 0;
  for (let t = 0; t < ticks; t++) {
    // Inputs arrive between ticks (a batch of 4 frames about every 66 ms, so most ticks).
    if (t % 4 !== 3) for (const s of seats) sim.input(s.player, first, [frame(s), frame(s), frame(s), frame(s)]);
    first += 4;
    const t0 = process.cpuUsage();
    sim.step();
    const tick = sim.tick;
    for (const s of seats) {
      const keyframe = tick === 1 || tick % KEYFRAME_EVERY === 0;
      if (keyframe) s.stream.requestKeyframe();
      s.stream.send(s.ws as unknown as WebSocket, tick, keyframe, sim.view(s.player));
    }
    const d = process.cpuUsage(t0);
    ms += (d.user + d.system) / 1000;
  }
  const bytes = seats.reduce((n, s) => n + s.ws.bytes, 0);
  return { msPerTick: ms / ticks, bytesPerSlot: bytes / (ticks * players) };
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const kinds = only === "tuplet" || only === "json" ? [only] : (["tuplet", "json"] as const);
const results = new Map<string, { ms: number[]; bytes: number[] }>();
for (const k of kinds) results.set(k, { ms: [], bytes: [] });
round("tuplet");
round("json");
for (let i = 0; i < rounds; i++) {
  const order = i % 2 === 0 ? kinds : kinds.slice().reverse();
  for (const k of order) {
    const r = round(k as "tuplet" | "json");
    results.get(k)!.ms.push(r.msPerTick);
    results.get(k)!.bytes.push(r.bytesPerSlot);
  }
}
console.log(`${players} players, ${ticks} ticks, ${rounds} rounds, seed ${seed}`);
for (const [k, r] of results) {
  const lo = Math.min(...r.ms).toFixed(3);
  const hi = Math.max(...r.ms).toFixed(3);
  console.log(`${k.padEnd(6)} tick ${median(r.ms).toFixed(3)} ms (${lo}-${hi}), snapshot ${median(r.bytes).toFixed(1)} B per player per tick`);
}

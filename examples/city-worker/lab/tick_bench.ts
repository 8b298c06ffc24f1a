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

import { TupletStream, type Stream } from "../src/streams.js";
import { JsonStream } from "./worker/streams.js";
import { SyntheticCity } from "./synthetic.js";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const players = Number(args.get("players") ?? 50);
const ticks = Number(args.get("ticks") ?? 1200);
const rounds = Number(args.get("rounds") ?? 5);
const seed = Number(args.get("seed") ?? 1);
const only = args.get("only");
/** `--together 1`: every seat's keyframes on one tick (as before they were spread by slot). */
const together = args.get("together") === "1";

/** A socket that counts what it is sent. */
class CountingSocket {
  bytes = 0;
  send(data: Uint8Array | string): void {
    this.bytes += typeof data === "string" ? data.length : data.byteLength;
  }
}

/** One round: a fresh city, `players` seats, `ticks` ticks; returns ms per tick and bytes. */
function round(kind: "tuplet" | "json"): { msPerTick: number; bytesPerSlot: number; p99: number } {
  const city = new SyntheticCity(seed, players);
  const seats = city.seats.map((seat) => ({ seat, stream: (kind === "tuplet" ? new TupletStream() : new JsonStream()) as Stream, ws: new CountingSocket() }));
  let ms = 0;
  const wall: number[] = [];
  for (let t = 0; t < ticks; t++) {
    // Inputs arrive between ticks, outside the timer (as in the object).
    city.inputs();
    const t0 = process.cpuUsage();
    const w0 = performance.now();
    const tick = city.step();
    for (const s of seats) {
      const keyframe = SyntheticCity.keyframe(tick, s.seat.player.slot, together);
      if (keyframe) s.stream.requestKeyframe();
      s.stream.send(s.ws as unknown as WebSocket, tick, keyframe, city.view(s.seat));
    }
    wall.push(performance.now() - w0);
    const d = process.cpuUsage(t0);
    ms += (d.user + d.system) / 1000;
  }
  const bytes = seats.reduce((n, s) => n + s.ws.bytes, 0);
  wall.sort((a, b) => a - b);
  return { msPerTick: ms / ticks, bytesPerSlot: bytes / (ticks * players), p99: wall[Math.floor(wall.length * 0.99)]! };
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const kinds = only === "tuplet" || only === "json" ? [only] : (["tuplet", "json"] as const);
const results = new Map<string, { ms: number[]; bytes: number[]; p99: number[] }>();
for (const k of kinds) results.set(k, { ms: [], bytes: [], p99: [] });
round("tuplet");
round("json");
for (let i = 0; i < rounds; i++) {
  const order = i % 2 === 0 ? kinds : kinds.slice().reverse();
  for (const k of order) {
    const r = round(k as "tuplet" | "json");
    results.get(k)!.ms.push(r.msPerTick);
    results.get(k)!.bytes.push(r.bytesPerSlot);
    results.get(k)!.p99.push(r.p99);
  }
}
console.log(`${players} players, ${ticks} ticks, ${rounds} rounds, seed ${seed}, keyframes ${together ? "on one tick" : "spread by slot"}`);
for (const [k, r] of results) {
  const lo = Math.min(...r.ms).toFixed(3);
  const hi = Math.max(...r.ms).toFixed(3);
  console.log(`${k.padEnd(6)} tick ${median(r.ms).toFixed(3)} ms (${lo}-${hi}), wall p99 ${median(r.p99).toFixed(3)} ms, snapshot ${median(r.bytes).toFixed(1)} B per player per tick`);
}

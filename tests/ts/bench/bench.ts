// The generated TypeScript codecs against real peers, side by side in one run (mitata):
// msgpackr and @msgpack/msgpack alone (they check nothing), each with tuplet's `fromWire` or a
// Zod 4 schema, and JSON + Zod. Datasets: the bytes Rust writes in `bench/fixtures/`
// (tests/tests/bench_fixtures.rs): the relayed `player:move`, an 80-bird
// `birds:stream`, a 50-entity `world:snapshot`.
//
//   npm run bench              several alternating rounds; prints the Markdown section
//                              that scripts/bench.d/20-ts-peers.sh writes into BENCHMARKS.md
//   node build/tests/ts/bench/bench.js --smoke
//                              one short round, checking every row's result (run by `npm test`;
//                              no timing asserts)
//
// Each round measures every row once (mitata `measure`, its median time per call), in an order
// rotated each round; a row's time is the median over rounds, and a ratio is the median of the
// per-round ratios, so load that drifts between rounds cancels out. Bytes allocated per call
// are mitata's heap estimate (V8 used heap plus malloced memory across a batch of calls).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { decode as mpDecode, encode as mpEncode } from "@msgpack/msgpack";
import { do_not_optimize, measure } from "mitata";
import { pack, unpack } from "msgpackr";
import type { z } from "zod";
import { BirdStreamCodec, PlayerMoveRelayedCodec, WorldSnapshotCodec, type MessageCodec } from "../../../generated/ts/src/index.js";
import * as schemas from "./schemas.js";

const smoke = process.argv.includes("--smoke");
const rounds = smoke ? 1 : Number(process.env["BENCH_ROUNDS"] ?? 7);
const minCpuNs = smoke ? 2e6 : Number(process.env["BENCH_MS"] ?? 300) * 1e6;

// build/tests/ts/bench/bench.js -> tests/ts/bench/fixtures
const fixtures = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "bench", "fixtures");

interface Dataset {
  title: string;
  file: string;
  codec: MessageCodec<unknown>;
  schema: z.ZodType;
}

const datasets: Dataset[] = [
  { title: "player:move (relayed, 10 Hz per visible player)", file: "player-move.bin", codec: PlayerMoveRelayedCodec as MessageCodec<unknown>, schema: schemas.PlayerMoveRelayed },
  { title: "birds:stream (80 birds, 5 Hz)", file: "birds-stream.bin", codec: BirdStreamCodec as MessageCodec<unknown>, schema: schemas.BirdStream },
  { title: "world:snapshot (50 entities, keyframe)", file: "world-snapshot.bin", codec: WorldSnapshotCodec as MessageCodec<unknown>, schema: schemas.WorldSnapshot },
];

/** A row: what it runs, and the speed-up tuplet must show against it (a standing rule: tuplet is flagged when slower than its msgpackr peer; the Zod rows keep their targets). */
interface Row {
  name: string;
  input: string;
  fn: () => unknown;
  target?: number;
  ours?: boolean;
}

interface Measured {
  row: Row;
  times: number[];
  heaps: number[];
  ratios: number[];
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
}

function unwrap<T>(r: { ok: true; value: T } | { ok: false; issues: readonly unknown[] }): T {
  if (!r.ok) throw new Error("decode failed: " + JSON.stringify(r.issues));
  return r.value;
}

function rows(d: Dataset, bytes: Uint8Array) {
  const { codec, schema } = d;
  const value = unwrap(codec.decode(bytes));
  const json = JSON.stringify(value);
  const plain = mpEncode(value);

  // Every row computes what it claims to before it is timed.
  assert.deepEqual(unwrap(codec.fromWire(unpack(bytes))), value);
  assert.deepEqual(schema.parse(JSON.parse(json)), value);
  assert.deepEqual(schema.parse(mpDecode(plain)), value);
  assert.deepEqual(Buffer.from(codec.encode(value)), Buffer.from(bytes), "encode gives the Rust bytes");
  assert.deepEqual(unwrap(codec.decode(pack(codec.toWire(value)))), value, "msgpackr packs a wire value tuplet reads back");

  const decode: Row[] = [
    { name: "tuplet `decode` (validating, from bytes)", input: `${bytes.length} B`, fn: () => codec.decode(bytes), ours: true },
    { name: "tuplet `fromWire` after msgpackr `unpack`", input: `${bytes.length} B`, fn: () => codec.fromWire(unpack(bytes)) },
    { name: "msgpackr `unpack` alone (no checks)", input: `${bytes.length} B`, fn: () => unpack(bytes), target: 1 },
    { name: "@msgpack/msgpack `decode` alone (no checks)", input: `${bytes.length} B`, fn: () => mpDecode(bytes) },
    { name: "JSON.parse + Zod 4", input: `${json.length} B`, fn: () => schema.parse(JSON.parse(json)), target: 10 },
    { name: "@msgpack/msgpack `decode` + Zod 4", input: `${plain.length} B`, fn: () => schema.parse(mpDecode(plain)), target: 15 },
  ];
  const encode: Row[] = [
    { name: "tuplet `encode` (validating)", input: `${bytes.length} B`, fn: () => codec.encode(value), ours: true },
    { name: "msgpackr `pack(toWire(v))`", input: `${bytes.length} B`, fn: () => pack(codec.toWire(value)) },
    { name: "msgpackr `pack` of the plain object (no checks)", input: `${pack(value).length} B`, fn: () => pack(value), target: 1 },
    { name: "Zod 4 + JSON.stringify", input: `${json.length} B`, fn: () => JSON.stringify(schema.parse(value)) },
  ];
  return { decode, encode };
}

async function heapFn(): Promise<() => number> {
  const { getHeapStatistics } = await import("node:v8");
  return () => {
    const h = getHeapStatistics();
    return h.used_heap_size + h.malloced_memory;
  };
}

async function compare(list: Row[]): Promise<Measured[]> {
  const heap = await heapFn();
  const out: Measured[] = list.map((row) => ({ row, times: [], heaps: [], ratios: [] }));
  for (let round = 0; round < rounds; round++) {
    const times: number[] = new Array(out.length).fill(NaN);
    for (let k = 0; k < out.length; k++) {
      const i = (k + round) % out.length;
      const m = out[i];
      if (m === undefined) continue;
      const fn = m.row.fn;
      const stats = await measure(
        () => {
          do_not_optimize(fn());
        },
        { heap, min_cpu_time: minCpuNs, ...(smoke ? { min_samples: 2, warmup_samples: 1 } : {}) },
      );
      times[i] = stats.p50;
      m.times.push(stats.p50);
      if (stats.heap !== undefined) m.heaps.push(stats.heap.avg);
    }
    const ours = times[0] ?? NaN;
    out.forEach((m, i) => m.ratios.push((times[i] ?? NaN) / ours));
  }
  return out;
}

function ns(t: number): string {
  if (t >= 1e6) return (t / 1e6).toFixed(2) + " ms";
  if (t >= 1e4) return (t / 1e3).toFixed(1) + " µs";
  if (t >= 1e3) return (t / 1e3).toFixed(2) + " µs";
  return t.toFixed(0) + " ns";
}

function bytesText(h: number[]): string {
  if (h.length === 0) return "n/a";
  const b = median(h);
  if (b < 0) return "~0 B";
  if (b >= 1024 * 10) return (b / 1024).toFixed(0) + " KiB";
  if (b >= 1024) return (b / 1024).toFixed(1) + " KiB";
  return b.toFixed(0) + " B";
}

function table(kind: string, ms: Measured[]): string[] {
  const lines = [
    `| ${kind} | input | median time | tuplet is | target | heap per call |`,
    "|---|---:|---:|---:|---|---:|",
  ];
  for (const m of ms) {
    const r = median(m.ratios);
    const speed = m.row.ours ? "" : r >= 1 ? `${r.toFixed(2)}x faster` : `${(1 / r).toFixed(2)}x slower`;
    const target = m.row.target === undefined ? "" : `≥ ${m.row.target}x: ${r >= m.row.target ? "met" : "**flagged**"}`;
    lines.push(`| ${m.row.name} | ${m.row.input} | ${ns(median(m.times))} | ${speed} | ${target} | ${bytesText(m.heaps)} |`);
  }
  return lines;
}

const out: string[] = [
  "## TypeScript codecs against peers",
  "",
  "`npm run bench` in tests/ts (mitata " + "1.0.34, Zod 4.6.7, msgpackr 2.1.4, @msgpack/msgpack 3.1.3), on the bytes Rust writes " +
    "(tests/ts/bench/fixtures). Each round times every row once (mitata's median per call), rows rotated; " +
    `times are medians of ${rounds} rounds, "tuplet is" the median of the per-round ratios of the row's time to tuplet's. ` +
    "Peers read and write their own formats of the same natural value where they need one (JSON text; msgpack of the plain object). " +
    "Heap per call: mitata's estimate (V8 used heap + malloced memory over a batch, median of rounds).",
  "",
  "Standing rule: tuplet's `decode` is flagged when slower than msgpackr `unpack` alone, its `encode` when slower than " +
    "msgpackr `pack` of the plain object (neither peer checks anything).",
];
for (const d of datasets) {
  const bytes = new Uint8Array(readFileSync(join(fixtures, d.file)));
  const { decode, encode } = rows(d, bytes);
  process.stderr.write(`bench: ${d.title}\n`);
  const dec = await compare(decode);
  const enc = await compare(encode);
  out.push("", `### ${d.title}`, "", ...table("decode", dec), "", ...table("encode", enc));
}
console.log(out.join("\n"));

// A seeded fuzz run of the generated package under hostile input: random bytes (fast-check,
// seeded) and mutated vectors, as envelopes through each direction's dispatcher (`onBytes`),
// as payloads by name (`onPayload` with bytes), and, where msgpackr can read them, as values
// through `fromWire` (`onPayload` with the decoded value). Anything other than a handled value
// or a dropped message with `TupletError` issues is a failure: another exception, a polluted
// prototype, or one input taking longer than a second. Used by hostile.test.ts (a short run
// in `npm test`) and scripts/fuzz-hostile.mjs (the long run).

import fc from "fast-check";
import { Unpackr } from "msgpackr";
import { c2s, createDispatcher, direction as makeDirection, s2c, type Issue, type MessageCodec } from "../../../generated/ts/src/index.js";
import { fromHex, loadVectors, toHex, type DirName } from "./generated_support.js";

/** What one run saw. */
export interface HostileReport {
  dir: DirName;
  inputs: number;
  handled: number;
  dropped: number;
  fromWire: number;
  /** Dropped inputs per issue code. */
  codes: Record<string, number>;
  /** Exceptions that were not a drop with issues (must stay empty). */
  failures: string[];
  slowestMs: number;
  /** The slowest input, as hex. */
  slowest: string;
  /** The first `sample` envelopes with their verdicts (`ok`, or `code@path`), for Rust. */
  sample: { hex: string; verdict: string }[];
}

/** A small seeded PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bytes that matter to a msgpack decoder: markers, length edges, msgpackr's records. */
const INTERESTING = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc6, 0xca, 0xcb, 0xcf, 0xd3, 0xd4, 0xd9, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xff, 0x72];

/** One mutation of `b`: flip, set an interesting byte, insert, delete, duplicate or truncate. */
function mutate(b: Uint8Array, next: () => number): Uint8Array {
  const out = Array.from(b);
  const at = Math.floor(next() * (out.length + 1));
  const rounds = 1 + Math.floor(next() * 3);
  for (let i = 0; i < rounds; i++) {
    const pos = Math.min(at + i, Math.max(out.length - 1, 0));
    switch (Math.floor(next() * 6)) {
      case 0:
        if (out.length > 0) out[pos] = (out[pos] ?? 0) ^ (1 << Math.floor(next() * 8));
        break;
      case 1:
        if (out.length > 0) out[pos] = INTERESTING[Math.floor(next() * INTERESTING.length)] ?? 0;
        break;
      case 2:
        out.splice(pos, 0, Math.floor(next() * 256));
        break;
      case 3:
        out.splice(pos, 1);
        break;
      case 4:
        out.splice(pos, 0, ...out.slice(pos, pos + 1 + Math.floor(next() * 8)));
        break;
      default:
        out.length = Math.floor(next() * out.length);
    }
  }
  return Uint8Array.from(out);
}

function uintHeader(id: number): number[] {
  if (id < 128) return [id];
  if (id < 256) return [0xcc, id];
  return [0xcd, id >> 8, id & 0xff];
}

const unpackr = new Unpackr({ mapsAsObjects: true, useRecords: true, int64AsType: "bigint" });

/** The prototypes a decoder could pollute, as they are before the run. */
function prototypeKeys(): string {
  return [Object.prototype, Array.prototype, Map.prototype, Function.prototype]
    .map((p) => Object.getOwnPropertyNames(p).sort().join(","))
    .join("|");
}

/** Fuzzes one direction with `count` inputs from `seed`. */
export function hostileRun(dir: DirName, seed: number, count: number, sample = 0): HostileReport {
  // One dispatcher type for both directions: the handlers are all the same no-op.
  // Plain codecs only (`delta` left out): the verdicts are the plain decoders', as Rust's
  // `from_envelope` without mirrors (a delta message's payloads go to a mirror otherwise).
  const full = (dir === "c2s" ? c2s : s2c) as unknown as typeof c2s;
  const plain = Object.values(full.byName).map((c) => ({ ...c, delta: undefined }) as MessageCodec<unknown>);
  const direction = makeDirection(dir, plain) as unknown as typeof c2s;
  const names = Object.keys(direction.byName);
  let lastIssues: readonly Issue[] = [];
  const handlers: Record<string, () => void> = {};
  for (const n of names) handlers[n] = () => {};
  const d = createDispatcher(direction, handlers as never, { onInvalid: (_n, issues) => (lastIssues = issues) });
  const { valid, invalid } = loadVectors(dir);
  const seeds: Uint8Array[] = [];
  for (const v of valid) {
    for (const shape of [v.compact, v.named]) seeds.push(Uint8Array.from([...uintHeader(v.id), ...fromHex(shape)]));
  }
  const ids = new Map(valid.map((v) => [v.message, v.id]));
  for (const v of invalid) {
    const id = ids.get(v.message);
    if (id !== undefined) seeds.push(Uint8Array.from([...uintHeader(id), ...fromHex(v.bytes)]));
  }
  const randomBytes = fc.sample(fc.uint8Array({ maxLength: 96 }), { seed, numRuns: Math.ceil(count / 4) });
  const next = rng(seed);
  const before = prototypeKeys();
  const report: HostileReport = { dir, inputs: 0, handled: 0, dropped: 0, fromWire: 0, codes: {}, failures: [], slowestMs: 0, slowest: "", sample: [] };
  const note = (ok: boolean): string => {
    if (ok) {
      report.handled++;
      return "ok";
    }
    report.dropped++;
    const first = lastIssues[0];
    if (first === undefined) throw new Error("dropped without an issue");
    report.codes[first.code] = (report.codes[first.code] ?? 0) + 1;
    return `${first.code}@${first.path}`;
  };
  for (let i = 0; i < count; i++) {
    const input = i % 4 === 0 ? (randomBytes[i / 4] ?? new Uint8Array()) : mutate(seeds[Math.floor(next() * seeds.length)] ?? new Uint8Array(), next);
    const t0 = performance.now();
    try {
      lastIssues = [];
      const verdict = note(d.onBytes(input));
      if (report.sample.length < sample) report.sample.push({ hex: toHex(input), verdict });
      // The same bytes as a payload by name, and as a value msgpackr decoded.
      const name = names[Math.floor(next() * names.length)] ?? "";
      note(d.onPayload(name, input.subarray(Math.min(1, input.length))));
      let value: unknown;
      let decoded = false;
      try {
        value = unpackr.unpack(input.subarray(Math.min(1, input.length)));
        decoded = true;
      } catch {
        // Not msgpack msgpackr reads: nothing for fromWire.
      }
      if (decoded) {
        report.fromWire++;
        note(d.onPayload(name, value));
      }
    } catch (e) {
      report.failures.push(`${toHex(input)}: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    }
    const ms = performance.now() - t0;
    if (ms > report.slowestMs) {
      report.slowestMs = ms;
      report.slowest = toHex(input);
    }
    report.inputs++;
  }
  if (prototypeKeys() !== before) report.failures.push("a prototype changed");
  return report;
}

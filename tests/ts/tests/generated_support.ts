// Helpers for the tests of the generated package: the vectors written by the Rust tests
// (tests/tests/vectors.rs), hex, and `toNatural` (the natural JSON convention
// both languages share: bytes as lowercase hex, bigint as decimal text, maps as [key, value]
// pairs in key order, absent options omitted).

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compareUtf8 } from "../../../generated/ts/src/runtime/utf8.js";
import { c2s, s2c, type MessageCodec } from "../../../generated/ts/src/index.js";
import { repoRoot } from "./support.js";

export interface ValidVector {
  message: string;
  id: number;
  mode: string;
  seed: number;
  compact: string;
  named: string;
  value: unknown;
}

export interface InvalidVector {
  message: string;
  shape: "compact" | "named";
  bytes: string;
  code: string;
  path: string;
  error?: string;
  what?: string;
}

/** A mutated input Rust decodes successfully: its natural value and compact re-encoding. */
export interface AcceptedVector {
  message: string;
  shape: "compact" | "named";
  bytes: string;
  value: unknown;
  canonical: string;
  what?: string;
}

/** A value every encoder refuses: `compact` decoded, with `flag` deleted from `field`. */
export interface RejectedVector {
  message: string;
  compact: string;
  /** The keys to delete from the decoded value: a field, or a field and its field or flag. */
  remove: string[];
  code: string;
  path: string;
  error: string;
}

export interface Vectors {
  valid: ValidVector[];
  invalid: InvalidVector[];
  accepted: AcceptedVector[];
  rejected: RejectedVector[];
}

export type DirName = "c2s" | "s2c";

/** The folder the Rust tests write vectors to. */
export function vectorsDir(): string {
  return join(repoRoot(), "target", "tuplet-vectors");
}

/** The vectors of one direction; throws (the test fails) when the Rust tests did not run. */
export function loadVectors(dir: DirName): Vectors {
  const file = join(vectorsDir(), `${dir}.json`);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run the Rust tests first (scripts/test does: cargo test -p tuplet-tests --test vectors)`);
  }
  return JSON.parse(readFileSync(file, "utf8")) as Vectors;
}

/** The codec of a message of a direction. */
export function codecOf(dir: DirName, name: string): MessageCodec<unknown> {
  const byName = (dir === "c2s" ? c2s : s2c).byName as Record<string, MessageCodec<unknown> | undefined>;
  const c = byName[name];
  if (c === undefined) throw new Error(`no ${dir} codec named ${name}`);
  return c;
}

export function fromHex(s: string): Uint8Array {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function toHex(b: Uint8Array): string {
  let s = "";
  for (const x of b) s += x.toString(16).padStart(2, "0");
  return s;
}

function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === "string" && typeof b === "string") return compareUtf8(a, b);
  const x = typeof a === "bigint" ? a : Number(a);
  const y = typeof b === "bigint" ? b : Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A natural TS value as natural JSON (see the file comment). */
export function toNatural(v: unknown): unknown {
  if (v instanceof Uint8Array) return toHex(v);
  if (typeof v === "bigint") return v.toString();
  if (v === undefined) return null;
  if (v instanceof Map) {
    const entries = Array.from(v as Map<unknown, unknown>).sort((a, b) => compareKeys(a[0], b[0]));
    return entries.map(([k, x]) => [toNatural(k), toNatural(x)]);
  }
  if (Array.isArray(v)) return v.map(toNatural);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toNatural(x);
    return out;
  }
  return v;
}

/** Deep equality of natural JSON values (numbers by value, object keys in any order). */
export function sameNatural(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => sameNatural(x, b[i]));
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    const rb = b as Record<string, unknown>;
    const ra = a as Record<string, unknown>;
    return ka.every((k) => k in rb && sameNatural(ra[k], rb[k]));
  }
  return a === b;
}

// Shared helpers for the runtime tests: the repo root, hex, and named reader operations
// (the same names as runtime/tests/support/mod.rs).

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_LIMITS, Reader, type Limits } from "../../../codegen/ts-runtime/index.js";

/** The repository root: the first ancestor holding WIRE.md. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "WIRE.md")) && existsSync(join(dir, "Cargo.toml"))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error("repository root not found");
    dir = up;
  }
}

export function readRepoFile(path: string): string {
  return readFileSync(join(repoRoot(), path), "utf8");
}

/** Bytes from space-separated hex (`"cd 01 2c"`); `xx*N` is the byte `xx` N times. */
export function hex(s: string): Uint8Array {
  const out: number[] = [];
  for (const tok of s.split(/\s+/)) {
    if (tok === "") continue;
    const star = tok.indexOf("*");
    if (star >= 0) {
      const b = parseInt(tok.slice(0, star), 16);
      const n = Number(tok.slice(star + 1));
      for (let i = 0; i < n; i++) out.push(b);
    } else {
      const b = parseInt(tok, 16);
      if (!(b >= 0 && b <= 255) || tok.length !== 2) throw new Error(`bad hex byte ${tok}`);
      out.push(b);
    }
  }
  return Uint8Array.from(out);
}

/** Bytes as space-separated lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(" ");
}

/** Small caps for the budget tests (as Rust's `small_limits()`). */
export const SMALL_LIMITS: Limits = { maxDepth: 3, maxElements: 4 };

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U64_MAX = 2n ** 64n - 1n;
const SAFE = Number.MAX_SAFE_INTEGER;
const U32_MAX = 4294967295;

/** Runs a named reader operation (as Rust's `support::run`), returning its result. */
export function run(r: Reader, op: string): unknown {
  switch (op) {
    case "skip":
      return r.skipValue();
    case "kind":
      return r.peekKind();
    case "nil":
      return r.tryNil();
    case "shape":
      return r.readShape();
    case "array":
      return r.readArrayLen();
    case "map":
      return r.readMapLen();
    case "bool":
      return r.readBool();
    case "i64":
      return r.readBigInt(I64_MIN, I64_MAX);
    case "i8":
      return r.readInt(-128, 127);
    case "u64":
      return r.readBigInt(0n, U64_MAX);
    case "u8":
      return r.readInt(0, 255);
    case "safe":
      return r.readInt(-SAFE, SAFE);
    case "f64":
      return r.readF64();
    case "f32":
      return r.readF32();
    case "str":
      return r.readStr(0, U32_MAX);
    case "str3":
      return r.readStr(0, 3);
    case "str2..":
      return r.readStr(2, 10);
    case "bin":
      return r.readBin(0, U32_MAX);
    case "bin3":
      return r.readBin(0, 3);
    case "bin2..":
      return r.readBin(2, 10);
    case "finish":
      return r.finish();
    case "whole":
      r.skipValue();
      return r.finish();
    default:
      throw new Error(`unknown op ${op}`);
  }
}

/** A reader for an op name with an optional `@small` suffix. */
export function readerFor(bytes: Uint8Array, op: string): { r: Reader; op: string } {
  if (op.endsWith("@small")) return { r: new Reader(bytes, SMALL_LIMITS), op: op.slice(0, -6) };
  return { r: new Reader(bytes, DEFAULT_LIMITS), op };
}

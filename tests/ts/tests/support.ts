// Shared helpers for the runtime tests: the repo root, hex, and named reader operations
// (the same names as runtime/tests/support/mod.rs).

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_LIMITS, type Reader, type Limits, endRead, newReader, peekKind, readArrayLen, readBigInt, readBin, readBool, readF32, readF64, readInt, readMapLen, readShape, readStr, skipValue, tryNil } from "../../../codegen/ts-runtime/index.js";

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
      return skipValue(r);
    case "kind":
      return peekKind(r);
    case "nil":
      return tryNil(r);
    case "shape":
      return readShape(r);
    case "array":
      return readArrayLen(r);
    case "map":
      return readMapLen(r);
    case "bool":
      return readBool(r);
    case "i64":
      return readBigInt(r, I64_MIN, I64_MAX);
    case "i8":
      return readInt(r, -128, 127);
    case "u64":
      return readBigInt(r, 0n, U64_MAX);
    case "u8":
      return readInt(r, 0, 255);
    case "safe":
      return readInt(r, -SAFE, SAFE);
    case "f64":
      return readF64(r);
    case "f32":
      return readF32(r);
    case "str":
      return readStr(r, 0, U32_MAX);
    case "str3":
      return readStr(r, 0, 3);
    case "str2..":
      return readStr(r, 2, 10);
    case "bin":
      return readBin(r, 0, U32_MAX);
    case "bin3":
      return readBin(r, 0, 3);
    case "bin2..":
      return readBin(r, 2, 10);
    case "finish":
      return endRead(r);
    case "whole":
      skipValue(r);
      return endRead(r);
    default:
      throw new Error(`unknown op ${op}`);
  }
}

/** A reader for an op name with an optional `@small` suffix. */
export function readerFor(bytes: Uint8Array, op: string): { r: Reader; op: string } {
  if (op.endsWith("@small")) return { r: newReader(bytes, SMALL_LIMITS), op: op.slice(0, -6) };
  return { r: newReader(bytes, DEFAULT_LIMITS), op };
}

// Every primitive example of WIRE.md (its ```wire blocks), checked against our writer and
// reader as runtime/tests/wire_md.rs does in Rust, and against @msgpack/msgpack and msgpackr
// as independent msgpack implementations.

import assert from "node:assert/strict";
import { test } from "node:test";
import { decode as mpDecode, encode as mpEncode } from "@msgpack/msgpack";
import { Packr } from "msgpackr";
import { Code, TupletError, Writer, endRead, newReader, peekKind, readBigInt, readBin, readBool, readF32, readF64, readShape, readStr, skipValue, tryNil } from "../../../codegen/ts-runtime/index.js";
import { hex, readRepoFile, run, toHex } from "./support.js";

const packr = new Packr({ useRecords: false });

function wireLines(): string[] {
  const lines: string[] = [];
  let inside = false;
  for (const line of readRepoFile("WIRE.md").split("\n")) {
    if (inside) {
      if (line.startsWith("```")) inside = false;
      else if (line.trim() !== "") lines.push(line);
    } else if (line.trimEnd() === "```wire") {
      inside = true;
    }
  }
  return lines;
}

/** `<01 02 03>` as bytes. */
function angleBytes(s: string): Uint8Array {
  const t = s.trim();
  assert.ok(t.startsWith("<") && t.endsWith(">"), s);
  return hex(t.slice(1, -1));
}

/** Rust's `{:?}` for an f64 (enough for the examples: `5.0`, `0.1`, `1e300`). */
function debugF64(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return `${x}.0`;
  return String(x).replace("e+", "e");
}

/** Rust's `{:?}` for an f32 held as a double: the shortest decimal that narrows back to it. */
function debugF32(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return `${x}.0`;
  for (let p = 1; p <= 9; p++) {
    const s = String(Number(x.toPrecision(p)));
    if (Math.fround(Number(s)) === x) return s;
  }
  return String(x);
}

function checkWrite(fn: string, arg: string, want: string, line: string): void {
  const w = new Writer();
  let theirs: Uint8Array[];
  switch (fn) {
    case "nil":
      w.nil();
      theirs = [mpEncode(null), packr.pack(null)];
      break;
    case "bool": {
      const v = arg === "true";
      w.bool(v);
      theirs = [mpEncode(v), packr.pack(v)];
      break;
    }
    case "uint":
    case "int": {
      const v = Number(arg);
      assert.ok(Number.isSafeInteger(v), line);
      if (fn === "uint") w.uint(v);
      else w.int(v);
      const wb = new Writer();
      wb.bigInt(BigInt(arg));
      assert.equal(toHex(wb.finish()), want, `bigInt: ${line}`);
      // msgpackr writes integers beyond 32 bits as float64; @msgpack/msgpack as ints.
      theirs = Math.abs(v) < 2 ** 31 || (v >= 0 && v < 2 ** 32) ? [mpEncode(v), packr.pack(v)] : [mpEncode(v)];
      break;
    }
    case "f32": {
      const v = Number(arg);
      w.f32(v);
      theirs = [mpEncode(Math.fround(v), { forceFloat32: true, forceIntegerToFloat: true })];
      break;
    }
    case "f64": {
      const v = Number(arg);
      w.f64(v);
      theirs = [mpEncode(v, { forceIntegerToFloat: true })];
      break;
    }
    case "str": {
      const v = JSON.parse(arg) as string;
      w.str(v);
      theirs = [mpEncode(v), packr.pack(v)];
      break;
    }
    case "bin": {
      const v = angleBytes(arg);
      w.bin(v);
      theirs = [mpEncode(v), packr.pack(v)];
      break;
    }
    case "array_len": {
      const n = Number(arg);
      w.arrayLen(n);
      const all = [mpEncode(new Array<null>(n).fill(null)), packr.pack(new Array<null>(n).fill(null))];
      theirs = all.map((b) => b.subarray(0, b.length - n));
      break;
    }
    case "map_len": {
      const n = Number(arg);
      w.mapLen(n);
      const m: Record<string, null> = {};
      for (let i = 0; i < n; i++) m[`k${i}`] = null;
      let body = n; // the nil values
      for (let i = 0; i < n; i++) body += mpEncode(`k${i}`).length;
      const b = mpEncode(m);
      // Not msgpackr: it writes object headers as map16 (`de 00 02`), not the smallest.
      theirs = [b.subarray(0, b.length - body)];
      break;
    }
    default:
      throw new Error(`unknown write fn ${fn}: ${line}`);
  }
  assert.equal(toHex(w.finish()), want, `ours: ${line}`);
  for (const t of theirs) assert.equal(toHex(t), want, `peer: ${line}`);
}

function checkRead(op: string, bytes: Uint8Array, want: string, line: string): void {
  const r = newReader(bytes);
  let got: string;
  switch (op) {
    case "i64":
      got = readBigInt(r, -(2n ** 63n), 2n ** 63n - 1n).toString();
      break;
    case "u64":
      got = readBigInt(r, 0n, 2n ** 64n - 1n).toString();
      break;
    case "f64":
      got = debugF64(readF64(r));
      break;
    case "f32":
      got = debugF32(readF32(r));
      break;
    case "str":
      got = JSON.stringify(readStr(r, 0, 4294967295));
      break;
    case "bin":
      got = `<${toHex(readBin(r, 0, 4294967295))}>`;
      break;
    case "nil":
      got = String(tryNil(r));
      break;
    case "bool":
      got = String(readBool(r));
      break;
    case "kind":
      got = peekKind(r);
      break;
    case "shape": {
      const s = readShape(r);
      got = s >= 0 ? `array ${s}` : `map ${-s - 1}`;
      break;
    }
    case "skip":
      skipValue(r);
      got = String(r.pos);
      break;
    default:
      throw new Error(`unknown read op ${op}: ${line}`);
  }
  assert.equal(got, want, line);
  const partial = op === "shape" || op === "kind" || (op === "nil" && want === "false");
  if (!partial) endRead(r);
  // The peers read the same bytes as one value (they only check the framing).
  if (op === "i64" || op === "u64") {
    const v = mpDecode(bytes, { useBigInt64: true });
    assert.ok(Number(v) === Number(want), `@msgpack/msgpack: ${line}`);
  } else if (op === "str") {
    assert.equal(JSON.stringify(mpDecode(bytes)), want, `@msgpack/msgpack: ${line}`);
    assert.equal(JSON.stringify(packr.unpack(bytes)), want, `msgpackr: ${line}`);
  } else if (op === "bin") {
    assert.equal(`<${toHex(mpDecode(bytes) as Uint8Array)}>`, want, `@msgpack/msgpack: ${line}`);
  }
}

test("WIRE.md primitive examples", () => {
  const counts = { writes: 0, reads: 0, errors: 0 };
  const codes = new Set<string>(Object.values(Code));
  for (const line of wireLines()) {
    const at = line.indexOf(" => ");
    assert.ok(at >= 0, `no \` => \` in ${line}`);
    const words = line.slice(0, at).split(/\s+/).filter((w) => w !== "");
    const right = line.slice(at + 4).trim();
    const [form, op, ...rest] = words;
    const arg = rest.join(" ");
    assert.ok(form !== undefined && op !== undefined, line);
    if (form === "write") {
      checkWrite(op, arg, toHex(hex(right)), line);
      counts.writes++;
    } else if (form === "read") {
      checkRead(op, hex(arg), right, line);
      counts.reads++;
    } else if (form === "error") {
      assert.ok(codes.has(right), `unknown code in ${line}`);
      try {
        run(newReader(hex(arg)), op);
        assert.fail(`an error: ${line}`);
      } catch (e) {
        if (!(e instanceof TupletError)) throw e;
        assert.equal(e.code, right, `${line}: ${e.message}`);
      }
      counts.errors++;
    } else {
      throw new Error(`unknown form ${form}: ${line}`);
    }
  }
  assert.ok(counts.writes >= 40 && counts.reads >= 20 && counts.errors >= 20, JSON.stringify(counts));
});

test("WIRE.md lists every code", () => {
  const text = readRepoFile("WIRE.md");
  for (const code of Object.values(Code)) assert.ok(text.includes("| `" + code + "`"), `${code} missing`);
});

test("the codes are Rust's Code::as_str, in order", () => {
  const src = readRepoFile("runtime/src/error.rs");
  const rust = [...src.matchAll(/Code::\w+ => "(\w+)",/g)].map((m) => m[1]);
  assert.deepEqual(Object.values(Code), rust);
});

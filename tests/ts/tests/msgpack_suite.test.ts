// The community's msgpack test vectors (the pinned `msgpack-test-suite` package) at every kind
// of position, as tests/tests/msgpack_suite.rs does in Rust: each verdict (`ok` or the error
// code) must equal the committed tests/fixtures/msgpack_suite_verdicts.json, which the Rust
// test checks too, and every accepted value must equal the suite's.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";
import { Code, TupletError, endRead, leave, newReader, readArrayLen, readBigInt, readBin, readBool, readF64, readMapLen, readStr, skipValue, tryNil } from "../../../codegen/ts-runtime/index.js";
import { readRepoFile } from "./support.js";

type Vector = Record<string, unknown> & { msgpack: string[] };

const POSITIONS = ["int", "float", "string", "binary", "bool", "nil", "array", "map", "ext"] as const;
type Position = (typeof POSITIONS)[number];

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U32_MAX = 0xffffffff;

function suite(): Record<string, Vector[]> {
  const file = createRequire(import.meta.url).resolve("msgpack-test-suite/dist/msgpack-test-suite.json");
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, Vector[]>;
}

function bytesOf(text: string): Uint8Array {
  return Uint8Array.from(text.split("-"), (b) => parseInt(b, 16));
}

/** One whole message of one value at `position`; what it decoded (undefined: nothing to compare). */
function decode(position: Position, bytes: Uint8Array): unknown {
  const r = newReader(bytes);
  let got: unknown;
  switch (position) {
    case "int":
      got = readBigInt(r, I64_MIN, I64_MAX);
      break;
    case "float":
      got = readF64(r);
      break;
    case "string":
      got = readStr(r, 0, U32_MAX);
      break;
    case "binary":
      got = readBin(r, 0, U32_MAX);
      break;
    case "bool":
      got = readBool(r);
      break;
    case "nil":
      if (!tryNil(r)) throw new TupletError(Code.WrongType, "expected nil");
      break;
    case "array": {
      const n = readArrayLen(r);
      for (let i = 0; i < n; i++) skipValue(r);
      leave(r);
      break;
    }
    case "map": {
      const n = readMapLen(r);
      for (let i = 0; i < n; i++) {
        readStr(r, 0, U32_MAX);
        skipValue(r);
      }
      leave(r);
      break;
    }
    case "ext":
      skipValue(r);
      break;
  }
  endRead(r);
  return got;
}

/** Whether an accepted value is the one the suite names for the vector. */
function same(got: unknown, v: Vector): boolean {
  const number = typeof v["bignum"] === "string" ? v["bignum"] : v["number"] === undefined ? undefined : String(v["number"]);
  if (typeof got === "bigint") return number !== undefined && Number(number) === Number(got) && (!/^-?\d+$/.test(number) || BigInt(number) === got);
  if (typeof got === "number") return number !== undefined && Number(number) === got;
  if (typeof got === "string") return v["string"] === got;
  if (got instanceof Uint8Array) {
    const h = v["binary"] as string;
    return Buffer.from(got).equals(Buffer.from(h === "" ? new Uint8Array() : bytesOf(h)));
  }
  if (typeof got === "boolean") return v["bool"] === got;
  return true;
}

test("every msgpack-test-suite vector at every position gives the committed verdict, as in Rust", () => {
  const committed = JSON.parse(readRepoFile("tests/fixtures/msgpack_suite_verdicts.json")) as {
    positions: string[];
    verdicts: Record<string, string[]>;
  };
  assert.deepEqual(committed.positions, [...POSITIONS]);
  const got: Record<string, string[]> = {};
  let encodings = 0;
  for (const [group, vectors] of Object.entries(suite())) {
    const lines: string[] = [];
    for (const v of vectors) {
      for (const text of v.msgpack) {
        const bytes = bytesOf(text);
        const verdicts = POSITIONS.map((p) => {
          try {
            const value = decode(p, bytes);
            assert.ok(same(value, v), `${group} ${text} at ${p}: another value`);
            return "ok";
          } catch (e) {
            if (e instanceof TupletError) return e.code;
            throw e;
          }
        });
        lines.push(`${text}: ${verdicts.join(" ")}`);
        encodings++;
      }
    }
    got[group] = lines;
  }
  assert.ok(encodings > 80, `only ${encodings} encodings`);
  assert.deepEqual(got, committed.verdicts);
  console.log(`msgpack-test-suite: ${encodings} encodings x ${POSITIONS.length} positions agree with Rust`);
});

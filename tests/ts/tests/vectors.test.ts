// Cross-language vectors: every valid, invalid and accepted vector the Rust
// tests wrote (target/tuplet-vectors/{c2s,s2c}.json, every village message, both directions,
// both shapes) decodes, validates and re-encodes in TypeScript exactly as in Rust: the same
// values and bytes, the same error codes, paths and messages, the same natural value and
// canonical re-encoding of every non-canonical input Rust accepts; zero disagreements. Then writes target/tuplet-vectors/ts_encoded.json, TypeScript-encoded
// samples the ignored Rust test `ts_encoded_samples_decode_in_rust` decodes.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Packr } from "msgpackr";
import {
  codecOf,
  fromHex,
  loadVectors,
  sameNatural,
  toHex,
  toNatural,
  vectorsDir,
  type DirName,
} from "./generated_support.js";
import { c2s, s2c, type TupletError } from "../../../generated/ts/src/index.js";

interface Encoded {
  direction: DirName;
  message: string;
  shape: "compact" | "named";
  bytes: string;
  value: unknown;
}

const encoded: Encoded[] = [];
const messages: Record<DirName, Set<string>> = { c2s: new Set(), s2c: new Set() };

for (const dir of ["c2s", "s2c"] as const) {
  test(`${dir}: every valid vector decodes (both shapes), validates and re-encodes to the same bytes`, () => {
    const { valid } = loadVectors(dir);
    assert.ok(valid.length > 0, "no valid vectors");
    const bad: string[] = [];
    for (const v of valid) {
      messages[dir].add(v.message);
      const c = codecOf(dir, v.message);
      const where = `${v.message} ${v.mode}/${v.seed}`;
      for (const shape of ["compact", "named"] as const) {
        const res = c.decode(fromHex(v[shape]));
        if (!res.ok) {
          bad.push(`${where} ${shape}: decode failed: ${JSON.stringify(res.issues[0])}`);
          continue;
        }
        const nat = toNatural(res.value);
        if (!sameNatural(nat, v.value)) {
          bad.push(`${where} ${shape}: value ${JSON.stringify(nat)} != ${JSON.stringify(v.value)}`);
          continue;
        }
        const checked = c.validate(res.value);
        if (!checked.ok) bad.push(`${where} ${shape}: validate: ${JSON.stringify(checked.issues)}`);
        for (const out of ["compact", "named"] as const) {
          let bytes: Uint8Array;
          try {
            bytes = c.encode(res.value, { shape: out });
          } catch (e) {
            bad.push(`${where} ${shape} -> ${out}: encode threw ${String(e)}`);
            continue;
          }
          if (toHex(bytes) !== v[out]) bad.push(`${where} ${shape} -> ${out}: ${toHex(bytes)} != ${v[out]}`);
          if (shape === "compact") {
            encoded.push({ direction: dir, message: v.message, shape: out, bytes: toHex(bytes), value: nat });
          }
        }
      }
    }
    console.log(`${dir}: ${valid.length} valid vectors (${messages[dir].size} messages) x 2 shapes: ${bad.length} disagreements`);
    assert.deepEqual(bad.slice(0, 20), []);
  });

  test(`${dir}: every rejected value (a required field or a flag left out) is refused by encode and validate with tuplet encode's code, path and message`, () => {
    const { rejected } = loadVectors(dir);
    if (dir === "c2s") {
      assert.ok(rejected.some((v) => v.remove.length === 1), "no vectors of a field left out");
      assert.ok(rejected.some((v) => v.remove.length === 2), "no vectors of a flag or nested field left out");
    }
    const bad: string[] = [];
    for (const v of rejected) {
      const c = codecOf(dir, v.message);
      const res = c.decode(fromHex(v.compact));
      assert.ok(res.ok, `${v.message}: the sample decodes`);
      const value = res.value as Record<string, unknown>;
      const [field, inner] = v.remove;
      if (inner === undefined) delete value[field!];
      else delete (value[field!] as Record<string, unknown>)[inner];
      const want = `${v.code} at ${v.path}: ${v.error}`;
      try {
        c.encode(value);
        bad.push(`${v.message}: encoded without ${v.remove.join(".")}`);
      } catch (e) {
        const err = e as TupletError;
        const got = `${err.code} at ${err.path}: ${err.detail}`;
        if (got !== want) bad.push(`${v.message}: encode ${got} != ${want}`);
      }
      const checked = c.validate(value);
      const first = checked.ok ? undefined : checked.issues[0];
      const got = first === undefined ? "valid" : `${first.code} at ${first.path}: ${first.message}`;
      if (got !== want) bad.push(`${v.message}: validate ${got} != ${want}`);
    }
    console.log(`${dir}: ${rejected.length} rejected vectors: ${bad.length} disagreements`);
    assert.deepEqual(bad.slice(0, 20), []);
  });

  test(`${dir}: every invalid vector fails with the same code and path as in Rust`, () => {
    const { invalid } = loadVectors(dir);
    assert.ok(invalid.length > 0, "no invalid vectors");
    const bad: string[] = [];
    const shapes = { compact: 0, named: 0 };
    let sameMessage = 0;
    for (const v of invalid) {
      shapes[v.shape]++;
      const res = codecOf(dir, v.message).decode(fromHex(v.bytes));
      if (res.ok) {
        bad.push(`${v.message} ${v.shape} ${v.what ?? ""}: decoded, expected ${v.code} at ${v.path}`);
        continue;
      }
      const first = res.issues[0];
      if (first === undefined || first.code !== v.code || first.path !== v.path) {
        bad.push(`${v.message} ${v.shape} ${v.what ?? ""} ${v.bytes}: ${first?.code} at ${first?.path} != ${v.code} at ${v.path}`);
        continue;
      }
      if (first.message === v.error) sameMessage++;
      else bad.push(`${v.message} ${v.shape} ${v.what ?? ""} ${v.bytes}: message ${JSON.stringify(first.message)} != ${JSON.stringify(v.error)}`);
    }
    console.log(
      `${dir}: ${invalid.length} invalid vectors (${shapes.compact} compact, ${shapes.named} named): ${bad.length} disagreements on code and path; ${sameMessage} with the identical message`,
    );
    assert.deepEqual(bad.slice(0, 20), []);
    assert.equal(sameMessage, invalid.length);
  });

  test(`${dir}: every accepted (non-canonical) input decodes to Rust's value and re-encodes to Rust's canonical bytes`, () => {
    const { accepted } = loadVectors(dir);
    assert.ok(accepted.length > 0, "no accepted vectors");
    const bad: string[] = [];
    const kinds = new Map<string, number>();
    for (const v of accepted) {
      const what = (v.what ?? "").split(" at /")[0] ?? "";
      kinds.set(what, (kinds.get(what) ?? 0) + 1);
      const c = codecOf(dir, v.message);
      const where = `${v.message} ${v.shape} ${v.what ?? ""} ${v.bytes}`;
      const res = c.decode(fromHex(v.bytes));
      if (!res.ok) {
        bad.push(`${where}: decode failed: ${JSON.stringify(res.issues[0])}`);
        continue;
      }
      const nat = toNatural(res.value);
      if (!sameNatural(nat, v.value)) {
        bad.push(`${where}: value ${JSON.stringify(nat)} != ${JSON.stringify(v.value)}`);
        continue;
      }
      const checked = c.validate(res.value);
      if (!checked.ok) bad.push(`${where}: validate: ${JSON.stringify(checked.issues)}`);
      let bytes: Uint8Array;
      try {
        bytes = c.encode(res.value);
      } catch (e) {
        bad.push(`${where}: encode threw ${String(e)}`);
        continue;
      }
      if (toHex(bytes) !== v.canonical) bad.push(`${where}: re-encoded ${toHex(bytes)} != ${v.canonical}`);
    }
    console.log(`${dir}: ${accepted.length} accepted inputs (${kinds.size} kinds of mutation): ${bad.length} disagreements`);
    assert.deepEqual(bad.slice(0, 20), []);
    // And fromWire reads what msgpackr makes of the same bytes (64-bit markers, floats, nil
    // as undefined, unknown keys) to the same value.
    const packr = new Packr({ mapsAsObjects: false, useRecords: false, int64AsType: "bigint" });
    for (const v of accepted) {
      const res = codecOf(dir, v.message).fromWire(packr.unpack(fromHex(v.bytes)));
      if (!res.ok) bad.push(`${v.message} ${v.shape} ${v.what ?? ""} ${v.bytes}: fromWire(msgpackr) failed: ${JSON.stringify(res.issues[0])}`);
      else if (!sameNatural(toNatural(res.value), v.value)) bad.push(`${v.message} ${v.what ?? ""}: fromWire(msgpackr) value differs`);
    }
    assert.deepEqual(bad.slice(0, 20), []);
    // The kinds of non-canonical input real encoders and older or newer peers send.
    for (const kind of [
      "an integral float",
      "msgpackr's undefined",
      "extra elements",
      "unknown named keys",
      "every int at a 64-bit marker",
      "every int as an integral float64",
      "every header at its widest marker",
    ]) {
      assert.ok(kinds.has(kind), `no accepted vector of kind ${kind}`);
    }
  });
}

test("accepted vectors cover open enums and flags, wider floats and canonical names for aliases", () => {
  const kinds = new Set<string>();
  for (const dir of ["c2s", "s2c"] as const) {
    for (const v of loadVectors(dir).accepted) kinds.add((v.what ?? "").split(" at /")[0] ?? "");
  }
  for (const kind of [
    "an unknown variant number",
    "an unknown tag",
    "an unknown flag bit",
    "every float32 as a float64",
    "canonical names instead of every legacy alias",
  ]) {
    assert.ok(kinds.has(kind), `no accepted vector of kind ${kind}`);
  }
});

test("every message of both directions has vectors; TypeScript-encoded samples written for Rust", () => {
  for (const [dir, d] of [["c2s", c2s], ["s2c", s2c]] as const) {
    const missing = Object.keys(d.byName).filter((name) => !messages[dir].has(name));
    assert.deepEqual(missing, [], `${dir} messages without vectors`);
  }
  assert.ok(encoded.length > 0);
  const file = join(vectorsDir(), "ts_encoded.json");
  writeFileSync(file, JSON.stringify(encoded));
  console.log(`wrote ${encoded.length} TypeScript-encoded samples to ${file}`);
});

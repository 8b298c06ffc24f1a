// Cross-language vectors (issue 7, item 4): every valid and invalid vector the Rust tests
// wrote (target/tuplet-vectors/{c2s,s2c}.json, every village message, both directions, both
// shapes) decodes, validates and re-encodes in TypeScript exactly as in Rust; zero
// disagreements. Then writes target/tuplet-vectors/ts_encoded.json, TypeScript-encoded
// samples the ignored Rust test `ts_encoded_samples_decode_in_rust` decodes.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
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
import { c2s, s2c } from "../../../generated/ts/src/index.js";

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
      if (v.error === undefined || first.message === v.error) sameMessage++;
    }
    console.log(
      `${dir}: ${invalid.length} invalid vectors (${shapes.compact} compact, ${shapes.named} named): ${bad.length} disagreements on code and path; ${sameMessage} with the identical message`,
    );
    assert.deepEqual(bad.slice(0, 20), []);
  });
}

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

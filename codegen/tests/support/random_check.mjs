// The node side of the random-schema test (codegen/tests/random_schemas.rs), run beside the
// compiled package (`pkg`, its index, is imported above this text). Reads
//   samples.txt: `Dir name compact-hex named-hex seed mode`, Rust's bytes of every sample;
//   inputs.txt:  `Dir name hex`, invalid (mutated) inputs;
// and writes ts_out.json:
//   checked / bad: every sample's compact and named bytes decoded and re-encoded to Rust's
//     compact bytes (a line in `bad` per disagreement);
//   encoded: per sample, TypeScript's natural value of it and its own compact and named
//     bytes (Rust decodes them);
//   outcomes: per input, `ok <compact hex of the re-encoded value>` or
//     `<code> at '<path>': <message>` (the first issue), as Rust writes them.
import { readFileSync, writeFileSync } from "node:fs";
const here = (f) => new URL(`./${f}`, import.meta.url);
const hex = (b) => Buffer.from(b).toString("hex");
const bytes = (h) => Uint8Array.from(Buffer.from(h, "hex"));
const codec = (dir, name) => (dir === "S2c" ? pkg.s2c : pkg.c2s).byName[name];
// The natural JSON both languages share: bytes as hex, bigint as decimal text, maps as
// [key, value] pairs in wire order, absent options and unset `rest` omitted.
function natural(v) {
  if (v instanceof Uint8Array) return hex(v);
  if (typeof v === "bigint") return v.toString();
  if (v instanceof Map) return Array.from(v, ([k, x]) => [natural(k), natural(x)]);
  if (Array.isArray(v)) return v.map(natural);
  if (typeof v === "object" && v !== null) {
    const out = {};
    for (const k of Object.keys(v)) if (v[k] !== undefined && v[k] !== null) out[k] = natural(v[k]);
    return out;
  }
  return v;
}
let checked = 0;
const bad = [];
const encoded = [];
for (const line of readFileSync(here("samples.txt"), "utf8").split("\n")) {
  if (!line) continue;
  const [dir, name, compact, named] = line.split(" ");
  const c = codec(dir, name);
  if (!c) { bad.push(`${name}: no codec`); continue; }
  for (const [shape, h] of [["compact", compact], ["named", named]]) {
    const r = c.decode(bytes(h));
    if (!r.ok) { bad.push(`${name} ${shape} ${h}: ${JSON.stringify(r.issues)}`); continue; }
    let again;
    try { again = hex(c.encode(r.value)); } catch (e) { bad.push(`${name} ${shape} ${h}: encode threw ${e}`); continue; }
    if (again !== compact) bad.push(`${name} ${shape} ${h}: re-encoded ${again}, Rust ${compact}`);
    checked++;
    if (shape === "compact") {
      try {
        encoded.push({
          dir, name, rust: compact, value: natural(r.value),
          compact: again, named: hex(c.encode(r.value, { shape: "named" })),
        });
      } catch (e) { bad.push(`${name} named encode threw ${e}`); }
    }
  }
}
const outcomes = [];
for (const line of readFileSync(here("inputs.txt"), "utf8").split("\n")) {
  if (!line) continue;
  const [dir, name, h] = line.split(" ");
  const r = codec(dir, name).decode(bytes(h));
  if (r.ok) {
    try { outcomes.push(`ok ${hex(codec(dir, name).encode(r.value))}`); }
    catch (e) { outcomes.push(`decoded, but encode threw ${e}`); }
  } else {
    const i = r.issues[0];
    outcomes.push(`${i.code} at '${i.path}': ${i.message}`);
  }
}
writeFileSync(here("ts_out.json"), JSON.stringify({ checked, bad, encoded, outcomes }));
console.log(JSON.stringify({ checked, bad: bad.length }));

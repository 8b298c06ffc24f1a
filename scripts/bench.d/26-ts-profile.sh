#!/usr/bin/env bash
# Where the generated TypeScript decoder spends its time (V8 CPU profile), and what was tried
# against the speed and size targets the TypeScript sections report as not met.
set -euo pipefail
cd tests/ts
[ -d node_modules ] || npm ci --no-audit --no-fund >&2
npm run -s build >&2
nice -n 19 node scripts/profile-decode.mjs
cat <<'TEXT'
What was tried, and what is left, for the targets the sections above report as not met
(decode at least 1.5x msgpackr `unpack` on every fixture; 60 KiB gzipped for the whole
package, 25 KiB for `c2s` + dispatcher, 4 KiB for one codec with the runtime, 1 MB of source):

- Size. `fromWire` no longer has code per type: it packs the decoded JS value back into
  msgpack and reads it with `X$read` (the reader's `textKeys` takes a plain object's decimal
  int keys). `toWire` runs `X$write` on a `ValueWriter` that builds JS data. The named shape is
  read by the runtime's `readNamed` from a per-record field table (`X$named`); the compact shape
  stays straight-line. Per-function doc comments are said once per module. Whole package
  164.9 → 88.8 KiB gzipped, `c2s` + dispatcher 65.0 → 38.9 KiB, `generated/ts` 2.9 → 1.36 MB
  (one codec 8.2 → 8.7 KiB: the runtime gained `readNamed`, `packWire`, `ValueWriter`); the
  delta codecs added since bring them to the sizes in the section above.
  Then the cold paths left straight-line code too: each record, struct variant and data
  enum declares one table `X$t` (per field: name, a descriptor `[kind, bounds..., inner...]`
  of its field kind, the named-shape key or spread keys), walked by the runtime for
  `validate` (`vRecord`, `vEnum`), the named write (`writeNamed`) and the named read
  (`readNamed`, `readNode`); `X$named` and the per-type validate and named-write code are
  gone. Whole package 92.3 → 74.6 KiB gzipped, `c2s` + dispatcher 40.6 → 35.3 KiB, s2c 64.8 →
  51.2 KiB, `generated/ts` 1.40 → 1.14 MB; one codec 9.0 → 10.2 KiB (it carries the table
  walkers, about 4.5 KB minified). Decode and encode speed unchanged within the noise.
  Tried and not kept: unit enums read and numbered through their `as const` object (a
  `Map` from number to name): 3 KiB less for the whole package, but birds decode about 10%
  slower (two enums per bird); with the number `switch` kept straight-line only 0.9 KiB was
  left, not worth it.
  Left: for one codec, the runtime itself: `Reader` is one class (8.5 KB minified, every
  method kept), so a codec cannot shed what it never calls (`readBigInt`, `readVariant`,
  `skipValue`, the Rust number formatting of error messages), plus `packWire`/`ValueWriter`
  (`fromWire`, `toWire`) and the table walkers; free functions over a reader state (or a
  codec option without `fromWire`/`toWire`/named shape) would let esbuild drop them. For the
  whole package: the compact read's per-field `missing` checks and `k` bookkeeping (the field
  name twice per field), the data enums' two `switch`es (compact tag and named key), and the
  codec constants; for the source, the doc comments (120 KB, kept for editors).
- Speed. `readInt` now inlines the common markers (fixint, u8/u16, i8/i16/i32) and leaves the
  rest and every error to `readIntAny`: about 10-15% on every fixture (decode/unpack ratio in
  alternating rounds, load 17 on 2 cores: player:move 0.77 → 0.90, birds 0.65 → 0.78, snapshot
  0.84 → 1.0). A fixed array of up to 4 simple elements is one array literal (no growth of an
  empty array; the change was within the noise). The profile above shows what is left: the
  generated read itself (object construction with optional fields added after, per-field
  bookkeeping for error paths), `readInt` still called out of line in large readers (V8's
  cumulative inlining budget), the 9-byte session-id strings (`shortAscii`, `readStr`) and the
  garbage collector (a result object, an array per position). Not tried: a cache of short
  decoded strings (msgpackr keeps one), building the optional fields into the object literal
  (changes the value's own keys), splitting generated readers so the reader calls inline.
TEXT

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
  Left: `X$validate` is still straight-line per type (about 180 KB of source; a field table
  like `X$named` would serve it); the compact read's per-field `missing` checks; and for one
  codec, the runtime itself: `Reader` is one class (8.5 KB minified, every method kept), so a
  codec cannot shed what it never calls (`readBigInt`, `readVariant`, `skipValue`, the Rust
  number formatting of error messages).
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

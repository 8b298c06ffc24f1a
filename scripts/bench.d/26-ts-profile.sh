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
  Then a message's codec walks its table for `validate` (`codec(name, id, X$read, X$write,
  X$t)`), so only the types some field names keep an `X$validate` (83 of 385 items), a record
  whose every slot is written writes a constant array header, and module headers are one
  line: `generated/ts` 1.035 → 0.99 MB, whole package 73.4 → 71.2 KiB gzipped, `c2s` +
  dispatcher 34.8 → 33.8, s2c 50.9 → 49.7 (one codec unchanged). Tried and not kept: a
  `wRecord(w, v, X$t, named)` prologue (the object check and the named write in one call):
  3 KB less minified, 0.2 KiB more gzipped; fused `wInt`/`wStr` (check and write in one
  call): 2.8 KB less minified, under 0.1 KiB gzipped. Measured for what is left: property
  names mangled as free functions would mangle them save 0.4 KiB gzipped on the whole
  package for the writer's calls (1 KiB with the reader's), 0.2 (0.5) KiB on `c2s`, 60 B
  on one codec; so the `Writer` as free functions is worth its tree-shaking of unused
  methods in one codec, not its call sites. The per-type straight-line code is what is
  left: every `X$write` emptied takes the whole package 71.2 → 59.9 KiB, `c2s` 33.8 →
  29.4 KiB; every `X$read` emptied, 71.2 → 45.0 and 33.8 → 22.9 KiB. The targets need
  one of the two compact paths table-driven for the types not on a hot path (the named
  shape already is), with a rule for which types are hot (today: the elements of long
  lists and what they reach, which leaves player:move out). Tried and not kept: the compact
  write of every record that is not hot walked along `X$t` (`writeCompact`, the kinds' write
  step taking the shape): whole package 71.2 → 64.7 KiB, `c2s` 33.8 → 31.6 KiB, vectors
  unchanged, but encode against msgpackr packing the plain object fell from 3.3x to 1.7x on
  player:move, 3.7x to 2.3x on birds and 2.8x to 2.0x on world:snapshot (one run each,
  loaded machine): the message records themselves are the ones walked.
  Then `[ts] hot = [...]` in tuplet.toml names the messages a client sends or receives at a
  high rate (the village: movement both ways, inputs and acks, the bird stream, the entity
  snapshot, heartbeat and ping/pong); they and what they reach keep
  straight-line compact code, and every other record without reserved slots has a one-line
  `X$read`/`X$write` calling the runtime's `readRecord`/`writeRecord`, which walk `X$t` in
  either shape (the kinds' read and write steps take the shape: a quantized float is an int
  in the compact one) with the straight-line code's checks, codes and paths (every vector
  unchanged). Whole package 71.2 → 50.8 KiB gzipped (target met), `c2s` + dispatcher 33.8 →
  26.8 KiB, s2c 49.7 → 35.8, `generated/ts` 0.99 → 0.72 MB; one codec unchanged (9.4 KiB).
  A cold closed unit enum's read, number and write are then lookups in its `as const`
  object (`readUnit`, `unitNum`, `writeUnit`; numbers to names built once per enum): whole
  50.8 → 48.5 KiB, `c2s` 26.8 → 26.2, s2c 35.8 → 34.6, source 0.72 → 0.68 MB. Then the
  elements of long lists (hot for the inline int reads) stay straight-line only when a
  listed message reaches them (Bird, NearbyEntity do; chat history lines, friends, mail,
  shop stock, ledger rows no longer): whole 48.5 → 45.1 KiB, `c2s` 26.2 → 24.8 (target
  met), s2c 34.6 → 30.9, source 0.68 → 0.64 MB.
  The three bench messages are hot, so their code is byte-identical and their ratios
  moved only within the noise. Left: one codec (9.4 KiB against 4) and further size: the
  data enums' two `switch`es, the codec constants; data enums, open or wide unit enums and
  records with reserved slots are not walked yet: the variant table has no tag numbers, the
  field table no reserved rows), and one codec's runtime (the `Writer` class, the table walkers, the error formatting; the reader became free functions below).
- Speed. `readInt` inlines the common markers and leaves the rest and every error to
  `readIntAny` (about 10-15% on every fixture). V8 inlines at most 920 bytes of bytecode per
  optimized function and `readInt` is 359, so a reader of ten ints called eight of them out of
  line (`--trace-turbo-inlining`); a smaller `readInt` (181 bytes: fixint, cd, d1) still gave
  only two inlines. So the compact readers of hot types (the elements of lists, arrays and maps
  of 50 or more, and what they reach: 17 readers of the village, Bird and NearbyEntity among
  them) read each int in place from `Reader.buf` (fixint, negative fixint, cc, cd, d0, d1; any
  other marker, a value out of range or the end of the input goes to `readInt`, so every error
  is unchanged). Hand-inlining every field of `Bird$read` was 2x msgpackr `unpack`; the emitted
  form gave birds 1.35x with four markers and 1.6x with six (one run, alternating, load 12-15).
  Inline code in every reader cost 17 KiB gzipped for the whole package (all 614 ints), 5 KiB
  for all list elements, 2.4 KiB for lists of 50+; a one-line required-field check
  (`k = "x"; if (s <= 2) throw absent(k)`, 879 fields) and `readList`/`readMap`/`skipValues`
  paid for it. Also: fixarray headers entered in place, unit enums read a positive fixint in
  place, a 512-slot cache of short ASCII strings (hits allocate nothing). A generic loop over a
  record's int descriptors (one call per record) was no faster than the calls (0.94x unpack on
  birds): the branches per marker no longer predict per field. Left: player:move (a message
  root, not hot: about 1.1x unpack) pays `readInt` calls, the u64 timestamp through
  `readIntAny`, the optional fields added after the object literal, and the fixed cost of
  `decode` (reader reset, result object); world:snapshot (about 1.2-1.4x) its strings
  (`readStr`, `tryNil`) and the position arrays.
  Then the reader became plain state (`Reader`: `buf`, `pos`, budget, depth, limits) and free
  functions (`readInt(r, ..)`, `readStr`, `readShape`, ...) the generated code imports: a bundle
  keeps only the ones it calls (one codec 9.4 -> 8.8 KiB gzipped at the time) and player:move
  decode went 2985 -> 2724 instructions per call (callgrind after warm-up; msgpackr `unpack`
  2639). Module-level state as in msgpackr was not tried: the generated readers advance the
  position from another module (an import binding is read-only) and nested decodes (`fromWire`,
  delta mirrors, dispatch) would need a save/restore. Then, for player:move: the
  server-to-client messages with a `budget` read their ints in place too, as one expression
  over per-function scratch locals (no block and local per int; a bound checked only where an
  arm can exceed it), a `cf` arm reads a u64 timestamp up to 2^53 - 1 as two 32-bit halves,
  a hot record whose optional fields are all present is one object literal, and a short string
  is compared with its cache slot before any other pass: 2724 -> about 2230 instructions
  (about 2000 with a slot hash of three bytes, not kept: ids such as `pl0004005` collided and
  world:snapshot went 86.5k -> 92.3k). Left: the 1.5x on player:move by instructions (about
  1.2x; its 36 bytes allocate the result, the position array, the flags object), the fixed
  cost of `decode` and `readShape`/`readStr` calls, and world:snapshot's strings.
TEXT

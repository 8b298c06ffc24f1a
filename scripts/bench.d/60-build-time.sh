#!/usr/bin/env bash
# The village crate's clean build (dev profile, the crate alone) with tuplet's derives against
# a twin of the same types with serde's derives only: examples/village/scripts/build-time.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(examples/village/scripts/build-time.sh)
echo "$out" >&2
ratio=$(echo "$out" | sed -n 's/^ratio: \([0-9.]*\)x$/\1/p')
cat <<MD
## Build time of the derives

\`examples/village/scripts/build-time.sh\`: a clean dev build of the village crate alone
(dependencies built first and not counted; \`cargo clean -p\`, median of 3) with tuplet's
derives, against a generated twin with the same types and serde's derives only
(\`examples/village/scripts/serde_twin.py\`).

\`\`\`text
$out
\`\`\`

Target: at most 1.3x the serde-only twin: $(python3 -c "print('met' if $ratio <= 1.3 else 'not met')").
MD
cat <<'MD'

### Profile, and what was tried

LLVM IR lines of the village crate (`cargo llvm-lines`, dev build, `testkit` off), which do
not depend on the machine's load, by what the derive emits: at the start of the work, before
→ after the previous round, and after the table-driven named-shape decode (this round: the
previous column plus the change measured between main before and after it, 571,371 →
534,292 lines; main had gained 99 lines elsewhere in between):

| category | start | previous round | this round |
|---|---:|---:|---:|
| named-shape decode | 125,346 | 125,346 | 90,215 |
| compact decode, per type | 117,654 | 117,654 | 116,745 |
| `BTreeMap` generics (the village's map fields) | 67,767 | 67,767 | 67,767 |
| compact encode, runtime generics | 59,773 | 17,358 | 17,358 |
| validate | 59,277 | 35,069 | 35,069 |
| compact encode, per type | 47,075 | 47,075 | 47,075 |
| other std generics | 43,939 | 44,057 | 43,057 |
| compact decode, runtime generics (`read_int_in` and others) | 27,759 | 27,862 | 27,823 |
| wire_eq and its iterator helpers | 33,338 | 25,720 | 25,720 |
| named-shape encode | 25,216 | 25,216 | 25,216 |
| dispatch | 19,386 | 12,975 | 12,975 |
| sample | 18,035 | 18,035 | 18,035 |
| delta and entity | 5,184 | 5,268 | 5,268 |
| **total** | **651,619** | **571,272** | **534,292** |

What went in the previous round: a closure per type passed to the slice writer (368 copies),
`codec::validate` instantiated per message in the dispatch enum, `decode_by_name` as a second
match over every message (it now finds the id in `MESSAGES` and calls `decode_by_id`), a
closure and a path push/pop per validated field (one `report_at` call adds the step on
failure), `Iterator::all` per compared list in `wire_eq`, and the near-copy walks of the entity
and delta emitters.

This round, the named shape's decode is table-driven: the derive emits a static `NamedShape`
per record (its keys in the order the old `match` tried them, and per key the field, or the
element of an array spread over keys) and one runtime loop, `read_named`
(`runtime/src/named.rs`), does the key lookup, skips unknown keys, rejects duplicates and adds
the field's path step to an error. What stays per type is a closure that reads one field's
value into its local (passed as `&mut dyn NamedRead`, one method: a `dyn FnMut` cost
`FnOnce::call_once` and its shim per record, 12,002 lines) and the missing-field checks in
slot order. Values are still read in map order, so errors keep their order, codes, paths and
messages (the vectors, the fuzz corpora, the random schemas and the memory bound pass; the
duplicate flags live in a stack array). Tried and not kept: `match` instead of `?` on the
leaf reads (2.9K lines, 0.5%, on code that is also the compact hot path); one closure for a
whole named decode with a "current field" marker (IR grew by 2.8K lines).

Where the rest goes (`-Ztime-passes`, before the previous round, on a loaded machine): the
tuplet build spent 21 s in type checking and 16 s in borrow checking (front end), about 23 s
in LLVM and 9 s generating IR; the serde twin spent 12 s borrow checking, 12 s type checking
and 0.4 s in code generation: serde's derives are generic and almost nothing of them is
compiled until a caller instantiates them, while tuplet's codecs are concrete functions
compiled in the crate. **1.3x is blocked on that difference**: it would need most of the code
generation gone and a smaller front end too. What is left, largest first: the compact decode
(117K lines per type plus 28K of `read_int_in` instantiations, the hot path; its per-field
path-step closure `at()` alone is 40K), `BTreeMap` generics (68K, instantiated by the map
fields' types), the compact encode (47K), validate (35K), the named decode's per-type rest
(90K: the field-reading closures and the missing-field checks), the named encode (25K) and
the samples (18K); a table-driven validate and named encode need the fields' values through
typed accessors, which is per-type code again.
MD

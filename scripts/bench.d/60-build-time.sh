#!/usr/bin/env bash
# What a server developer waits for: the protocol crate and a server that uses it, built with
# tuplet's derives and with serde + rmp-serde on a twin of the same types, for the village and
# for a synthetic schema ten times its size (scripts/bench.d/synth_schema.py).
#
#   60-build-time.sh           the full part (several alternating rounds; about an hour on a
#                              loaded 2-core machine); prints the BENCHMARKS.md section
#   60-build-time.sh --smoke   every row once on a tiny two-message protocol, no table: checks
#                              the script works (run by scripts/test)
#
# The crates are written by scripts/bench.d/build_bench.py into target/build-bench/ and built
# in the repository's target dir with the repository's dev profile (dependencies already
# built are not counted) and cargo's dev default CARGO_INCREMENTAL=1, as a developer builds.
# Rows, each tuplet against serde, in rounds whose order alternates (tuplet first, then serde
# first): the protocol crate alone after `cargo clean -p` of it; protocol + consumer after
# `cargo clean -p` of both; the consumer after editing one field of one message (`player:move`'s
# `t` between u64 and u32), which rebuilds both; `cargo check` of the protocol crate after the
# same edit (what rust-analyzer waits for). RUNS (village, default 3) and SYNTH_RUNS (ten
# times, default 2) set the rounds; a row whose per-round ratios spread by more than 20% of
# their median gets up to EXTRA (default 2) more rounds. WARM=0 skips the untimed build before
# each side's rows (which builds the dependencies; for a run after one that built them, such
# as the ten-times schema after the village). SCHEMAS (default "village synth10")
# picks the schemas, and APPEND=1 keeps the timings of the last run (target/build-bench/times)
# and adds to them: the village and the ten-times schema can run as two locked runs, the
# second one's table showing both.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
smoke=0
[ "${1:-}" = --smoke ] && smoke=1
bench=$root/target/build-bench
ws=$bench/ws
export CARGO_TARGET_DIR=$root/target CARGO_INCREMENTAL=1
mkdir -p "$bench"
log=$bench/log
times=$bench/times
# REPORT_ONLY=1: skip the rounds and report the timings of the last run (target/build-bench/times).
[ "${REPORT_ONLY:-0}" = 1 ] || [ "${APPEND:-0}" = 1 ] || : >"$times"

if [ $smoke = 1 ]; then
  # A tiny protocol: one message each way, both dispatch enums.
  src=$bench/tiny/src
  rm -rf "$bench/tiny"
  mkdir -p "$src"
  cat >"$src/lib.rs" <<'RS'
//! A tiny protocol for the build-time part's smoke run.
pub mod dispatch;
pub mod player;
RS
  cat >"$src/player.rs" <<'RS'
//! One message each way.
/// A move.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "c2s")]
pub struct PlayerMove {
    /// Position, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub p: [f32; 3],
    /// Sample time, ms.
    pub t: u64,
}
/// A relayed move.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:moved", id = 2, dir = "s2c")]
pub struct PlayerMoved {
    /// Session id.
    #[tuplet(len(max = 9))]
    pub s: String,
}
RS
  cat >"$src/dispatch.rs" <<'RS'
//! The dispatch enums.
/// Client to server.
#[derive(Debug, Clone, PartialEq, tuplet::Dispatch)]
#[tuplet(dir = "c2s")]
pub enum ClientMessage {
    /// `player:move`.
    PlayerMove(crate::player::PlayerMove),
}
/// Server to client.
#[derive(Debug, Clone, PartialEq, tuplet::Dispatch)]
#[tuplet(dir = "s2c")]
pub enum ServerMessage {
    /// `player:moved`.
    PlayerMoved(crate::player::PlayerMoved),
}
RS
  schemas=(tiny)
  args=(tiny="$src")
  runs_of() { echo 1; }
  EXTRA=0
else
  rm -rf "$bench/synth10"
  python3 scripts/bench.d/synth_schema.py examples/village "$bench/synth10" 10
  read -r -a schemas <<<"${SCHEMAS:-village synth10}"
  args=(village="$root/examples/village/src" synth10="$bench/synth10/synth/src")
  runs_of() { if [ "$1" = village ]; then echo "${RUNS:-3}"; else echo "${SYNTH_RUNS:-2}"; fi; }
  EXTRA=${EXTRA:-2}
fi
python3 scripts/bench.d/build_bench.py "$root" "$ws" "${args[@]}"
cp Cargo.lock "$ws/Cargo.lock"

c() { # cargo in the scratch workspace; output to the log, shown on failure
  (cd "$ws" && cargo "$@" --offline -q) >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
}
ms() { # milliseconds a cargo command takes
  local s e
  s=$(date +%s%N)
  c "$@"
  e=$(date +%s%N)
  echo $(((e - s) / 1000000))
}
# The edit: `pub t: u64` of the first message in player.rs (player:move) between u64 and u32.
edit() { # schema kind
  local f
  f=$(ls "$ws/$1-$2/src"/player*.rs | sort | head -n1)
  if grep -q 'pub t: u32, // edited' "$f"; then
    sed -i 's|pub t: u32, // edited|pub t: u64,|' "$f"
  else
    sed -i '0,/pub t: u64,/s||pub t: u32, // edited|' "$f"
  fi
}
round() { # schema round-number kind: the four rows for one side
  local s=$1 i=$2 k=$3 p="$1-$3" load
  load=$(cut -d' ' -f1 /proc/loadavg)
  [ "${WARM:-1}" = 0 ] || c build -p "$p-server"
  c clean -p "$p"
  echo "$s proto $i $k $(ms build -p "$p") $load" >>"$times"
  c clean -p "$p" -p "$p-server"
  echo "$s full $i $k $(ms build -p "$p-server") $load" >>"$times"
  edit "$s" "$k"
  echo "$s incr $i $k $(ms build -p "$p-server") $load" >>"$times"
  c check -p "$p"
  edit "$s" "$k"
  echo "$s check $i $k $(ms check -p "$p") $load" >>"$times"
  echo "build-time: $s round $i $k done (load $load)" >&2
}
pair() { # schema round-number: both sides, the order alternating with the round
  if [ $(($2 % 2)) = 1 ]; then round "$1" "$2" tuplet; round "$1" "$2" serde
  else round "$1" "$2" serde; round "$1" "$2" tuplet; fi
}
disagree() { # schema: whether a row's per-round ratios spread by more than 20% of their median
  python3 - "$times" "$1" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.split()[0] == sys.argv[2]]
for row in ("proto", "full", "incr", "check"):
    t = {(r[2], r[3]): int(r[4]) for r in rows if r[1] == row}
    ratios = [t[(i, "tuplet")] / t[(i, "serde")] for i in {r[2] for r in rows} if (i, "serde") in t and (i, "tuplet") in t]
    if len(ratios) > 1 and (max(ratios) - min(ratios)) > 0.2 * statistics.median(ratios):
        sys.exit(0)
sys.exit(1)
PY
}
for s in "${schemas[@]}"; do
  [ "${REPORT_ONLY:-0}" = 1 ] && break
  n=$(runs_of "$s")
  for i in $(seq "$n"); do pair "$s" "$i"; done
  for i in $(seq $((n + 1)) $((n + EXTRA))); do
    disagree "$s" || break
    echo "build-time: $s rows disagree across rounds; round $i" >&2
    pair "$s" "$i"
  done
done

if [ $smoke = 1 ]; then
  test "$(wc -l <"$times")" = 8 || { echo "build-time smoke: expected 8 timings" >&2; cat "$times" >&2; exit 1; }
  echo "build-time smoke: every row built and timed" >&2
  exit 0
fi

# The profile, village only, without incremental: LLVM IR lines (`--emit=llvm-ir`), and with
# PASSES=1 the compiler's passes (`-Ztime-passes`; RUSTC_BOOTSTRAP=1 for this measurement
# only: it changes every dependency's fingerprint, so they are all rebuilt first).
prof=$bench/profile
# SKIP_PROFILE=1: no profile (the table shows the last run's, if any; REPORT_ONLY=1 too).
skip_profile=${SKIP_PROFILE:-${REPORT_ONLY:-0}}
[ "$skip_profile" = 1 ] || : >"$prof"
touch "$prof"
[ "$skip_profile" = 1 ] || for k in tuplet serde; do
  for p in "village-$k" "village-$k-server"; do
    c build -p "$p"
    c clean -p "$p"
    if [ "${PASSES:-0}" = 1 ]; then zflags=(-Ztime-passes); boot=1; else zflags=(); boot=; fi
    (cd "$ws" && env CARGO_INCREMENTAL=0 ${boot:+RUSTC_BOOTSTRAP=1} cargo rustc --offline -q -p "$p" -- --emit=llvm-ir,link,metadata "${zflags[@]}") >"$log" 2>&1 ||
      { cat "$log" >&2; exit 1; }
    ll=$(ls -t "$CARGO_TARGET_DIR"/debug/deps/"${p//-/_}"-*.ll | head -n1)
    echo "ir $p $(wc -l <"$ll")" >>"$prof"
    rm -f "$CARGO_TARGET_DIR"/debug/deps/"${p//-/_}"-*.ll
    sed -n 's/^time: *\([0-9.]*\);.*[[:space:]]\([A-Za-z_]*\)$/pass '"$p"' \2 \1/p' "$log" >>"$prof"
  done
done
python3 scripts/bench.d/build_table.py "$times" "$prof" "$(rustc --version)" "$(cargo --version)"
cat <<'MD'

### What the rows say, and what is left

The two sides now pay in the same crate. serde's derives are generic: the twin's protocol
crate compiles almost no code, and every `from_slice` / `to_vec` of a message is
monomorphized in the consumer. tuplet's codecs are concrete functions, `#[inline]` in a dev
build (`#[cfg_attr(debug_assertions, inline)]` on every method the derives emit): the
protocol crate type-checks and borrow-checks them and writes their MIR into its metadata,
but generates machine code for none, and the consumer generates code only for the codecs it
calls. A server decodes c2s messages and encodes s2c ones, so it compiles about half of
them; a release build has no `debug_assertions` and compiles every codec once, in the
protocol crate, as before. What is left in the protocol crate alone, and in `cargo check`
after an edit, is the front end: type and borrow checking of the derived bodies, largest
first the decode (compact and named shapes) and the encoders (profile below).

Not tried yet: concrete straight-line codecs only for messages marked hot, every other
message a static descriptor walked by one runtime routine compiled in the `tuplet` crate
(the front-end work per cold message would shrink to a table).
MD
cat <<'MD'

### This round: codecs compiled where they are called, and linear dispatch checks

Two changes, measured each against main before it on the same machine, alternating:

- **Codecs `#[inline]` in a dev build.** LLVM IR of the village crate (`cargo llvm-lines -p
  village --lib`, dev build, no `testkit`): 421,853 lines → 1,411 (the `From` impls of the
  dispatch enums). The build bench's consumer generates what it calls: 195,766 lines (c2s
  decoders, s2c encoders, the `BTreeMap` code their maps need). Together, the profile's
  `--emit=llvm-ir` lines of protocol + consumer (debug info included) go from 973,425
  (954,320 + 19,105) to 466,463 (4,951 + 461,512): a server compiles half the code it did.
  Two alternating rounds of the four rows (wall seconds, load 1.6–2.4), before → after:
  protocol crate alone 26.9, 28.2 → 16.3, 17.7 s; protocol + consumer 26.7, 29.0 → 19.3,
  23.0 s; the rebuild after an edit and `cargo check` unchanged within the noise.
- **Linear dispatch checks.** `-Zself-profile` of the village protocol crate (self time per
  query, `CARGO_INCREMENTAL=0`) put 18% of its build in evaluating two constants: the dispatch
  enums' compile-time checks (`eval_to_allocation_raw`, 11.1 of 64.2 s on a loaded machine),
  which scanned every pair of ids and of names, again for each reserved id and name, in
  const evaluation's interpreter, and had an arm building error text per rule per variant.
  They now hash ids and names into a table in the constant (`first_duplicate_id`,
  `first_duplicate_name`) and one `dispatch_problem` builds the text of the first broken
  rule: 0.33 of 15.3 s (2%), the arms one per variant. The errors read as before (the
  trybuild UI tests: direction, duplicate ids and names, reserved ids and names).

Both changes together, CPU seconds of a clean build (user time, `CARGO_INCREMENTAL=0`),
main before and after, alternating, two rounds, load 1.7–2.8: the protocol crate alone
21.8, 23.7 → 12.3, 12.7 s (−45%); protocol + consumer 24.8, 22.5 → 15.4, 15.6 s (−34%).

What it costs: a crate that calls the codecs compiles them, so each test binary of this
repository that uses the village compiles the codecs it calls (the `tuplet-tests` test
binaries, clean, `CARGO_INCREMENTAL=0`: 38.3 → 49.9 s, one round, load 2.3–2.6). A release
build is the same code as before (the attribute applies only with `debug_assertions`, and the
dispatch checks run at compile time), so the peers bench's rows are unchanged by construction.
MD
cat <<'MD'

### The previous round's conditions, and main before its three levers

Every build of that round had `CARGO_BUILD_JOBS=1` (the rule for builds on this shared
machine), which also leaves rustc one code-generation thread; the 1-minute load at the start
of the village rounds was 5.3–11.0, with this change's tests and clippy building at nice 15
beside them. Load weighs on the sides unevenly (the serde consumer's clean build took 35 to
59 s across rounds), so the table's village ratios are not comparable with earlier runs'.
Comparable rows, each one alternating round (tuplet first) at low load:

| row | main before: tuplet s | serde s | ratio | after the three levers: tuplet s | serde s | ratio |
|---|---:|---:|---:|---:|---:|---:|
| clean build, protocol crate alone (≤ 1.3x) | 16.5 | 8.0 | 2.07x | 14.6 | 8.0 | 1.82x |
| clean build, protocol + consumer (≤ 1.0x) | 17.0 | 18.4 | 0.92x | 15.4 | 15.4 | 1.00x |
| rebuild of the consumer after editing one field (≤ 1.0x) | 4.4 | 7.6 | 0.58x | 3.6 | 6.9 | 0.52x |
| `cargo check` after the same edit (≤ 1.3x) | 3.3 | 2.1 | 1.56x | 2.5 | 2.1 | 1.20x |

1-minute load at the start of each side: before 1.85 (tuplet) and 1.37 (serde), after 1.98 and 2.16.

The levers take tuplet's clean protocol build from 16.5 to 14.6 s (−12%) and its `cargo check`
after an edit from 3.3 to 2.5 s; the serde twin's seconds are the same code both times. One
round each: read the ratios as ±10%. Per target, from both tables: protocol + consumer (≤ 1.0x)
met in the loaded rounds (0.48x) and at the edge at low load (1.00x); the rebuild after an edit
(≤ 1.0x) met everywhere; `cargo check` after an edit (≤ 1.3x) met in both (1.22x, 1.20x) and on
the ten-times schema (1.12x); **the protocol crate alone (≤ 1.3x) is not met**: 1.31x loaded,
1.82x at low load, 1.71x on the ten-times schema (which grows with the schema as the twin
does: 147.7 s against 86.4 s). It is blocked on the front end and code generation of the
concrete per-type codecs (the profile below); the descriptor design is the lever left for it.

The hot path is unchanged: the peers bench's binary of main before and after, alternating,
3 runs each, medians of each run's median ns (tuplet rows): compact decode 0.89x (player:move),
1.00x (birds:stream), 0.98x (world:snapshot) of main's time; compact encode 1.00x, 1.00x,
0.99x; named decode 0.99x, 0.96x, 1.01x; named encode 1.00x, 1.03x, 1.02x; all within 5%.
MD
cat <<'MD'

### This round: three levers, measured in IR lines

LLVM IR lines of the village crate (`cargo llvm-lines -p village --lib`, dev build, default
features: no samples, no `testkit`), which do not depend on the machine's load, by what the
derive emits. Each lever is one commit; the columns are cumulative:

| category | main before | path steps without closures | int bounds as arguments | validate by one call |
|---|---:|---:|---:|---:|
| named-shape decode | 89,180 | 84,643 | 84,643 | 84,643 |
| compact decode, per type | 70,208 | 84,564 | 84,564 | 84,564 |
| compact decode, per-field path-step closures (`at()`) | 45,382 | 912 | 912 | 912 |
| `BTreeMap` generics (the village's 17 map types) | 67,767 | 67,767 | 67,767 | 67,767 |
| compact encode | 54,240 | 54,240 | 54,240 | 54,240 |
| validate | 34,623 | 34,623 | 34,623 | 11,952 |
| int reads (`read_int_in`, `int_fast`: 116 pairs of bounds) | 26,564 | 26,564 | 237 | 237 |
| int writes (`put::int_in`: 115 pairs) | 6,555 | 6,555 | 65 | 65 |
| named-shape encode | 24,895 | 24,895 | 24,895 | 24,895 |
| wire_eq | 20,408 | 20,408 | 20,408 | 20,408 |
| dispatch | 13,523 | 13,523 | 13,523 | 13,523 |
| delta and entity | 13,242 | 12,401 | 12,401 | 12,101 |
| iterator generics | 12,341 | 12,341 | 12,341 | 12,341 |
| `?` glue (`Try::branch`, `from_residual`) | 9,656 | 9,214 | 9,214 | 9,214 |
| other std generics | 27,450 | 27,450 | 24,690 | 24,991 |
| **total** | **516,034** | **480,100** | **444,523** | **421,853** |

- **Path steps without closures** (−35,934 lines, −7.0%). The compact decode wrapped each
  field's, element's and map value's read in a closure, `(|| Ok(read))()`, so that an error
  leaving it by `?` gained its path step: a function per field. Each fallible read under a
  step now matches its `Result` and returns the error with the steps added
  (`e.in_index(i1).in_field("pos")`, `Error`'s cold methods); nested containers name their
  loop variables by depth so a step refers to its own. The per-type decode grows by the
  inlined reads (70,208 → 84,564), the closures go (45,382 → 912, the delta mask's).
- **Int bounds as arguments** (−35,577, −7.4%). `read_int_in::<MIN, MAX>` and
  `put::int_in::<MIN, MAX>` were instantiated once per pair of bounds (with `int_fast` and its
  `Option::map`). The derive now calls `read_int_within(min, max)` and
  `put::int_within(.., min, max)`: not generic, `#[inline]` in a debug build (one copy in the
  crate) and `#[inline(always)]` in an optimized one, where the bounds are constants at every
  call and the code folds to what the const-generic form compiled to.
- **Validate by one call** (−22,670, −5.1%). A validated leaf was a match on its check, a
  `Seg` built and `report_at` per field; it is now one call of `issue_here`,
  `issue_at_field` or `issue_at_index` (generic only over the checked value), which builds
  the `Seg` only for an issue.

Together: 516,034 → 421,853 lines (−18.3%). Codes, paths and messages are the same: the
vectors, the fuzz corpora replay, the derive-vs-IR-codec agreement, the random schemas and
the trybuild UI tests pass unchanged.

The compiler's passes for the village crate alone (`cargo +nightly rustc -p village --lib --
-Ztime-passes`, `CARGO_INCREMENTAL=0`, wall seconds), main before and after the three levers,
two alternating rounds each, at nice 15 beside other builds (1-minute load 6.7–10.8):

| pass | main before, s (rounds 1, 2) | after the three levers, s (rounds 1, 2) |
|---|---:|---:|
| macro expansion (the derives run here) | 4.1, 2.8 | 4.7, 4.1 |
| type checking | 39.0, 37.6 | 46.7, 17.7 |
| borrow checking | 30.0, 36.3 | 76.4, 12.6 |
| writing metadata | 7.6, 6.9 | 3.0, 3.1 |
| monomorphization | 4.0, 4.1 | 2.7, 1.9 |
| generating LLVM IR | 5.7, 5.7 | 6.4, 5.9 |
| LLVM | 25.0, 24.3 | 17.2, 23.1 |
| total | 117.1, 120.1 | 159.2, 69.7 |

Wall seconds on this shared machine swing by 2x between rounds (the type and borrow checking
of the same code took 17.7 and 46.7 s), so only what moves in both rounds is read from it:
writing the crate's metadata halves (7.6 and 6.9 s → 3.0 and 3.1 s: the decode functions are
`#[inline]`, and their closures' MIR went into the metadata) and the monomorphization walk
drops by a third; LLVM's share follows the IR lines. The front end (type and borrow checking,
about 60% of a clean build before) is what the levers do not shrink: they take code out of
what is generated per type, not types or fields out of what is checked. That front end is
also all of what `cargo check` waits for.

### Samples behind a feature (one round before and after)

`Wire::sample`, `Dispatch::sample_variant` and `tuplet::sample` are now emitted and declared
only under the runtime's `sample` feature (on with `testkit`), so the protocol crate built for
a server compiles no sampling code: the 18,035 LLVM IR lines the samples took in the village
(3.4% of 534,292, `cargo llvm-lines` in the previous round). Before (main) and after, one
alternating round each (`RUNS=1`-style, tuplet side first), 2 cores shared with four other
engineers' builds; seconds, tuplet ÷ serde of the same round:

| row | before: tuplet s | serde s | ratio | after: tuplet s | serde s | ratio |
|---|---:|---:|---:|---:|---:|---:|
| clean build, protocol crate alone | 117.9 | 51.5 | 2.29x | 57.3 | 22.6 | 2.53x |
| clean build, protocol + consumer | 157.2 | 47.1 | 3.34x | 49.0 | 41.2 | 1.19x |
| rebuild of the consumer after editing one field | 36.3 | 25.9 | 1.40x | 9.8 | 20.2 | 0.49x |
| `cargo check` after the same edit | 29.0 | 5.2 | 5.57x | 10.9 | 5.1 | 2.16x |

1-minute load average at the start of each side: before 5.9 (tuplet) and 9.3 (serde), after
8.6 and 9.5. The before round's tuplet side ran while this change was being compiled and
linted on the same two cores, so its seconds are inflated by a factor the ratios do not
cancel; one round each cannot separate a 3% change in generated code from that noise. What
the change removes is fixed by construction (the sampling functions are not generated), and
the hot paths are the same tokens as before (the peers bench's crate builds with `testkit`,
so its codecs are unchanged). The targets stay not met: the profile above (front end and
code generation of the concrete per-type codecs) is what is left, and the descriptor design is
the lever for it.

### Earlier rounds: where the protocol crate's IR went, and what was tried

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

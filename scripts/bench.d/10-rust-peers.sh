#!/usr/bin/env bash
# Rust codecs against peers: rmp-serde (tuple, map), serde_json, bitcode and two hand-written
# msgpack codecs, on the three datasets of tests/benches/peers.rs. The binary runs 31
# alternating rounds per row; this part runs it RUNS times (default 3): the tables of the
# first run, then the targets of every run.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-3}
bin=$(scripts/bench.d/peers-bin)
echo "rust-peers: $bin, $runs runs" >&2
first=$(nice -n 5 "$bin" --bench)
targets=""
for i in $(seq 2 "$runs"); do
  echo "rust-peers: run $i of $runs" >&2
  targets+=$(nice -n 5 "$bin" --bench --targets | sed "s/^| /| run $i: /")$'\n'
done
cat <<MD
## Rust codecs against peers

\`cargo bench -p tuplet-tests --bench peers\` (source: \`tests/benches/peers.rs\`, the hand-written
codecs in \`tests/benches/peers/hand.rs\`). The same values in every row: tuplet quantizes
and checks every range, length and count as it reads and writes; the serde peers carry raw
f32 and check nothing; "hand-written, no checks" is the fastest msgpack code we could write
by hand for these structs with the same quantization (safe Rust: one fixed-size append per
value, a slice cursor, rounding without libm), and "hand-written, ranges checked" adds every
range, length and count check: the practical limit of a validating codec. Speed columns are
rmp-serde tuple's median time divided by the row's (above 1 is faster than rmp-serde).
MD
echo "$first" | sed -n '/^### player:move/,$p' | sed '/^### Targets on this run/,$d'
echo
echo "### Targets, every run"
echo
echo "Each run is a separate process; ratios are of medians within that run."
echo
echo "$first" | sed -n '/^### Targets on this run/,$p' | sed -n '3,4p'
echo "$first" | sed -n '/^### Targets on this run/,$p' | sed -n '5,$p' | sed 's/^| /| run 1: /'
printf '%s' "$targets"

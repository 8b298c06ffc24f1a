#!/usr/bin/env bash
# The delta-snapshot lab: recorded village trajectories (examples/delta-lab), every client's
# messages as a full compact snapshot, a tuplet delta, a JSON delta and @colyseus/schema
# (scripts/delta-lab/colyseus.mjs), sized raw and through a streaming deflate
# (scripts/delta-lab/sizes.py), plus the encode cost. Prints its Markdown section.
#
#   DELTA_LAB_SEEDS="1 2 3 4 5"  DELTA_LAB_TICKS=1200  (the defaults)
#   scripts/bench.d/40-delta-lab.sh --smoke   one seed, 40 ticks, debug build, no timing,
#                                             every Colyseus client decoded and checked
set -euo pipefail
cd "$(dirname "$0")/../.."
smoke=
[ "${1:-}" = --smoke ] && smoke=1
lab=scripts/delta-lab
if [ -n "$smoke" ]; then
  seeds=1 ticks=40 checked=50
  # The workspace's features, as `cargo test --workspace --all-targets` builds them: in the
  # test command the binary is already built.
  cargo build -q --locked --workspace --all-targets
  bin=target/debug/delta-lab
else
  seeds=${DELTA_LAB_SEEDS:-"1 2 3 4 5"} ticks=${DELTA_LAB_TICKS:-1200} checked=5
  cargo build -q --locked --release -p delta-lab
  bin=target/release/delta-lab
fi
(cd "$lab" && { [ -d node_modules/@colyseus/schema ] || npm ci --no-audit --no-fund >&2; })
mkdir -p target
dir=$(mktemp -d target/delta-lab.XXXXXX)
trap 'rm -rf "$dir"' EXIT
for s in $seeds; do
  echo "delta-lab: seed $s, $ticks ticks" >&2
  "$bin" record --seed "$s" --ticks "$ticks" >"$dir/t.jsonl"
  node "$lab/colyseus.mjs" "$dir/t.jsonl" "$dir/colyseus.bin" --check "$checked"
  "$bin" frames "$dir/t.jsonl" --parts "$dir/parts-$s.json" |
    python3 "$lab/sizes.py" - "$dir/colyseus.bin" >"$dir/sizes-$s.json"
  [ -n "$smoke" ] || nice -n 19 "$bin" time "$dir/t.jsonl" >"$dir/time-$s.json"
  rm -f "$dir/t.jsonl" "$dir/colyseus.bin"
done
# shellcheck disable=SC2086
python3 "$lab/report.py" "$dir" $seeds ${smoke:+--smoke}

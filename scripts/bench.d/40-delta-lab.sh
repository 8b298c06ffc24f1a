#!/usr/bin/env bash
# The delta-snapshot lab: recorded village trajectories (examples/delta-lab), every client's
# messages as a full compact snapshot, a tuplet delta, a JSON delta and @colyseus/schema
# (scripts/delta-lab/colyseus.mjs), sized raw and through a streaming deflate
# (scripts/delta-lab/sizes.py), plus the encode cost. Prints its Markdown section.
#
#   DELTA_LAB_SEEDS="1 2 3 4 5"  DELTA_LAB_TICKS=1200  DELTA_LAB_JOBS=1  (the defaults)
#   scripts/bench.d/40-delta-lab.sh --smoke   one seed, 40 ticks, debug build, no timing,
#                                             every Colyseus client decoded and checked
set -euo pipefail
cd "$(dirname "$0")/../.."
smoke=
[ "${1:-}" = --smoke ] && smoke=1
lab=scripts/delta-lab
if [ -n "$smoke" ]; then
  seeds=1 ticks=40 checked=50
  # Exactly what `cargo test --workspace --all-targets` builds (the binary, for
  # delta-lab's own tests, with the workspace's features): in the test command nothing is
  # left to build. (`cargo build --all-targets` would build other crates' binaries and
  # benches too, about a minute on a clean clone.)
  cargo test -q --locked --workspace --all-targets --no-run
  bin=target/debug/delta-lab
else
  seeds=${DELTA_LAB_SEEDS:-"1 2 3 4 5"} ticks=${DELTA_LAB_TICKS:-1200} checked=5
  cargo build -q --locked --release -p delta-lab
  bin=target/release/delta-lab
fi
# npm ci when node_modules is missing or older than the lock (after a pinned peer moves).
(cd "$lab" && { [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund >&2; })
mkdir -p target
dir=$(mktemp -d target/delta-lab.XXXXXX)
trap 'rm -rf "$dir"' EXIT
seed() {
  local s=$1 d="$dir/$1"
  mkdir -p "$d"
  echo "delta-lab: seed $s, $ticks ticks" >&2
  "$bin" record --seed "$s" --ticks "$ticks" >"$d/t.jsonl"
  node "$lab/colyseus.mjs" "$d/t.jsonl" "$d/colyseus.bin" --check "$checked"
  "$bin" frames "$d/t.jsonl" --parts "$dir/parts-$s.json" |
    python3 "$lab/sizes.py" - "$d/colyseus.bin" >"$dir/sizes-$s.json"
  rm -f "$d/colyseus.bin"
}
# The seeds' sizes run side by side (DELTA_LAB_JOBS at a time), the timings one at a time after.
jobs=${DELTA_LAB_JOBS:-1}
for s in $seeds; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  seed "$s" &
done
while [ -n "$(jobs -rp)" ]; do wait -n; done
for s in $seeds; do
  [ -n "$smoke" ] || nice -n 19 "$bin" time "$dir/$s/t.jsonl" >"$dir/time-$s.json"
  rm -rf "${dir:?}/$s"
done
# shellcheck disable=SC2086
python3 "$lab/report.py" "$dir" $seeds ${smoke:+--smoke}

#!/usr/bin/env bash
# `tuplet gen` (release build) on the village and on a synthetic schema ten times its size:
# wall time and peak memory (GNU time's maximum resident set size). Both schemas come from
# scripts/bench.d/synth_schema.py (1 copy and 10 renamed copies of the village's modules),
# each generated into empty output folders; runs alternate, medians of 11. The folders are on
# tmpfs (/dev/shm) when the machine has it: on this VM's disk, creating a file costs about
# 0.6 ms of kernel time and swings 3x from run to run, which measured the disk, not the tool.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build -q --release -p tuplet-codegen >&2
bin=$PWD/target/release/tuplet
if [ -d /dev/shm ] && [ -w /dev/shm ]; then work=$(mktemp -d -p /dev/shm); where="tmpfs"; else work=$(mktemp -d); where="disk"; fi
trap 'rm -rf "$work"' EXIT
for n in 1 10; do
  python3 scripts/bench.d/synth_schema.py examples/village "$work/x$n" "$n"
done
runs=${RUNS:-11}
for i in $(seq "$runs"); do
  for n in 1 10; do
    rm -rf "$work/x$n/out"
    # Wall time at microsecond resolution (GNU time's is 10 ms, a seventh of the village's
    # run); GNU time for the peak resident set.
    start=$(date +%s%N)
    (cd "$work/x$n" && /usr/bin/time -f "%M" -o "$work/mem" "$bin" gen >/dev/null 2>"$work/log") ||
      { cat "$work/log" >&2; exit 1; }
    end=$(date +%s%N)
    echo "$n $(( (end - start) / 1000 )) $(cat "$work/mem")" >>"$work/times"
  done
  echo "gen: round $i of $runs" >&2
done
items() { (cd "$work/x$1" && "$bin" gen 2>&1 | sed -n 's/.*: \([0-9]*\) item(s).*/\1/p'); }
python3 - "$work/times" "$(items 1)" "$(items 10)" "$(wc -l < <(cat examples/village/src/*.rs examples/village/src/*/*.rs))" "$where" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
items = {1: sys.argv[2], 10: sys.argv[3]}
lines = int(sys.argv[4])
def stat(n):
    t = [int(r[1]) / 1e6 for r in rows if r[0] == str(n)]
    m = [int(r[2]) for r in rows if r[0] == str(n)]
    return statistics.median(t), min(t), max(t), statistics.median(m)
v, s = stat(1), stat(10)
print("## `tuplet gen` on a large schema\n")
print("`tuplet gen` (release build) writing the JSON Schemas and the TypeScript package into empty")
print(f"folders on {sys.argv[5]}, for the village and for a synthetic schema of ten renamed copies of it")
print("(`scripts/bench.d/synth_schema.py`). Wall time, and peak resident memory from GNU time;")
print(f"medians of {len(rows) // 2} alternating runs (min–max in brackets).")
if sys.argv[5] == "tmpfs":
    print("The folders are on tmpfs because creating a file on this VM's disk costs about 0.6 ms of")
    print("kernel time and swings 3x between runs: on disk the ten-times schema's 3,684 files")
    print("measured the disk, not `tuplet gen`.")
print()
print("| schema | items | source lines | wall time s | peak memory MB |")
print("|---|---:|---:|---:|---:|")
print(f"| village | {items[1]} | {lines} | {v[0]:.2f} ({v[1]:.2f}–{v[2]:.2f}) | {v[3] / 1024:.0f} |")
print(f"| ten times the village | {items[10]} | {10 * lines} | {s[0]:.2f} ({s[1]:.2f}–{s[2]:.2f}) | {s[3] / 1024:.0f} |")
ratio = s[0] / v[0]
print(f"\nTime ratio: **{ratio:.1f}x** for ten times the schema (target ≤ 11x: {'met' if ratio <= 11 else 'not met'}); "
      f"memory ratio {s[3] / v[3]:.1f}x.")
PY

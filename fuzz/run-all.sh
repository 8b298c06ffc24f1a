#!/usr/bin/env bash
# Fuzzes each target in turn (one at a time, at the lowest priority) for SECONDS seconds
# (default 600) and keeps libFuzzer's closing stats in stats/TARGET.txt. Each run starts from
# the committed corpus (corpus/TARGET.b64, unpacked into work/TARGET by fuzz/corpus.py) and
# packs what it found back into it; run fuzz/minimize.sh before committing the corpora.
# Usage: fuzz/run-all.sh [SECONDS] [TARGET...]   (needs nightly and cargo-fuzz)
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(decode_village ircodec_agrees envelope_c2s envelope_s2c named_shape decode_input lock_file source_loader)
fi
# The largest input: 4096 bytes, but whole village source files (up to 24 KB) for the loader.
max_len() { if [ "$1" = source_loader ]; then echo 32768; else echo 4096; fi; }
# The lines of a run's log worth keeping: seed, corpus at start and end, runs, final stats.
stats() {
  echo "target: $1, $(date -u +%Y-%m-%d), max_total_time=$secs, max_len=$(max_len "$1")"
  grep -E "^INFO: Seed|seed corpus|INITED|DONE|^Done [0-9]+ runs|^stat::|ERROR|crash-" "$2" || true
}

mkdir -p stats
for t in "${targets[@]}"; do
  rm -rf "work/$t"
  if [ -f "corpus/$t.b64" ]; then ./corpus.py unpack "$t" "work/$t" >/dev/null; else mkdir -p "work/$t"; fi
  nice -n 19 cargo +nightly fuzz build -O "$t"
  log=$(mktemp)
  nice -n 19 cargo +nightly fuzz run -O "$t" "work/$t" -- -max_total_time="$secs" -max_len="$(max_len "$t")" \
    -print_final_stats=1 -rss_limit_mb=2048 -timeout=10 >"$log" 2>&1 || { tail -50 "$log"; exit 1; }
  stats "$t" "$log" >"stats/$t.txt"
  rm -f "$log"
  ./corpus.py pack "work/$t" "$t"
  rm -rf "work/$t"
done

#!/usr/bin/env bash
# Minimizes every fuzz target's committed corpus with `cargo fuzz cmin`: the smallest set of
# inputs that keeps the coverage edges of the whole corpus. Edges only (-use_counters=0: hit
# counts not kept apart) and a set cover (-set_cover_merge=1). Each corpus is unpacked from
# corpus/TARGET.b64 into work/TARGET, minimized there and packed back (fuzz/corpus.py); the
# stable replay (tests/tests/fuzz_corpus.rs) reads the packed files.
# Usage: fuzz/minimize.sh [TARGET...]   (needs nightly and cargo-fuzz; builds into
# fuzz/target, which is large: remove it afterwards)
set -euo pipefail
cd "$(dirname "$0")"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(decode_village ircodec_agrees envelope_c2s envelope_s2c named_shape decode_input lock_file source_loader)
fi
nice -n 19 cargo +nightly fuzz build -O
for t in "${targets[@]}"; do
  rm -rf "work/$t"
  before=$(./corpus.py unpack "$t" "work/$t" | awk '{print $2}')
  log=$(mktemp)
  nice -n 19 cargo +nightly fuzz cmin -O "$t" "work/$t" -- \
    -use_counters=0 -set_cover_merge=1 -rss_limit_mb=2048 -timeout=30 >"$log" 2>&1 \
    || { tail -30 "$log"; exit 1; }
  rm -f "$log"
  after=$(./corpus.py pack "work/$t" "$t" | awk '{print $2}')
  rm -rf "work/$t"
  echo "$t: $before -> $after inputs"
done

#!/usr/bin/env bash
# Minimizes every fuzz target's committed corpus in place with `cargo fuzz cmin`: the
# smallest set of inputs that keeps the coverage edges of the whole corpus. Edges only
# (-use_counters=0: hit counts not kept apart) and a set cover (-set_cover_merge=1), so the
# committed corpora stay small; the stable replay (tests/tests/fuzz_corpus.rs) runs them all.
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
  before=$(find "corpus/$t" -type f | wc -l)
  log=$(mktemp)
  nice -n 19 cargo +nightly fuzz cmin -O "$t" "corpus/$t" -- \
    -use_counters=0 -set_cover_merge=1 -rss_limit_mb=2048 -timeout=30 >"$log" 2>&1 \
    || { tail -30 "$log"; exit 1; }
  rm -f "$log"
  echo "$t: $before -> $(find "corpus/$t" -type f | wc -l) inputs"
done

#!/usr/bin/env bash
# Clean build time of the village crate with tuplet's derives against the same types with
# serde's derives only. Dependencies are built first and not counted: each timing is the
# crate alone (`cargo clean -p`), dev profile, median of 3. Usage: build-time.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
twin="$root/target/village-serde"
rm -rf "$twin/src"
python3 "$here/scripts/serde_twin.py" "$twin"
cp "$root/Cargo.lock" "$twin/Cargo.lock" 2>/dev/null || true

time_one() { # dir package
  local dir=$1 pkg=$2 t
  (cd "$dir" && cargo build -q -p "$pkg" >/dev/null 2>&1)
  for _ in 1 2 3; do
    (cd "$dir" && cargo clean -q -p "$pkg")
    local start=$(date +%s.%N)
    (cd "$dir" && cargo build -q -p "$pkg")
    python3 -c "print($(date +%s.%N) - $start)"
  done | sort -n | sed -n 2p
}

tuplet=$(time_one "$root" village)
serde=$(time_one "$twin" village-serde)
python3 -c "t, s = $tuplet, $serde; print(f'village with tuplet derives: {t:.1f} s\nsame types, serde derives:   {s:.1f} s\nratio: {t / s:.2f}x')"

#!/usr/bin/env bash
# Rust codecs against real peers (rmp-serde, serde_json, bitcode, hand-written rmp).
set -euo pipefail
cargo bench -q -p tuplet-tests --bench peers 2>/dev/null | sed -n '/^player:move/,$p' | sed '1i ## Rust codecs against peers\n'

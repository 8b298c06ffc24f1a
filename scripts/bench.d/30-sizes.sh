#!/usr/bin/env bash
# Sizes per dataset of tests/benches/peers.rs: every encoding, raw and after deflate (raw
# DEFLATE at zlib's default level 6, as WebSocket permessage-deflate sends it; each message
# compressed alone, no context takeover).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(scripts/bench.d/peers-bin)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin" --dump "$dir" >&2
python3 - "$dir" <<'PY'
import os, sys, zlib
root = sys.argv[1]
titles = {
    "move": "player:move (relayed, 10 Hz per player)",
    "birds": "birds:stream (80 birds, 5 Hz)",
    "snapshot": "world:snapshot (50 entities, full)",
}
order = [
    ("tuplet_compact", "tuplet compact"),
    ("tuplet_named_(field_names_as_keys)", "tuplet named (field names as keys)"),
    ("rmp-serde_tuple", "rmp-serde tuple (raw f32)"),
    ("rmp-serde_map", "rmp-serde map (raw f32)"),
    ("serde_json", "JSON (serde_json, raw f32)"),
    ("bitcode_(not_msgpack;_size_reference)", "bitcode (not msgpack, raw f32)"),
]
def deflate(b):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return len(c.compress(b) + c.flush())
print("## Sizes\n")
print("Bytes of one message per dataset of `tests/benches/peers.rs`, raw and after deflate (raw")
print("DEFLATE, zlib level 6, each message alone as permessage-deflate without context")
print("takeover sends it). The hand-written codecs write tuplet compact's bytes exactly.")
for key in ["move", "birds", "snapshot"]:
    print(f"\n### {titles[key]}\n")
    print("| encoding | bytes | x compact | deflated | x compact deflated |")
    print("|---|---:|---:|---:|---:|")
    base = open(os.path.join(root, key, order[0][0]), "rb").read()
    b0, d0 = len(base), deflate(base)
    for file, name in order:
        b = open(os.path.join(root, key, file), "rb").read()
        d = deflate(b)
        print(f"| {name} | {len(b)} | {len(b) / b0:.2f} | {d} | {d / d0:.2f} |")
PY

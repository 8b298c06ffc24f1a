#!/usr/bin/env bash
# The generated TypeScript codecs against msgpackr, @msgpack/msgpack and Zod 4 (tests/ts/bench).
# A row that breaks a standing rule is marked **flagged** in the section and reported on stderr.
set -euo pipefail
cd tests/ts
[ -d node_modules ] || npm ci --no-audit --no-fund >&2
npm run -s build >&2
out=$(nice -n 19 node --expose-gc build/tests/ts/bench/bench.js)
echo "$out"
# The standing rule: tuplet no slower than msgpackr `unpack` / `pack` (and the Zod targets).
if echo "$out" | grep -q '\*\*flagged\*\*'; then
  echo "ts-peers: FLAGGED: $(echo "$out" | grep -c '\*\*flagged\*\*') row(s) break a standing rule" >&2
fi

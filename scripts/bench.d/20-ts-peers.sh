#!/usr/bin/env bash
# The generated TypeScript codecs against msgpackr, @msgpack/msgpack and Zod 4 (tests/ts/bench).
set -euo pipefail
cd tests/ts
[ -d node_modules ] || npm ci --no-audit --no-fund >&2
npm run -s build >&2
nice -n 19 node --expose-gc build/tests/ts/bench/bench.js

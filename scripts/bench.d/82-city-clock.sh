#!/usr/bin/env bash
# The city's render clock: examples/city-worker/lab/clock_lab.ts replays the Worker's recorded
# world:snapshot stream (lab/traces/city-snapshots.json) over the city game's links to a 60 fps
# watcher, with the city's original snapping clock and with the runtime's RenderClock, 6 seeds
# per link; prints its section (deterministic: no timing, a few seconds). A new recording from
# workerd: `node build/clock_lab.mjs --record lab/traces/city-snapshots.json` (40 s).
set -euo pipefail
cd "$(dirname "$0")/../../examples/city-worker"
[ -d node_modules ] || npm ci --no-audit --no-fund >&2
npm run -s build >&2
node build/clock_lab.mjs

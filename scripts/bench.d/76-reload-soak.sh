#!/usr/bin/env bash
# The reload soak (examples/village-server/tests/soak.rs): SOAK_BOTS (200) signed-in bots
# in rooms of 40 walk and reload at random for SOAK_SECS (60) s against a server saving
# to SQLite (a resume inside the grace window, a join before the old tab's close, a leave
# and a fresh join), then the server restarts on the same file and every bot rejoins.
# Release build, one run (the row is counts, which must be 0, not timings).
set -euo pipefail
echo "reload soak: ${SOAK_BOTS:-200} bots, ${SOAK_SECS:-60} s" >&2
out=$(cargo test -q --release -p village-server --test soak -- --ignored --nocapture reload_soak 2>&1 \
  | grep '^|' || true)
load=$(cut -d' ' -f1 /proc/loadavg)
cat <<MD
## Sessions under reloads

\`scripts/bench reload-soak\`: ${SOAK_BOTS:-200} signed-in bots in rooms of 40, each walking
and reloading at random for ${SOAK_SECS:-60} s (a resume within the grace window, a join
before the old tab's close, or a leave and a fresh join), against a release build saving
to SQLite; then a restart on the same file and every bot rejoining. A position is lost when
a rejoin does not start exactly where the bot last was; a save is skipped when a session
ended without its state reaching the store. Load average ${load} at the end, 2-core machine.

${out}
MD

#!/usr/bin/env bash
# The village crate's clean build (dev profile, the crate alone) with tuplet's derives against
# a twin of the same types with serde's derives only: examples/village/scripts/build-time.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(examples/village/scripts/build-time.sh)
echo "$out" >&2
ratio=$(echo "$out" | sed -n 's/^ratio: \([0-9.]*\)x$/\1/p')
cat <<MD
## Build time of the derives

\`examples/village/scripts/build-time.sh\`: a clean dev build of the village crate alone
(dependencies built first and not counted; \`cargo clean -p\`, median of 3) with tuplet's
derives, against a generated twin with the same types and serde's derives only
(\`examples/village/scripts/serde_twin.py\`).

\`\`\`text
$out
\`\`\`

Target: at most 1.3x the serde-only twin: $(python3 -c "print('met' if $ratio <= 1.3 else 'not met')").
MD

#!/usr/bin/env bash
# Bundle cost of the generated TypeScript package (esbuild, minified + gzipped), against its
# targets: tests/ts/scripts/bundle-size.mjs, which `npm test` also runs (failing above the ceilings).
set -euo pipefail
cd tests/ts
[ -d node_modules ] || npm ci --no-audit --no-fund >&2
echo "## TypeScript bundle size"
echo
echo "What a frontend ships: esbuild (bundle, minify, ESM, es2022) on one entry importing from the"
echo "generated village package, gzipped at level 9; tree-shaking keeps only what the entry"
echo "reaches. The page rows are tests/ts/strict/app/page.ts, which names the 14 messages it sends"
echo "and reads (\`c2sOnly\`, \`s2cOnly\`), and main.ts, which takes whole directions. Run by"
echo "\`npm test\` in tests/ts too, which fails above each row's ceiling (the size reached, plus a"
echo "little) and when the 14-message page holds any other codec; \`node scripts/bundle-size.mjs"
echo "--targets\` fails above the targets."
echo
node scripts/bundle-size.mjs

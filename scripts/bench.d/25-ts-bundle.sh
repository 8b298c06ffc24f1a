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
echo "reaches. Run by \`npm test\` in tests/ts too, which fails above each row's ceiling (the size"
echo "reached, plus a little); \`node scripts/bundle-size.mjs --targets\` fails above the targets."
echo
node scripts/bundle-size.mjs

// Bundle cost of the generated package: minified + gzipped size, with
// esbuild, of one message's codec imported alone (tree-shaking: the rest of the package must
// drop out), of one direction with the dispatcher, and of the whole package. Prints a table
// (quoted in README.md, "TypeScript package") and fails when tree-shaking does not work.
//
//   node scripts/bundle-size.mjs          (run by `npm test` in tests/ts)

import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const pkg = join(root, "generated", "ts", "src");

const cases = [
  ["one codec: `import { PlayerMoveCodec }` (encode + decode + validate)", `import { PlayerMoveCodec } from "./index.ts"; export const out = PlayerMoveCodec;`],
  ["one codec's decode only: `PlayerMoveCodec.decode`", `import { PlayerMoveCodec } from "./index.ts"; export const decode = (b) => PlayerMoveCodec.decode(b);`],
  ["c2s direction + createDispatcher + send (145 messages)", `import { c2s, createDispatcher, send } from "./index.ts"; export { c2s, createDispatcher, send };`],
  ["s2c direction + createDispatcher (159 messages)", `import { s2c, createDispatcher } from "./index.ts"; export { s2c, createDispatcher };`],
  ["the whole package: `export * from` index", `export * from "./index.ts";`],
];

async function size(contents) {
  const result = await build({
    stdin: { contents, resolveDir: pkg, sourcefile: "entry.ts", loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const bytes = result.outputFiles[0].contents;
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

const rows = [];
for (const [what, contents] of cases) rows.push({ what, ...(await size(contents)) });

const kb = (n) => (n / 1024).toFixed(1) + " KiB";
console.log("| bundle (esbuild, minified) | minified | gzipped |");
console.log("|---|---:|---:|");
for (const r of rows) console.log(`| ${r.what} | ${kb(r.min)} | ${kb(r.gzip)} |`);

const one = rows[0];
const whole = rows[rows.length - 1];
if (!(one.gzip * 10 < whole.gzip)) {
  console.error(`tree-shaking failed: one codec is ${one.gzip} B gzipped, the whole package ${whole.gzip} B`);
  process.exit(1);
}
console.log(`\none codec alone is ${(whole.gzip / one.gzip).toFixed(0)}x smaller than the whole package (gzipped)`);

// The minimum ES target of the generated package: ES2020 (bigint literals, `BigInt`, the
// ES2020 library). Checks, each failing the run:
//   1. its sources type-check against ES2020's library alone (strict/tsconfig.es2020.json, by
//      TypeScript 7): they call nothing newer, and nothing of the DOM or Node;
//   2. esbuild bundles the whole package at target es2020 with no warning;
//   3. at es2019 esbuild warns about bigint literals: a lower target is unsupported (this
//      proves check 2 can fail; docs/frontend.md says so).
//
//   node scripts/es-target.mjs   (run by `npm test` in tests/ts)

import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(here, "..", "..", "generated", "ts", "src");

execFileSync(process.execPath, [join(here, "node_modules", "typescript7", "bin", "tsc"), "-p", join(here, "strict", "tsconfig.es2020.json")], { stdio: "inherit" });

async function warnings(target) {
  const r = await build({
    stdin: { contents: 'export * from "./index.ts";', resolveDir: pkg, sourcefile: "entry.ts", loader: "ts" },
    bundle: true,
    format: "esm",
    target,
    write: false,
    logLevel: "silent",
  });
  return r.warnings.map((w) => w.text);
}

const at2020 = await warnings("es2020");
if (at2020.length > 0) {
  console.error(`the package bundled at es2020 gives ${at2020.length} warnings: ${at2020.slice(0, 3).join("; ")}`);
  process.exit(1);
}
const at2019 = await warnings("es2019");
if (at2019.length === 0 || !at2019.every((w) => w.startsWith("Big integer literals are not available"))) {
  console.error(`expected only bigint-literal warnings at es2019, got ${at2019.length}: ${at2019.slice(0, 3).join("; ")}`);
  process.exit(1);
}
console.log(`ES target: the package type-checks against the ES2020 library alone and bundles at es2020 with no warning; es2019 gives ${at2019.length} bigint-literal warnings (unsupported)`);

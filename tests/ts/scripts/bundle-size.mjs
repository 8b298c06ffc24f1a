// Bundle cost of the generated package: minified + gzipped size, with
// esbuild, of one message's codec imported alone (tree-shaking: the rest of the package must
// drop out), of a page naming the 14 messages it uses (strict/app/page.ts: `c2sOnly`,
// `s2cOnly`), of a page taking whole directions (strict/app/main.ts), of one direction with
// the dispatcher, and of the whole package, and the size of the generated source. Prints a
// table (BENCHMARKS.md quotes it) and fails when tree-shaking does not work (another message's
// codec in one codec's bundle or in the 14-message page's) or a size is over its ceiling.
//
// Each row has a target (the size the package aims at) and a ceiling (the size it has reached,
// plus a little: it must not grow back; lower the ceiling when the package shrinks). The
// default run fails above a ceiling and reports each target met or not; `--targets` fails
// above a target.
//
//   node scripts/bundle-size.mjs [--targets]   (run by `npm test` in tests/ts)

import { build } from "esbuild";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = join(dirname(fileURLToPath(import.meta.url)), "..");
const root = join(here, "..", "..");
const pkg = join(root, "generated", "ts", "src");
const page = join(here, "strict", "app", "page.ts");

const KiB = 1024;
const MB = 1000 * 1000;

// [what, entry, target, ceiling] (gzipped bytes).
const cases = [
  ["one codec: `import { PlayerMoveCodec }` (encode + decode + validate)", `import { PlayerMoveCodec } from "./index.ts"; export const out = PlayerMoveCodec;`, 4 * KiB, 8.9 * KiB],
  ["one codec's decode only: `PlayerMoveCodec.decode`", `import { PlayerMoveCodec } from "./index.ts"; export const decode = (b) => PlayerMoveCodec.decode(b);`, undefined, 8.9 * KiB],
  ["a page naming its 14 messages: `c2sOnly([6 codecs])`, `s2cOnly([8 codecs])`, dispatcher, `send` (strict/app/page.ts)", { file: page }, 20 * KiB, 18.6 * KiB],
  ["a page taking whole directions: `createDispatcher(s2c, …)`, `send(c2s, …)` (strict/app/main.ts)", { file: join(here, "strict", "app", "main.ts") }, undefined, 43.6 * KiB],
  ["c2s direction + createDispatcher + send (145 messages)", `import { c2s, createDispatcher, send } from "./index.ts"; export { c2s, createDispatcher, send };`, 25 * KiB, 23.8 * KiB], // 23.7 before InputFrame's `view` and `ahead` (issue 52); 23.3 before the valid names in unknown_variant, missing_field in validate and the dispatcher's `others` (issue 42); 24.5 while it held the unused delta tables (issue 28)
  ["s2c direction + createDispatcher (159 messages)", `import { s2c, createDispatcher } from "./index.ts"; export { s2c, createDispatcher };`, undefined, 33.4 * KiB], // 33.0 before the acknowledged mode of its Mirror (issue 55); 32.4 before issue 42's error texts and `others`; 30.8 before its dispatcher held a Mirror per delta message (issue 28)
  ["the whole package: `export * from` index", `export * from "./index.ts";`, 60 * KiB, 51.5 * KiB], // 50.0 before transport.ts (`connect`, issue 55); 49.0 before `EntityRows` (issue 43, the city's shared quantization); 48.0 before the netcode runtime's exports, strictly typed (issues 38, 40); 47.4 before createServerDispatcher (issue 43); 46.3 before issue 42 (`c2sOnly`, `s2cOnly` and their id lists, the error texts); 44.9 before `X$numbers` (issue 28); 45.5 before the Tracker's packed key sort (issue 30); 45.7 before `TAG_MAX` (issue 27) and delta dispatch (issue 28)
];

/** Bundles an entry: source text importing "./index.ts" of the package, or `{ file }`, a page importing "village-protocol". */
async function size(entry) {
  const input = typeof entry === "string" ? { stdin: { contents: entry, resolveDir: pkg, sourcefile: "entry.ts", loader: "ts" } } : { entryPoints: [entry.file] };
  const result = await build({
    ...input,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const bytes = result.outputFiles[0].contents;
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, text: new TextDecoder().decode(bytes) };
}

/** Bytes of every file under `dir`, but tuplet's bookkeeping (`.tuplet-manifest`, dot files). */
function sourceBytes(dir) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith(".")) continue;
    const p = join(dir, e.name);
    n += e.isDirectory() ? sourceBytes(p) : statSync(p).size;
  }
  return n;
}

const rows = [];
for (const [what, contents, target, ceiling] of cases) rows.push({ what, target, ceiling, ...(await size(contents)) });

const kb = (n) => (n / KiB).toFixed(1) + " KiB";
const goal = (n, target) => (target === undefined ? "" : `${kb(target)}: ${n <= target ? "met" : "not met"}`);
console.log("| bundle (esbuild, minified) | minified | gzipped | target (gzipped) |");
console.log("|---|---:|---:|---|");
for (const r of rows) console.log(`| ${r.what} | ${kb(r.min)} | ${kb(r.gzip)} | ${goal(r.gzip, r.target)} |`);
const source = sourceBytes(join(root, "generated", "ts"));
const sourceTarget = 1 * MB;
const sourceCeiling = 0.878 * MB; // 0.876 before the render clock's steady loop beside its fast one (fastShare: 877,365 B); 0.872 before the ring thinned out instead of dropping a sample the drawing still needs (makeRoom, thinAt, middleTangent: 873,956 B); 0.866 before the curve's end tangent and ramps at stops (endTangent, rampShare: 867,354 B); 0.863 before the interpolator wrote its angle wraps and secants in place (no garbage: wrapAngleAt, secantInto); 0.852 before the interpolator's silences and eased resync (858,553 B) and its split into interp, interp_ring and interp_draw, each with its header and imports (+3.6 KB); 0.850 before reader.ts split into three files, each with its header and imports (issue 51); 0.835 before the netcode runtime's split into settings, timing, pool and curves with the sender-rate estimate (issue 50); 0.820 before transport.ts (issue 55) and InputFrame's `view` and `ahead` (issue 52); 0.800 before predict.ts, rewind.ts and offset.ts (issue 52); 0.790 before the delta runtime's acknowledged mode and its split into six files (issue 55); 0.785 before `EntityRows` (issue 43); 0.775 before the strict netcode runtime and chat:message's guest (issues 38, 41); 0.770 before createServerDispatcher (issue 43); 0.745 before playout.ts and reconcile.ts (issue 40); 0.715 before the netcode runtime, interp.ts, render_clock.ts, easing.ts (issue 38); 0.675 before the codecs' written-out types (`isolatedDeclarations`) and `C2sCodec`, `S2cCodec` (issue 42); 0.646 before `X$numbers` (issue 28); 0.654 before the Tracker's packed key sort (issue 30); 0.656 before `vFlag` (issue 28); 0.658 before delta dispatch (issue 28)
const mb = (n) => (n / MB).toFixed(2) + " MB";
console.log(`\n\`generated/ts\` source: ${mb(source)} (target ${mb(sourceTarget)}: ${source <= sourceTarget ? "met" : "not met"})`);

const strict = process.argv.includes("--targets");
const over = [];
for (const r of [...rows, { what: "generated/ts source", gzip: source, target: sourceTarget, ceiling: sourceCeiling }]) {
  const limit = strict ? r.target : r.ceiling;
  if (limit !== undefined && r.gzip > limit) over.push(`${r.what}: ${r.gzip} B over its ${strict ? "target" : "ceiling"} of ${Math.round(limit)} B`);
}
if (over.length > 0) {
  console.error(over.join("\n"));
  process.exit(1);
}

// Tree-shaking: one codec's bundle holds no other message (every codec names its message),
// and is several times smaller than the whole package (4x: one codec is mostly runtime, and
// `[ts] hot` took the whole package down to 45 KiB).
const one = rows[0];
const whole = rows[rows.length - 1];
const names = new Set();
for (const f of readdirSync(pkg, { recursive: true })) {
  if (!String(f).endsWith(".ts") || String(f).startsWith("runtime")) continue;
  for (const m of readFileSync(join(pkg, String(f)), "utf8").matchAll(/codec\("([^"]+)", \d+, /g)) names.add(m[1]);
}
const others = [...names].filter((n) => n !== "player:move" && one.text.includes(JSON.stringify(n)));
if (names.size < 100 || others.length > 0 || !(one.gzip * 4 < whole.gzip)) {
  console.error(`tree-shaking failed: one codec is ${one.gzip} B gzipped, the whole package ${whole.gzip} B; other messages in it: ${others.slice(0, 5).join(", ") || "none"} (of ${names.size})`);
  process.exit(1);
}
console.log(`\none codec alone is ${(whole.gzip / one.gzip).toFixed(0)}x smaller than the whole package (gzipped) and holds none of the other ${names.size - 1} messages`);

// The page naming 14 messages holds exactly their codecs: every codec's constant is built by
// `codec("name", id, ...)`, which minified is `x("name",id,`; the codecs the page imports
// (`XCodec`) are looked up in the package's declarations (`XCodec: MessageCodec<X, "name", id>`).
const declared = new Map();
for (const f of readdirSync(pkg, { recursive: true })) {
  if (!String(f).endsWith(".ts") || String(f).startsWith("runtime")) continue;
  for (const m of readFileSync(join(pkg, String(f)), "utf8").matchAll(/export const (\w+Codec): MessageCodec<\w+, "([^"]+)", (\d+)>/g)) declared.set(m[1], `${m[2]}#${m[3]}`);
}
const imports = /import \{([^}]*)\} from "village-protocol"/.exec(readFileSync(page, "utf8"))?.[1] ?? "";
const imported = [...imports.matchAll(/\b(\w+Codec)\b/g)].map((m) => m[1]);
const pageRow = rows[2];
const keys = new Set([...pageRow.text.matchAll(/"([^"\\]+)",(\d+),/g)].map((m) => `${m[1]}#${m[2]}`));
// Ids are per direction ("player:move" is 1 both ways), so a codec counts as bundled when its
// name and id are; one not imported that shares them with an imported one counts too (fails).
const bundled = [...declared].filter(([, k]) => keys.has(k)).map(([c]) => c);
const extra = bundled.filter((c) => !imported.includes(c));
const absent = imported.filter((c) => !bundled.includes(c));
if (imported.length !== 14 || declared.size < 200 || extra.length > 0 || absent.length > 0) {
  console.error(`the 14-message page: ${imported.length} codecs imported, ${bundled.length} in its bundle; not named but bundled: ${extra.slice(0, 8).join(", ") || "none"}; named but missing: ${absent.join(", ") || "none"} (of ${declared.size})`);
  process.exit(1);
}
console.log(`\nthe page naming ${imported.length} messages bundles exactly their ${bundled.length} codecs, none of the other ${declared.size - bundled.length}: ${(whole.gzip / pageRow.gzip).toFixed(1)}x smaller than the whole package, ${(rows[3].gzip / pageRow.gzip).toFixed(1)}x smaller than a page on whole directions (gzipped)`);

// Browser test of the generated TypeScript package (generated/ts): the package runs in a real
// Chromium, not only in node.
//
// 1. esbuild (tests/ts's pinned copy, JS API) bundles page/entry.js with the generated
//    package for the browser.
// 2. A node:http server on 127.0.0.1 (random port), started and stopped here, serves
//    page/index.html and the bundle; playwright-core drives Debian's /usr/bin/chromium
//    headless (no browser download).
// 3. In the page: a sample of the Rust vectors (target/tuplet-vectors/{c2s,s2c}.json,
//    written by the Rust tests, which must have run first) decodes, validates and
//    re-encodes exactly as in Rust; invalid ones fail with Rust's code and path; a
//    WebSocket-free dispatch round trip through a MessageChannel; TextEncoder/TextDecoder
//    behaviour (emoji, lone surrogates as invalid_utf8).
// 4. node imports the very same bundle and runs the same checks: the page's answers must
//    equal node's, line for line, and disagree with Rust nowhere.
//
//   cd tests/ts && npm run test:browser     (scripts/test runs it, after the Rust tests)
//
// Environment: TUPLET_BROWSER_SAMPLE=N valid and N invalid vectors per direction (default
// 200; "all" for every vector), CHROMIUM=path (default /usr/bin/chromium).

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";

import { CHROMIUM, TIMEOUT, bundle as bundleOf, here, launch, open, root, serve, unserve } from "./harness.mjs";

const SAMPLE_ENV = process.env.TUPLET_BROWSER_SAMPLE ?? "200";
const SAMPLE = SAMPLE_ENV === "all" ? Infinity : Number(SAMPLE_ENV);
const DIRS = ["c2s", "s2c"];

/** `k` items of `xs`, evenly spaced (all when k >= length). */
function spread(xs, k) {
  if (k >= xs.length) return xs.slice();
  return Array.from({ length: k }, (_, i) => xs[Math.floor((i * xs.length) / k)]);
}

/** Groups `xs` by `key`, takes evenly spaced items round-robin across groups, `n` in all. */
function stratified(xs, key, n) {
  if (n >= xs.length) return xs.slice();
  const groups = new Map();
  for (const x of xs) {
    const k = key(x);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(x);
  }
  const quota = Math.ceil(n / groups.size);
  const picks = [...groups.values()].map((g) => spread(g, quota));
  const out = [];
  for (let i = 0; out.length < n; i++) {
    let any = false;
    for (const p of picks) {
      if (i < p.length && out.length < n) {
        out.push(p[i]);
        any = true;
      }
    }
    if (!any) break;
  }
  return out;
}

/** The vectors of both directions (the test fails when the Rust tests did not write them). */
function loadSample() {
  const out = {};
  for (const dir of DIRS) {
    const file = join(root, "target", "tuplet-vectors", `${dir}.json`);
    if (!existsSync(file)) {
      throw new Error(`${file} is missing: run the Rust tests first (scripts/test does: cargo test -p tuplet-tests --test vectors)`);
    }
    const { valid, invalid } = JSON.parse(readFileSync(file, "utf8"));
    assert.ok(valid.length > 0 && invalid.length > 0, `${file} has no vectors`);
    // Valid: one per message first, then evenly over the rest. Invalid: across every code.
    const valids = stratified(valid, (v) => v.message, SAMPLE);
    const invalids = stratified(invalid, (v) => v.code, SAMPLE);
    out[dir] = {
      valid: JSON.stringify(valids),
      invalid: JSON.stringify(invalids),
      counts: { valid: valids.length, invalid: invalids.length, allValid: valid.length, allInvalid: invalid.length },
    };
  }
  return out;
}

let sample;
let bundle;
let nodeSide;
let web;
let browser;
let page;
let tmp;
const pageErrors = [];

before(async () => {
  sample = loadSample();
  bundle = await bundleOf("entry.js");

  // node runs the very same bundle (imported from a temporary file).
  tmp = mkdtempSync(join(tmpdir(), "tuplet-browser-"));
  const file = join(tmp, "bundle.mjs");
  writeFileSync(file, bundle);
  nodeSide = await import(pathToFileURL(file).href);

  const html = readFileSync(join(here, "page", "index.html"));
  web = await serve({
    "/index.html": ["text/html; charset=utf-8", html],
    "/bundle.js": ["text/javascript; charset=utf-8", bundle],
  });
  browser = await launch();
  page = await open(browser, web.origin + "/", "tupletReady", pageErrors);
  const agent = await page.evaluate(() => globalThis.tupletBrowserTest.environment());
  console.log(`# browser: ${agent} (${CHROMIUM}, playwright-core, page at ${web.origin})`);
  console.log(`# bundle: ${(bundle.length / 1024).toFixed(0)} KiB (esbuild), node ${process.version} runs the same bundle`);
});

after(async () => {
  try {
    if (browser !== undefined) await browser.close();
  } finally {
    if (web !== undefined) await unserve(web.server);
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  }
});

/** Runs `name(...args)` of the bundle in the page and in node. */
async function both(name, ...args) {
  const inPage = await page.evaluate(([n, a]) => globalThis.tupletBrowserTest[n](...a), [name, args]);
  const inNode = await nodeSide[name](...args);
  return { inPage, inNode };
}

/** Asserts the page agreed with node line for line, and with Rust. */
function agree(what, { inPage, inNode }) {
  assert.equal(inPage.results.length, inNode.results.length, `${what}: result counts differ`);
  const differ = [];
  inPage.results.forEach((line, i) => {
    if (line !== inNode.results[i]) differ.push(`#${i}\n  chromium: ${line}\n  node:     ${inNode.results[i]}`);
  });
  assert.deepEqual(differ.slice(0, 10), [], `${what}: ${differ.length} results differ between Chromium and node`);
  assert.deepEqual(inPage.bad.slice(0, 20), [], `${what}: ${inPage.bad.length} disagreements with Rust in Chromium`);
  assert.deepEqual(inNode.bad.slice(0, 20), [], `${what}: ${inNode.bad.length} disagreements with Rust in node`);
}

for (const dir of DIRS) {
  test(`${dir}: valid vectors decode (both shapes), validate and re-encode in Chromium exactly as in Rust and node`, { timeout: 3 * TIMEOUT }, async () => {
    const r = await both("checkValid", dir, sample[dir].valid);
    agree(`${dir} valid`, r);
    assert.equal(r.inPage.count, sample[dir].counts.valid);
    console.log(
      `# ${dir}: ${r.inPage.count} of ${sample[dir].counts.allValid} valid vectors (${r.inPage.messages} messages) x 2 shapes in Chromium: 0 disagreements with Rust, 0 with node`,
    );
  });

  test(`${dir}: invalid vectors fail in Chromium with Rust's code and path, as in node`, { timeout: 3 * TIMEOUT }, async () => {
    const r = await both("checkInvalid", dir, sample[dir].invalid);
    agree(`${dir} invalid`, r);
    assert.equal(r.inPage.count, sample[dir].counts.invalid);
    console.log(
      `# ${dir}: ${r.inPage.count} of ${sample[dir].counts.allInvalid} invalid vectors (${r.inPage.codes} codes) in Chromium: 0 disagreements on code and path; ${r.inPage.sameMessage} with Rust's identical message`,
    );
  });

  test(`${dir}: dispatch round trip in Chromium (send -> MessageChannel -> createDispatcher), invalid input dropped with its path`, { timeout: 3 * TIMEOUT }, async () => {
    const { inPage, inNode } = await both("dispatchRoundTrip", dir, sample[dir].valid, sample[dir].invalid);
    assert.deepEqual(inPage.bad.slice(0, 20), [], `${inPage.bad.length} dispatch failures in Chromium`);
    assert.deepEqual(inNode.bad.slice(0, 20), [], `${inNode.bad.length} dispatch failures in node`);
    assert.deepEqual(inPage, inNode);
    assert.equal(inPage.frames, 2 * (sample[dir].counts.valid - inPage.skippedValid));
    assert.equal(inPage.handled, inPage.frames);
    assert.equal(inPage.dropped, sample[dir].counts.invalid - inPage.skippedInvalid);
    console.log(
      `# ${dir}: ${inPage.frames} envelopes (both shapes) through a MessageChannel to their handlers, ${inPage.payloads} Colyseus-style payloads, ${inPage.dropped} invalid envelopes dropped with Rust's code and path`,
    );
  });
}

test("strings in Chromium: TextEncoder/TextDecoder agree with the codecs; lone surrogates and ill-formed UTF-8 are invalid_utf8", { timeout: TIMEOUT }, async () => {
  const { inPage, inNode } = await both("utf8Checks");
  assert.deepEqual(inPage.bad, []);
  assert.deepEqual(inNode.bad, []);
  assert.equal(inPage.passed, inNode.passed);
  assert.ok(inPage.passed > 40, `only ${inPage.passed} string checks ran`);
  console.log(`# strings: ${inPage.passed} checks in Chromium`);
});

test("the page was served by the test's own server and raised no error", () => {
  assert.ok(web.served.includes("/") && web.served.includes("/bundle.js"), `served: ${web.served.join(", ")}`);
  assert.deepEqual(pageErrors, []);
});

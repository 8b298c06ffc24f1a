// A village client page, built from the generated package (esbuild), in headless Chromium
// against the Rust village server (examples/village-server) on loopback:
//
// 1. `cargo build -p village-server` (a no-op after scripts/test's cargo test), then the
//    server on 127.0.0.1 port 0 with three spawn points (the player at the origin, a bot
//    100 m east, an old-shape watcher beside the player) and a keyframe every 10 ticks.
// 2. page/village.js bundled by esbuild and served with page/village.html by a node:http
//    server; playwright-core drives Debian's /usr/bin/chromium.
// 3. In the page (page/village.js): join, watch the bot walk (every 3rd move at 100 m, the
//    first because the player had never seen it), move out of the map (a correction to the
//    player alone), keep the `world:snapshot` delta mirror (Mirror) tick for tick equal to
//    the whole snapshot the server sends the old-shape watcher, across keyframes, a
//    requested keyframe and a missed delta, and read the diagnostics.
//
//   cd tests/ts && npm run test:browser     (scripts/test runs it, after the Rust tests)

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";

import { TIMEOUT, bundle, here, launch, open, root, serve, unserve } from "./harness.mjs";

let server;
let web;
let browser;
let page;
let url;
const pageErrors = [];
const serverLog = [];

/** The key the server checks join tokens with (a fresh one per run). */
const KEY = `browser-test-${process.pid}-${Date.now()}`;

/** A join token from `village-server mint-token` (the player's has the admin claim: it reads the diagnostics). */
function mint(account, name, admin = false) {
  const bin = join(root, "target", "debug", "village-server");
  const args = ["mint-token", "--account", String(account), "--name", name, ...(admin ? ["--admin"] : [])];
  return execFileSync(bin, args, { env: { ...process.env, VILLAGE_TOKEN_KEY: KEY } }).toString().trim();
}

/** Starts the village server; resolves with its base URL (`ws://127.0.0.1:PORT/`). */
async function startServer() {
  execFileSync("cargo", ["build", "-q", "--locked", "-p", "village-server"], { cwd: root, stdio: "inherit" });
  const bin = join(root, "target", "debug", "village-server");
  const args = ["--addr", "127.0.0.1:0", "--spawn", "0,0,0", "--spawn", "100,0,0", "--spawn", "0,0,0", "--keyframe-every", "10"];
  server = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, VILLAGE_TOKEN_KEY: KEY } });
  server.stderr.on("data", (d) => serverLog.push(String(d)));
  const lines = createInterface({ input: server.stdout });
  return new Promise((resolve, reject) => {
    server.once("exit", (code) => reject(new Error(`village-server exited (${code}): ${serverLog.join("")}`)));
    lines.once("line", (line) => {
      const m = /listening on (ws:\/\/\S+)/.exec(line);
      if (m === null) reject(new Error(`village-server said: ${line}`));
      else resolve(m[1]);
    });
  });
}

before(async () => {
  url = (await startServer()) + "village";
  const js = await bundle("village.js");
  const html = readFileSync(join(here, "page", "village.html"));
  web = await serve({
    "/index.html": ["text/html; charset=utf-8", html],
    "/village.js": ["text/javascript; charset=utf-8", js],
  });
  browser = await launch();
  page = await open(browser, web.origin + "/", "villageReady", pageErrors);
  const agent = await page.evaluate(() => globalThis.villageTest.environment());
  console.log(`# browser: ${agent}; page ${(js.length / 1024).toFixed(0)} KiB (esbuild); server ${url}`);
});

after(async () => {
  try {
    if (browser !== undefined) await browser.close();
  } finally {
    if (web !== undefined) await unserve(web.server);
    if (server !== undefined && server.exitCode === null) server.kill();
  }
});

test("a village page in Chromium plays against the Rust server: strides, a correction, the delta mirror, diagnostics", { timeout: 2 * TIMEOUT }, async () => {
  const tokens = { browser: mint(1, "browser", true), bot: mint(2, "bot"), watcher: mint(3, "watcher") };
  const r = await page.evaluate(([u, t]) => globalThis.villageTest.play(u, t), [url, tokens]);
  assert.deepEqual(r.spawns, { player: [0, 0, 0], bot: [100, 0, 0], watcher: [0, 0, 0] });

  // The bot, 100 m away: every 3rd update, and the first (never seen before).
  const far = [1, ...Array.from({ length: 10 }, (_, i) => 3 * (i + 1))];
  assert.deepEqual(r.seen, far, "the player sees the bot's moves at the far stride");
  assert.deepEqual(r.watcherSeen, far, "the old-shape watcher too (named maps)");
  assert.deepEqual(r.botEcho, [], "no echo to the mover");

  // Out of the map: corrected back to the spawn, nothing relayed.
  assert.deepEqual(r.correction, { reason: "OutOfBounds", pos: [0, 0, 0], accepted_seq: 0 }, "out_of_bounds, back to the last accepted pose");
  assert.deepEqual(r.afterCorrection, [], "a rejected move is relayed to nobody");

  // The delta mirror equals the server's whole snapshot at every tick both hold.
  const s = r.snapshots;
  assert.deepEqual(s.mismatches, [], "mirror vs the server's state");
  assert.ok(s.compared >= 40, `${s.compared} ticks compared`);
  assert.ok(s.minEntities > 0, "NPCs in view");
  // Keyframes: the first, every 10 ticks, the one requested after 12, the one the missed
  // delta asked for.
  assert.equal(s.keyframes[0], 0);
  assert.ok(s.keyframes.some((k) => k > 12 && k <= 15 && k % 10 !== 0), `a keyframe soon after the request: ${s.keyframes}`);
  assert.equal(s.skipped.length, 1);
  const gap = s.skipped[0];
  assert.ok(s.errors.length >= 1 && s.errors.every((e) => e.endsWith(":no_baseline")), `after the missed delta: ${s.errors}`);
  assert.ok(s.errors.length <= 4, `recovered within a round trip: ${s.errors}`);
  assert.ok(s.keyframes.includes(gap), `the next payload applied after the gap is the resync keyframe: ${s.keyframes}`);
  const apart = s.keyframes.slice(1).map((k, i) => k - s.keyframes[i]);
  assert.ok(apart.every((d) => d <= 10), `a keyframe at least every 10 ticks: ${s.keyframes}`);
  assert.ok(s.deltas > s.keyframes.length * 3, `${s.deltas} deltas, ${s.keyframes.length} keyframes`);

  // Diagnostics, to the asker alone.
  assert.ok(r.stats !== null && Number(r.stats.moves) >= 31, `stats: ${JSON.stringify(r.stats)}`);
  assert.ok(Number(r.stats.accepted) > 0 && r.stats.tick_late_p95_ms >= 0);
  assert.ok(r.bytes.out["world:snapshot"] > 0 && r.bytes.out["player:move"] > 0 && r.bytes.inbound["player:move"] > 0, JSON.stringify(r.bytes));
  assert.deepEqual(r.botDiag, [], "the bot got nobody else's diagnostics");

  assert.deepEqual(r.invalid, [], "every server message decoded in the page");
  assert.deepEqual(pageErrors, []);
  console.log(
    `# village in Chromium (${r.ms} ms): bot strides ${r.seen.join(",")}; ${s.applied} snapshots (${s.keyframes.length} keyframes at ${s.keyframes.join(",")}), ` +
      `${s.compared} ticks equal to the server's; missed delta ${gap} -> ${s.errors.length} refused (no_baseline) -> resync keyframe`,
  );
});

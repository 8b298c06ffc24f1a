// A predicted avatar in headless Chromium, on the documented API (docs/prediction.md: the
// runtime's `Reconciler`, frames from `inputFrame`, reconciled on `input:ack`: its `p` and `r`
// from the Rust server, the own body in the snapshot the Mirror holds from the city, whose
// acks leave them out), against both real servers on loopback:
//
// 1. The Rust village server (examples/village-server): the page walks the village's body
//    with `walker` (examples/village/ts/walk.ts), the twin of the step the server runs.
// 2. The city Worker (examples/city-worker, bundled by its own build as `wrangler deploy`
//    would, on workerd through miniflare): the page walks the city's body with the city's
//    `stepPlayer`, the code the Worker runs.
//
// Each walks, sprints, turns and stands for 4 s of 60 Hz frames sent four to an
// `input:batch`, then waits for the last acknowledgement. Checked: no input frame stuck (every
// one acknowledged, or superseded by a later acknowledgement, within 1 s), no correction over
// 4 cm (the step is shared, the server's answer exact to its quantization), the drawn avatar
// where the server's last answer put it. The counts are printed.
//
//   cd tests/ts && npm run test:browser     (scripts/test runs it, after the Rust tests)

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";

import { TIMEOUT, bundle, here, launch, open, root, serve, unserve } from "./harness.mjs";

const cityDir = join(root, "examples", "city-worker");
const KEY = `predict-test-${process.pid}-${Date.now()}`;
const SECRET = `predict-secret-${process.pid}-${Date.now()}`;
/** A frame acknowledged later than this after it was sent counts as stuck (the page's STUCK_MS). */
const STUCK_MS = 1000;

let server;
let mf;
let web;
let browser;
let page;
let villageUrl;
let cityUrl;
const pageErrors = [];
const serverLog = [];

/** The Rust village server on a random port; resolves with its `ws://` base URL. */
async function startVillage() {
  execFileSync("cargo", ["build", "-q", "--locked", "-p", "village-server"], { cwd: root, stdio: "inherit" });
  const bin = join(root, "target", "debug", "village-server");
  server = spawn(bin, ["--addr", "127.0.0.1:0", "--spawn", "0,0,0"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, VILLAGE_TOKEN_KEY: KEY } });
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

/** A village join token from `village-server mint-token`. */
function villageToken() {
  const bin = join(root, "target", "debug", "village-server");
  return execFileSync(bin, ["mint-token", "--account", "1", "--name", "walker"], { env: { ...process.env, VILLAGE_TOKEN_KEY: KEY } }).toString().trim();
}

/** The city Worker, built by its own build (build/worker.js), on workerd; resolves with its URL. */
async function startCity() {
  execFileSync("node", ["lab/build.mjs"], { cwd: cityDir, stdio: "inherit" });
  const { Miniflare } = createRequire(join(cityDir, "package.json"))("miniflare");
  const wrangler = readFileSync(join(cityDir, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(wrangler)[1];
  mf = new Miniflare({
    // The bundle by content: workerd refuses a module path that leaves its starting directory.
    modules: [{ type: "ESModule", path: "worker.js", contents: readFileSync(join(cityDir, "build", "worker.js"), "utf8") }],
    compatibilityDate: date,
    durableObjects: { CITY: { className: "City", useSQLite: true } },
    bindings: { TOKEN_SECRET: SECRET, MAX_PLAYERS: "50" },
    host: "127.0.0.1",
    port: 0,
  });
  return await mf.ready;
}

/** A city token (src/token.ts): `name.expiry.hex(HMAC-SHA256(name.expiry))`. */
function cityToken(name) {
  const body = `${name}.${Date.now() + 600_000}`;
  return `${body}.${createHmac("sha256", SECRET).update(body).digest("hex")}`;
}

before(async () => {
  villageUrl = (await startVillage()) + "village";
  cityUrl = await startCity();
  const js = await bundle("predict.js");
  web = await serve({
    "/index.html": ["text/html; charset=utf-8", readFileSync(join(here, "page", "predict.html"))],
    "/predict.js": ["text/javascript; charset=utf-8", js],
  });
  browser = await launch();
  page = await open(browser, web.origin + "/", "predictReady", pageErrors);
  const agent = await page.evaluate(() => globalThis.predictTest.environment());
  console.log(`# browser: ${agent}; page ${(js.length / 1024).toFixed(0)} KiB (esbuild); village ${villageUrl}; city ${cityUrl}`);
});

after(async () => {
  try {
    if (browser !== undefined) await browser.close();
  } finally {
    if (web !== undefined) await unserve(web.server);
    if (server !== undefined && server.exitCode === null) server.kill();
    if (mf !== undefined) await mf.dispose();
  }
});

/** The checks both servers pass, and the line printed. */
function checkRun(what, r) {
  console.log(
    `# ${what}: ${r.frames} frames in ${r.ms} ms, ${r.acked} acknowledged, ${r.unacked} unacknowledged, ${r.stuck} stuck; ` +
      `${r.reconciled} acks reconciled, ${r.corrections} corrections > 4 cm (largest ${(r.maxCorrection * 100).toFixed(2)} cm), ` +
      `slowest ack ${r.slowestAckMs} ms, easing at most ${(r.maxEased * 100).toFixed(2)} cm a frame`,
  );
  assert.deepEqual(r.invalid, [], "every server message decoded");
  assert.ok(r.frames >= 200, `${r.frames} frames predicted`);
  assert.equal(r.stuck, 0, `stuck frames: ${r.unacked} never acknowledged, the slowest acknowledged after ${r.slowestAckMs} ms (bound ${STUCK_MS} ms)`);
  assert.equal(r.acked, r.frames, "every frame acknowledged");
  assert.equal(r.forgotten, 0, "no frame forgotten unacknowledged");
  assert.ok(r.reconciled >= 20, `${r.reconciled} acks reconciled`);
  assert.equal(r.corrections, 0, `corrections over 4 cm on a shared step (largest ${r.maxCorrection} m)`);
  assert.equal(r.snaps, 0);
  const moved = Math.hypot(r.drawn[0] - r.start[0], r.drawn[1] - r.start[1]);
  assert.ok(moved > 5, `the avatar walked (${moved.toFixed(2)} m)`);
}

test("a village page predicts its walker against the Rust server: every frame acknowledged, no correction", { timeout: 2 * TIMEOUT }, async () => {
  const r = await page.evaluate(([u, t]) => globalThis.predictTest.village(u, t), [villageUrl, villageToken()]);
  checkRun("village", r);
  assert.ok(r.ackHasBody, "input:ack carries the body (p, r)");
  // The village draws x and z.
  assert.ok(Math.abs(r.drawn[0] - r.lastAck.p[0]) < 0.01 && Math.abs(r.drawn[1] - r.lastAck.p[2]) < 0.01, `drawn ${r.drawn} vs the last ack ${r.lastAck.p}`);
  assert.deepEqual(pageErrors, []);
});

test("a city client predicts its walker against the Worker on workerd, frames stamped with their view: every frame acknowledged, no correction", { timeout: 2 * TIMEOUT }, async () => {
  const name = `walk${String(process.pid % 100000).padStart(5, "0")}`;
  const url = new URL(`/ws?city=predict&token=${cityToken(name)}`, cityUrl).href.replace(/^http/, "ws");
  const r = await page.evaluate(([u, n]) => globalThis.predictTest.city(u, n), [url, name]);
  checkRun("city", r);
  console.log(`# city: ${r.fromPose} of ${r.acksSeen} acks reconciled on the body in the Mirror's snapshot, ${r.withBody} carried p or r`);
  // The city's acks leave out p and r (each follows its tick's snapshot, which carries the body): every ack reconciled on the Mirror's body.
  assert.equal(r.withBody, 0, "no city ack carries p or r");
  assert.equal(r.fromPose, r.acksSeen, `${r.fromPose} of ${r.acksSeen} acks found the body in the Mirror's snapshot`);
  // Its frames carried view stamps (the Worker's lag compensation reads them): accepted, not dropped.
  assert.ok(r.viewTick > 2, `frames stamped with view times up to tick ${r.viewTick}`);
  assert.ok(Math.abs(r.drawn[0] - r.lastPose[0]) < 0.01 && Math.abs(r.drawn[1] - r.lastPose[1]) < 0.01, `drawn ${r.drawn} vs the last acknowledged body ${r.lastPose}`);
  assert.deepEqual(pageErrors, []);
});

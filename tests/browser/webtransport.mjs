// WebTransport in a real browser: headless Chromium (QUIC on: this test leaves out the
// --disable-quic the other browser tests pass) plays against the Rust village server on
// loopback through the runtime's `connect`, and falls back to WebSocket when UDP is blocked.
//
// 1. `cargo build -p village-server`, then the server on 127.0.0.1 port 0 with
//    `--webtransport`: WebSockets over TCP and WebTransport over UDP on the same port, a
//    14-day self-signed certificate whose hash the page fetches from `GET /webtransport`.
// 2. page/webtransport.js bundled by esbuild with the generated package, served by a
//    node:http server; playwright-core drives Debian's /usr/bin/chromium.
// 3. Over WebTransport: two clients join, one walks 20 steps, the other sees the relayed
//    moves; moves and snapshots go as datagrams (`#[tuplet(unreliable)]`), the snapshots
//    applied by the acknowledged mirror (`Mirror.acked`) and acknowledged by datagrams
//    (`world:ack`); the hello and the join on the stream; no message is dropped as invalid.
// 4. UDP blocked, twice, against a second server started without `--webtransport`: the
//    page has a valid certificate hash (the first server's) and points WebTransport at
//    this server's own port. First its UDP port is closed (the kernel answers port
//    unreachable); then a socket bound to that UDP port swallows every datagram (a firewall
//    that drops). Both clients must be connected over WebSocket within 3 s and play as well.
//
//   cd tests/ts && npm run test:browser     (scripts/test runs it, after the Rust tests)

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";

import { CHROMIUM, TIMEOUT, bundle, here, open, root, serve, unserve } from "./harness.mjs";

const { chromium } = createRequire(join(root, "tests", "ts", "package.json"))("playwright-core");

/** The fallback must be done within this (the bound). */
const FALLBACK_MS = 3000;

let server;
let plain;
let web;
let browser;
let page;
let swallow;
const serverLog = [];
const pageErrors = [];
let ws;
let wt;
let info;
let plainWs;

/**
 * Starts a village server on a free port, with WebTransport when `webtransport`; resolves
 * with the process, its WebSocket URL and (with WebTransport) its WebTransport URL.
 */
async function startServer(webtransport) {
  const bin = join(root, "target", "debug", "village-server");
  const args = ["--addr", "127.0.0.1:0", ...(webtransport ? ["--webtransport"] : [])];
  const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stderr.on("data", (d) => serverLog.push(String(d)));
  const lines = createInterface({ input: child.stdout });
  const said = [];
  const want = webtransport ? 2 : 1;
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`village-server exited (${code}): ${serverLog.join("")}`)));
    lines.on("line", (line) => {
      said.push(line);
      if (said.length < want) return;
      const wsUrl = /listening on (ws:\/\/\S+)/.exec(said[0]);
      const wtUrl = webtransport ? /webtransport on (https:\/\/\S+) certificate sha-256 ([0-9a-f]{64})/.exec(said[1]) : [];
      if (wsUrl === null || wtUrl === null) reject(new Error(`village-server said: ${said.join(" | ")}`));
      else resolve({ child, ws: wsUrl[1], wt: wtUrl[1] });
    });
  });
}

/** Headless Chromium with QUIC on (the harness's launch turns it off). */
async function launchQuic() {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: TIMEOUT,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

before(async () => {
  execFileSync("cargo", ["build", "-q", "--locked", "-p", "village-server"], { cwd: root, stdio: "inherit" });
  ({ child: server, ws, wt } = await startServer(true));
  info = `${ws.replace("ws://", "http://").replace(/\/$/, "")}/webtransport`;
  ({ child: plain, ws: plainWs } = await startServer(false));
  const js = await bundle("webtransport.js");
  const html = (await import("node:fs")).readFileSync(join(here, "page", "webtransport.html"));
  ({ server: web } = await serve({
    "/index.html": ["text/html; charset=utf-8", html],
    "/webtransport.js": ["text/javascript; charset=utf-8", js],
  }));
  browser = await launchQuic();
  const origin = `http://127.0.0.1:${web.address().port}`;
  page = await open(browser, `${origin}/`, "wtReady", pageErrors);
});

after(async () => {
  await browser?.close();
  if (web !== undefined) await unserve(web);
  swallow?.close();
  server?.kill();
  plain?.kill();
});

/** Runs the page's scenario against `target`. */
function play(target) {
  return page.evaluate((t) => globalThis.wtTest.play(t), target);
}

/**
 * What every run must show, whichever transport. Chromium logs the failed WebTransport
 * session of a fallback (`blocked`: its URL) as a console error; nothing else may appear.
 */
function checkPlay(out, blocked) {
  assert.ok(out.seen >= 15, `the watcher saw ${out.seen} of the walker's 20 moves`);
  assert.ok(out.snapshots.every((n) => n >= 3), `snapshots: ${out.snapshots}`);
  assert.deepEqual(out.invalid, []);
  const expected = `console: Failed to establish a connection to ${blocked}: `;
  const unexpected = pageErrors.splice(0).filter((e) => blocked === undefined || !e.startsWith(expected));
  assert.deepEqual(unexpected, []);
}

test("plays over WebTransport: moves and snapshots as datagrams, the rest on the stream", async () => {
  const out = await play({ ws: `${ws}village`, wt: `${wt}village`, info });
  assert.deepEqual(out.kinds, ["webtransport", "webtransport"], JSON.stringify(out));
  assert.match(out.certificateHash, /^[0-9a-f]{64}$/);
  // The walker's 20 moves and its acknowledgements went as datagrams; hello and join on the stream.
  assert.ok(out.acks.every((n) => n >= 3), `acks: ${out.acks}`);
  assert.equal(out.walker.sentDatagrams, 20 + out.acks[0], JSON.stringify(out));
  assert.ok(out.walker.sentStream >= 2, JSON.stringify(out.walker));
  // The relayed moves and the snapshots reached the watcher as datagrams (all but at most the
  // first, a keyframe, which takes the stream if it is too big for one), the welcome on the stream.
  assert.ok(out.watcher.receivedDatagrams >= out.seen + out.snapshots[1] - 1, JSON.stringify(out));
  assert.ok(out.watcher.receivedStream >= 3, JSON.stringify(out.watcher));
  checkPlay(out);
  console.log(`# webtransport: connected in ${out.connectedMs.map((m) => m.toFixed(0)).join(", ")} ms; walker ${JSON.stringify(out.walker)}; watcher ${JSON.stringify(out.watcher)}`);
});

/** Binds a socket to the plain server's UDP port that drops every datagram, as a firewall does. */
async function dropUdp() {
  swallow = createSocket("udp4");
  swallow.on("message", () => {});
  await new Promise((resolve) => swallow.bind(Number(new URL(plainWs).port), "127.0.0.1", resolve));
}

for (const [blocked, block] of [
  ["the server's UDP port is closed", async () => {}],
  ["the server's UDP port drops every datagram", dropUdp],
]) {
  test(`falls back to WebSocket within 3 s when ${blocked}`, async () => {
    await block();
    // The server's own port, as a page would name it; its TCP side serves the WebSocket.
    const blockedUrl = `${plainWs.replace("ws://", "https://")}village`;
    const out = await play({ ws: `${plainWs}village`, wt: blockedUrl, info });
    assert.deepEqual(out.kinds, ["websocket", "websocket"], JSON.stringify(out));
    for (const ms of out.connectedMs) assert.ok(ms < FALLBACK_MS, `connected over WebSocket after ${ms.toFixed(0)} ms`);
    assert.equal(out.walker.sentDatagrams, 0);
    checkPlay(out, blockedUrl);
    console.log(`# ${blocked}: WebSocket in ${out.connectedMs.map((m) => m.toFixed(0)).join(", ")} ms`);
  });
}

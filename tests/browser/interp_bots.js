// The interpolation browser test's bots (tests/browser/interp.mjs), in Node: village clients
// built from the generated package (esbuild bundles this file for Node), straight to the Rust
// room server (no delaying link: the page's downlink carries the delays). Each bot walks one
// true path of interp_paths.mjs and sends `player:move` at 10 Hz stamped with its own clock
// (`t`: a whole ms, each bot's clock a different offset from the others'), its pose the path
// at exactly that stamp.

import { PROTOCOL_VERSION, c2s, createDispatcher, s2c, send } from "../../generated/ts/src/index.ts";

import { PATHS, headingOf } from "./interp_paths.mjs";

const WAIT_MS = 10_000;

/** One joined bot over a `ws` WebSocket. */
async function join(WebSocket, url, name) {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const waiting = new Map();
  const got = (name) => (v) => waiting.get(name)?.(v);
  const d = createDispatcher(s2c, { "session:welcome": got("session:welcome"), "player:joined": got("player:joined") });
  ws.on("message", (data) => d.onBytes(new Uint8Array(data)));
  const next = (msg, pred = () => true) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: no ${msg}`)), WAIT_MS);
      waiting.set(msg, (v) => {
        if (!pred(v)) return;
        clearTimeout(timer);
        waiting.delete(msg);
        resolve(v);
      });
    });
  const welcomed = next("session:welcome");
  send(c2s, ws, { name: "session:hello", value: { protocol: PROTOCOL_VERSION, build: "interp-bot", locale: "en" } });
  const session = (await welcomed).s;
  const joined = next("player:joined", (j) => j.s === session);
  send(c2s, ws, { name: "player:join", value: { name, colour: 0xcc6633 } });
  const spawn = (await joined).spawn;
  return { ws, session, spawn: [spawn.x, spawn.z] };
}

/**
 * Joins one bot per path (in `PATHS` order, after the viewer), then moves them all for
 * `durationMs`. Returns, per bot: its session id, its clock's first and last stamp, the count
 * of moves sent and where the server spawned it.
 */
export async function runBots(WebSocket, url, durationMs) {
  const bots = [];
  for (const [i, path] of PATHS.entries()) {
    const b = await join(WebSocket, url, `bot-${i}`);
    // Each bot's own clock: performance.now() plus its own offset (whole ms on the wire).
    bots.push({ ...b, path, clock: 1_000_000 * (i + 1) + 0.37 * i, t0: NaN, tLast: NaN, seq: 0 });
  }
  const step = () => {
    for (const b of bots) {
      const t = Math.round(performance.now() + b.clock);
      if (b.t0 !== b.t0) b.t0 = t;
      const s = (t - b.t0) / 1000;
      const [x, z] = b.path.at(s);
      send(c2s, b.ws, { name: "player:move", value: { p: [x, 0, z], r: headingOf(b.path, s), t, seq: ++b.seq } });
      b.tLast = t;
    }
  };
  step();
  const timer = setInterval(step, 100);
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  clearInterval(timer);
  for (const b of bots) b.ws.close();
  return bots.map((b) => ({ session: b.session, name: b.path.name, clock: b.clock, t0: b.t0, tLast: b.tLast, sent: b.seq, spawn: b.spawn }));
}

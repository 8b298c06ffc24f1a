// The browser side of tests/browser/predict.mjs: a predicted avatar on the documented API
// (the runtime's `Reconciler`, frames built with `inputFrame`, reconciled on `input:ack`: on
// its `p` and `r` from the Rust server, on the own body in the snapshot the Mirror holds from
// the city, whose acks leave them out), against the real servers. `globalThis.predictTest.village(url, token)` walks
// the village's body (examples/village/ts/walk.ts) against the Rust village server;
// `globalThis.predictTest.city(url, name)` walks the city's body (examples/city-worker's
// `stepPlayer`) against the city Worker on workerd. Each returns plain counts for
// predict.mjs to check: corrections > 4 cm, the largest, frames never acknowledged, the
// slowest acknowledgement.

import { PROTOCOL_VERSION, c2s, createServerDispatcher, s2c, send } from "../../../generated/ts/src/index.ts";
import { Reconciler } from "../../../generated/ts/src/runtime/support.ts";
import { inputFrame, walker } from "../../../examples/village/ts/walk.ts";
import { stepPlayer } from "../../../examples/city-worker/src/sim.ts";
import { ackedPose } from "../../../examples/city-worker/src/ack_pose.ts";

const WAIT_MS = 10_000;
/** The frame rate the avatar is predicted at (the servers apply 60 Hz frames). */
const FRAME_MS = 1000 / 60;
/** Frames per `input:batch` (about 66 ms of input, as the docs send). */
const PER_BATCH = 4;
/** An input frame not acknowledged (or superseded by a later acknowledgement) this long after it was sent is stuck. */
export const STUCK_MS = 1000;

/**
 * What the avatar does, in order: ms held, the pressed buttons, yaw per frame (radians). Walk,
 * sprint, turn while walking, stand, sprint a curve.
 */
const SCRIPT = [
  { ms: 800, pressed: { forward: true }, yaw: 0 },
  { ms: 800, pressed: { forward: true, sprint: true }, yaw: 0 },
  { ms: 800, pressed: { forward: true }, yaw: 0.03 },
  { ms: 400, pressed: {}, yaw: 0 },
  { ms: 1200, pressed: { forward: true, sprint: true }, yaw: -0.02 },
];

function timeout(what) {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), WAIT_MS));
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Opens a binary WebSocket; `onMessage(name, value)` gets every decoded server message. */
async function connect(url, onMessage, invalid) {
  const ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  await Promise.race([
    new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
    }),
    timeout(`connecting to ${url}`),
  ]);
  const handlers = Object.fromEntries(Object.keys(s2c.byName).map((n) => [n, (_c, value, name) => onMessage(name, value)]));
  const dispatcher = createServerDispatcher(s2c, handlers, { onInvalid: (name, issues) => invalid.push(`${name}: ${issues[0]?.code}`) });
  ws.onmessage = (ev) => dispatcher.onBytes(ws, new Uint8Array(ev.data));
  return ws;
}

/** Resolves with the first message `name` that `pred` accepts, from `inbox` or to come. */
function waiter() {
  const inbox = [];
  const waiting = [];
  return {
    push(name, value) {
      const w = waiting.findIndex((x) => x.name === name && x.pred(value));
      if (w < 0) inbox.push({ name, value });
      else waiting.splice(w, 1)[0].resolve(value);
    },
    next(name, pred = () => true) {
      const i = inbox.findIndex((m) => m.name === name && pred(m.value));
      if (i >= 0) return Promise.resolve(inbox.splice(i, 1)[0].value);
      return Promise.race([new Promise((resolve) => waiting.push({ name, pred, resolve })), timeout(`waiting for ${name}`)]);
    },
  };
}

/**
 * Drives `me` (a `Reconciler`) through SCRIPT at 60 Hz of wall time: each frame predicted, drawn
 * and kept; every PER_BATCH frames one `input:batch` through `sendBatch`. `acks` is where
 * `onAck(applied, ack)` is installed: it reconciles on the server's state, `serverState(ack)`
 * (undefined: the ack says nothing to reconcile on). After the script, waits (up to 3 s) for
 * every frame to be acknowledged. Returns the counts.
 */
async function drive(me, sendBatch, acks, serverState) {
  const sentAt = new Map();
  let lastAcked = -1;
  let slowest = 0;
  let late = 0;
  let acked = 0;
  let last = null;
  acks.onAck = (applied, ack) => {
    const now = performance.now();
    for (let s = lastAcked + 1; s <= applied; s++) {
      const at = sentAt.get(s);
      if (at === undefined) continue;
      const wait = now - at;
      slowest = Math.max(slowest, wait);
      if (wait > STUCK_MS) late += 1;
      sentAt.delete(s);
      acked += 1;
    }
    lastAcked = Math.max(lastAcked, applied);
    last = ack;
    const server = serverState(ack);
    if (server !== undefined) me.reconcile(server, applied);
  };
  const start = [me.drawn[0], me.drawn[1]];
  const t0 = performance.now();
  let made = 0;
  let batch = [];
  let first = me.nextSeq;
  for (const part of SCRIPT) {
    const until = made + Math.round(part.ms / FRAME_MS);
    while (made < until) {
      // The frames wall time asks for (a late timer makes up, at most a batch at once).
      const due = Math.min(until, Math.floor((performance.now() - t0) / FRAME_MS) + 1, made + PER_BATCH);
      for (; made < due; made++) {
        const frame = inputFrame(part.pressed, made % 3 === 2 ? 16 : 17, part.yaw);
        const seq = me.predict(frame);
        if (batch.length === 0) first = seq;
        batch.push(frame);
        me.frame(FRAME_MS);
        if (batch.length === PER_BATCH) {
          sendBatch(first, batch);
          const now = performance.now();
          for (let k = 0; k < batch.length; k++) sentAt.set(first + k, now);
          batch = [];
        }
      }
      await sleep(4);
    }
  }
  if (batch.length > 0) {
    sendBatch(first, batch);
    const now = performance.now();
    for (let k = 0; k < batch.length; k++) sentAt.set(first + k, now);
  }
  const until = performance.now() + 3000;
  while (me.unacked > 0 && performance.now() < until) await sleep(20);
  // Drawn frames after the last correction: the easing runs out.
  for (let k = 0; k < 60; k++) me.frame(FRAME_MS);
  const s = me.stats;
  return {
    frames: made,
    acked,
    unacked: me.unacked,
    stuck: me.unacked + late,
    slowestAckMs: Math.round(slowest),
    reconciled: s.reconciled,
    corrections: s.corrections,
    maxCorrection: s.maxCorrection,
    maxEased: s.maxEased,
    snaps: s.snaps,
    forgotten: s.forgotten,
    stale: s.stale,
    start,
    drawn: [me.drawn[0], me.drawn[1], me.drawn[2]],
    lastAck: last,
    ms: Math.round(performance.now() - t0),
  };
}

/** The village: join the Rust server, walk a predicted body on `input:batch`, reconcile on `input:ack`. */
async function village(url, token) {
  const inbox = waiter();
  const acks = { onAck: undefined };
  const invalid = [];
  const ws = await connect(
    url,
    (name, v) => {
      if (name === "input:ack") acks.onAck?.(v.applied, v);
      else inbox.push(name, v);
    },
    invalid,
  );
  send(c2s, ws, { name: "session:hello", value: { protocol: PROTOCOL_VERSION, build: "browser", token, locale: "en" } });
  const welcome = await inbox.next("session:welcome");
  send(c2s, ws, { name: "player:join", value: { name: "walker", colour: 0x3366cc } });
  const joined = await inbox.next("player:joined", (j) => j.s === welcome.s);
  const spawn = [joined.spawn.x, joined.spawn.y, joined.spawn.z];
  // The documented use (docs/prediction.md): a Reconciler over the shared step.
  const me = new Reconciler(walker, { pos: [...spawn], heading: joined.heading }, 0);
  const r = await drive(
    me,
    (first, frames) => send(c2s, ws, { name: "input:batch", value: { first, frames } }),
    acks,
    (ack) => (ack.p !== undefined && ack.r !== undefined ? { pos: ack.p, heading: ack.r } : undefined),
  );
  ws.close();
  return { ...r, spawn, invalid, ackHasBody: r.lastAck !== null && r.lastAck.p !== undefined && r.lastAck.r !== undefined };
}

/** The city: connect to the Worker, walk the player's body with the city's step, reconcile on `input:ack`. */
async function city(url, name) {
  const inbox = waiter();
  const acks = { onAck: undefined };
  const invalid = [];
  let own;
  // The snapshot the Mirror holds (the dispatcher's, for world:snapshot): the city's acks
  // leave out `p` and `r`, and the body is read from it (ackedPose, the city's client side).
  let held;
  // The newest snapshot's tick and when it came: each frame is stamped with the world it drew
  // (`view`: that tick less the city's 100 ms of interpolation, with the fraction of a tick
  // since), as a city client that draws other cars does for the Worker's lag compensation.
  let newest = { tick: 0, at: 0 };
  const ws = await connect(
    url,
    (msg, v) => {
      if (msg === "world:snapshot") held = v;
      if (msg === "world:snapshot" && v.tick > newest.tick) newest = { tick: v.tick, at: performance.now() };
      if (msg === "input:ack") acks.onAck?.(v.applied, v);
      else if (msg === "world:snapshot" && own === undefined) {
        own = v.entities.find((e) => e.label === name);
        if (own !== undefined) inbox.push("own", own);
      } else inbox.push(msg, v);
    },
    invalid,
  );
  await inbox.next("world:clock");
  const body = await inbox.next("own");
  const car = { id: body.id + 1, kind: "Vehicle", x: body.pos[0] + 3, y: body.pos[1], heading: 0, speed: 0, anim: 0 };
  const mover = (x, y, heading) => ({ body: { id: body.id, kind: "Npc", x, y, heading, speed: 0, anim: 0 }, car: { ...car }, driving: false });
  // The city's step as a Predictor: its body drawn on x, y and the heading.
  const walkerOfCity = {
    linear: 2,
    angle: 1,
    step: stepPlayer,
    channels(m, out) {
      out[0] = m.body.x;
      out[1] = m.body.y;
      out[2] = m.body.heading;
    },
    copy(from, to) {
      Object.assign(to.body, from.body);
      Object.assign(to.car, from.car);
      to.driving = from.driving;
    },
  };
  const me = new Reconciler(walkerOfCity, mover(body.pos[0], body.pos[1], body.heading), 0);
  const server = mover(0, 0, 0);
  let acksSeen = 0;
  let withBody = 0;
  let fromPose = 0;
  let lastPose = null;
  const stamp = (f) => {
    const view = Math.max(0, newest.tick - 2 + Math.min(1, (performance.now() - newest.at) / 50));
    return { ...f, view: Math.floor(view * 100) / 100, ahead: 0 }; // rounded down: never past the newest snapshot
  };
  const r = await drive(
    me,
    (first, frames) => send(c2s, ws, { name: "input:batch", value: { first, frames: frames.map(stamp) } }),
    acks,
    (ack) => {
      acksSeen += 1;
      if (ack.p !== undefined || ack.r !== undefined) withBody += 1;
      // The walker's body (a driver would read its car's id).
      const pose = ackedPose(ack, held, body.id);
      if (pose === undefined) return undefined;
      fromPose += 1;
      server.body.x = pose.x;
      server.body.y = pose.y;
      server.body.heading = pose.heading;
      lastPose = [pose.x, pose.y, pose.heading];
      return server;
    },
  );
  ws.close();
  return { ...r, spawn: body.pos, invalid, acksSeen, withBody, fromPose, lastPose, viewTick: newest.tick };
}

globalThis.predictTest = { village, city, environment: () => navigator.userAgent };

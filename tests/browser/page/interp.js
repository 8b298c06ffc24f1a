// The browser side of tests/browser/interp.mjs: a village client page that draws the remote
// players of the Rust room server through the generated interpolation adapter
// (`PlayerMoveRelayed$interp`, fed by the runtime's `feed` into an `InterpolatedSet`), over a
// delaying link (tests/browser/delay_link.mjs) with the lab's Wi-Fi profile. Every
// `requestAnimationFrame` it samples each remote player at the frame's time, draws it, and
// records what it drew: the drawn position, the drawn time on the mover's own clock
// (`renderTime`) and the state. Beside it, on the same messages and frames, the baseline the
// network lab calls `arrival-120ms` (the village game's first interpolator: arrival-time
// stamps, a fixed 120 ms) draws the same players, the stamp drawn like a position, so both are
// measured against the truth at the time they show. The test computes the measures from the
// frames; `picture` draws the figure committed as docs/netcode-browser.png.

import { PROTOCOL_VERSION, PlayerMoveRelayed$interp, c2s, createDispatcher, s2c, send } from "../../../generated/ts/src/index.ts";
import { InterpState, InterpolatedSet, feed } from "../../../generated/ts/src/runtime/index.ts";

import { PATHS } from "../interp_paths.mjs";

const WAIT_MS = 10_000;
const BASELINE_DELAY_MS = 120;

/** The lab's (c) `arrival-120ms`, per player: a ring of 4 (arrived, x, z, stamp). */
class Arrival {
  constructor() {
    this.ring = new Float64Array(16);
    this.count = 0;
    this.out = new Float64Array(3); // x, z, stamp
  }
  message(arrived, x, z, stamp) {
    const r = this.ring;
    if (this.count === 4) {
      r.copyWithin(0, 4, 16);
      this.count = 3;
    }
    const o = this.count * 4;
    r[o] = arrived;
    r[o + 1] = x;
    r[o + 2] = z;
    r[o + 3] = stamp;
    this.count += 1;
  }
  /** Draws `now − 120 ms` into `out`; returns 0 drawn between samples, 1 held, -1 nothing. */
  frame(now) {
    const r = this.ring;
    const k = this.count;
    if (k === 0) return -1;
    const rt = now - BASELINE_DELAY_MS;
    let j = k - 1;
    while (j >= 0 && r[j * 4] > rt) j--;
    if (j < 0 || j === k - 1) {
      const a = j < 0 ? 0 : j * 4;
      for (let c = 0; c < 3; c++) this.out[c] = r[a + 1 + c];
      return 1;
    }
    const a = j * 4;
    const n = a + 4;
    const u = (rt - r[a]) / (r[n] - r[a]);
    for (let c = 0; c < 3; c++) this.out[c] = r[a + 1 + c] + (r[n + 1 + c] - r[a + 1 + c]) * u;
    return 0;
  }
}

/** Everything the page holds for one remote player. */
class Remote {
  constructor(key) {
    this.key = key;
    this.baseline = new Arrival();
    /** What the generated adapter reads the drawn channels back into. */
    this.shown = { s: key, p: [0, 0, 0], r: 0, t: 0 };
    /** Per frame: now, state, renderTime, x, z, baseline state, baseline stamp, x, z. */
    this.frames = [];
    /** Per move: arrived, t, x, z. */
    this.moves = [];
  }
}

const players = new InterpolatedSet(PlayerMoveRelayed$interp.layout);
const remotes = new Map();
let ws;
let running = false;
let frameCount = 0;
const canvas = () => document.getElementById("view");

function remote(key) {
  let r = remotes.get(key);
  if (r === undefined) remotes.set(key, (r = new Remote(key)));
  return r;
}

const waiting = new Map();
const dispatcher = createDispatcher(s2c, {
  "player:move": (m) => {
    const arrived = performance.now();
    feed(players, PlayerMoveRelayed$interp, m, arrived);
    const r = remote(m.s);
    r.baseline.message(arrived, m.p[0], m.p[2], m.t);
    r.moves.push(arrived, m.t, m.p[0], m.p[2]);
  },
  "session:welcome": (v) => waiting.get("session:welcome")?.(v),
  "player:joined": (v) => waiting.get("player:joined")?.(v),
});

function next(name, pred = () => true) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${name}`)), WAIT_MS);
    waiting.set(name, (v) => {
      if (!pred(v)) return;
      clearTimeout(timer);
      waiting.delete(name);
      resolve(v);
    });
  });
}

/** Joins (a guest) through `url` and starts drawing every frame; resolves with the session id. */
async function start(url) {
  ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
  });
  ws.onmessage = (ev) => dispatcher.onBytes(new Uint8Array(ev.data));
  const welcomed = next("session:welcome");
  send(c2s, ws, { name: "session:hello", value: { protocol: PROTOCOL_VERSION, build: "browser-interp", locale: "en" } });
  const session = (await welcomed).s;
  const joined = next("player:joined", (j) => j.s === session);
  send(c2s, ws, { name: "player:join", value: { name: "viewer", colour: 0x3366cc } });
  await joined;
  running = true;
  requestAnimationFrame(frame);
  return session;
}

function frame(now) {
  if (!running) return;
  frameCount += 1;
  const g = canvas().getContext("2d");
  g.clearRect(0, 0, 1200, 560);
  for (let i = 0; i < players.size; i++) {
    const it = players.at(i);
    const r = remote(players.keyAt(i));
    const state = it.sample(now);
    PlayerMoveRelayed$interp.read(it.out, r.shown);
    const b = r.baseline.frame(now);
    const bo = r.baseline.out;
    r.frames.push(now, state, it.renderTime, r.shown.p[0], r.shown.p[2], b, bo[2], bo[0], bo[1]);
    if (state !== InterpState.Empty) dot(g, r.shown.p[0], r.shown.p[2], 6, "#1f5fbf");
    if (b >= 0) dot(g, bo[0], bo[1], 4, "#e07b00");
  }
  requestAnimationFrame(frame);
}

/** The live view: world x -45..115, z -30..40 (metres) on the canvas. */
function dot(g, x, z, radius, colour) {
  g.fillStyle = colour;
  g.beginPath();
  g.arc(((x + 45) / 160) * 1200, ((z + 30) / 70) * 560, radius, 0, 2 * Math.PI);
  g.fill();
}

/** Stops drawing and hands back what was drawn and received, per remote player. */
function stop() {
  running = false;
  ws.close();
  const out = {};
  for (const [key, r] of remotes) out[key] = { frames: r.frames, moves: r.moves };
  return { remotes: out, frames: frameCount, timeOrigin: performance.timeOrigin, states: { ...InterpState } };
}

globalThis.interpTest = { start, stop, picture: (meta) => picture(meta), environment: () => navigator.userAgent };

// ---- the picture (docs/netcode-browser.png) ----

const BLUE = "#1f5fbf";
const ORANGE = "#e07b00";
const GREY = "#9a9a9a";

/**
 * Draws the figure: left, the far walker's drawn positions, one dot per frame, over its true path
 * (even spacing is even speed), for tuplet and for the baseline; right, the car's drawn speed against its true
 * speed at the drawn time, for both. `meta`: per session id its path index, clock origin `t0`,
 * the plotted window (bot clock ms) and the measured shares for the legend.
 */
function picture(meta) {
  const g = canvas().getContext("2d");
  g.fillStyle = "#fff";
  g.fillRect(0, 0, 1200, 560);
  g.font = "15px sans-serif";
  g.fillStyle = "#222";
  g.fillText("Chromium, Rust room server, Wi-Fi link (45 ms + up to 30 ms, 2% held up to 120 ms more); one dot per frame", 16, 24);

  // Left: the far walker's last 1.5 s (every 3rd move relayed), one dot per frame at its drawn position, over its true
  // path (grey), drawn twice: tuplet above, the baseline below. Even spacing is even speed.
  const L = { x: 16, y: 40, w: 540, h: 500 };
  g.strokeStyle = "#ddd";
  g.strokeRect(L.x, L.y, L.w, L.h);
  g.fillStyle = "#222";
  g.fillText("far walker (4 m/s; every 3rd move relayed), its last 1.5 s: a dot per frame", L.x + 10, L.y + 20);
  const walker = Object.entries(meta.players).find(([, m]) => PATHS[m.path].name === "far walker");
  if (walker !== undefined) {
    const [key, m] = walker;
    const path = PATHS[m.path];
    const f = remotes.get(key)?.frames ?? [];
    const from = m.to - 1500;
    let [x0, z0, x1, z1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let t = from; t <= m.to; t += 10) {
      const [x, z] = path.at((t - m.t0) / 1000);
      [x0, z0, x1, z1] = [Math.min(x0, x), Math.min(z0, z), Math.max(x1, x), Math.max(z1, z)];
    }
    const scale = Math.min((L.w - 60) / (x1 - x0), 150 / (z1 - z0));
    const copies = [
      [1, 2, 3, 4, BLUE, L.y + 140, `tuplet: off-speed ${meta.shares.tuplet}`],
      [5, 6, 7, 8, ORANGE, L.y + 340, `arrival stamps, fixed 120 ms: off-speed ${meta.shares.baseline}`],
    ];
    g.save();
    g.beginPath();
    g.rect(L.x, L.y, L.w, L.h);
    g.clip();
    for (const [si, ti, xi, zi, colour, cy, label] of copies) {
      const px = (x) => L.x + L.w / 2 + (x - (x0 + x1) / 2) * scale;
      const pz = (z) => cy + (z - (z0 + z1) / 2) * scale;
      g.strokeStyle = GREY;
      g.lineWidth = 1;
      g.beginPath();
      for (let t = from - 150; t <= m.to + 150; t += 10) {
        const [x, z] = path.at((t - m.t0) / 1000);
        if (t === from - 150) g.moveTo(px(x), pz(z));
        else g.lineTo(px(x), pz(z));
      }
      g.stroke();
      for (let i = 0; i < f.length; i += 9) {
        const tt = f[i + ti];
        if (tt >= from && tt <= m.to && (si !== 5 || f[i + si] >= 0)) plot(g, px(f[i + xi]), pz(f[i + zi]), 2.5, colour);
      }
      g.fillStyle = colour;
      g.fillText(label, L.x + 12, cy - 90);
    }
    g.restore();
    g.fillStyle = "#888";
    g.fillText(`${scale.toFixed(0)} px per metre`, L.x + L.w - 120, L.y + L.h - 10);
  }
  legend(g, L.x + 10, L.y + L.h - 50, meta);

  // Right: the car's speed, drawn vs true at the drawn time.
  const car = Object.entries(meta.players).find(([, m]) => PATHS[m.path].name === "car");
  const R = { x: 580, y: 40, w: 600, h: 470 };
  g.font = "15px sans-serif";
  g.strokeStyle = "#ddd";
  g.strokeRect(R.x, R.y, R.w, R.h);
  g.fillStyle = "#222";
  g.fillText("car: drawn speed per frame vs true speed at the drawn time (m/s)", R.x + 10, R.y + 20);
  g.font = "13px sans-serif";
  if (car !== undefined) {
    const [key, m] = car;
    const path = PATHS[m.path];
    const f = remotes.get(key)?.frames ?? [];
    const vmax = 14;
    const sx = (t) => R.x + ((t - m.from) / (m.to - m.from)) * R.w;
    const sy = (v) => R.y + R.h - (v / vmax) * (R.h - 40);
    g.strokeStyle = "#eee";
    for (let v = 0; v <= vmax; v += 2) {
      g.beginPath();
      g.moveTo(R.x, sy(v));
      g.lineTo(R.x + R.w, sy(v));
      g.stroke();
      g.fillStyle = "#888";
      g.fillText(String(v), R.x + 4, sy(v) - 2);
    }
    g.strokeStyle = GREY;
    g.lineWidth = 3;
    g.beginPath();
    for (let t = m.from; t <= m.to; t += 20) {
      const v = path.speed((t - m.t0) / 1000);
      if (t === m.from) g.moveTo(sx(t), sy(v));
      else g.lineTo(sx(t), sy(v));
    }
    g.stroke();
    g.lineWidth = 1.5;
    for (const [si, ti, xi, zi, colour] of [[5, 6, 7, 8, ORANGE], [1, 2, 3, 4, BLUE]]) {
      g.strokeStyle = colour;
      g.beginPath();
      let started = false;
      for (let i = 9; i < f.length; i += 9) {
        const tt = f[i + ti];
        if (!(tt >= m.from && tt <= m.to) || (si === 5 && f[i + si] < 0)) continue;
        const dt = f[i] - f[i - 9];
        const v = (Math.hypot(f[i + xi] - f[i - 9 + xi], f[i + zi] - f[i - 9 + zi]) / dt) * 1000;
        const y = sy(Math.min(v, vmax));
        if (!started) g.moveTo(sx(tt), y);
        else g.lineTo(sx(tt), y);
        started = true;
      }
      g.stroke();
    }
    g.fillStyle = "#888";
    g.fillText(`${((m.to - m.from) / 1000).toFixed(1)} s of the car's clock`, R.x + R.w - 170, R.y + R.h + 18);
  }
  g.lineWidth = 1;
}

function plot(g, x, y, radius, colour) {
  g.fillStyle = colour;
  g.beginPath();
  g.arc(x, y, radius, 0, 2 * Math.PI);
  g.fill();
}

function legend(g, x, y, meta) {
  g.font = "14px sans-serif";
  const rows = [
    [BLUE, "tuplet (the generated adapter and Interpolator)"],
    [ORANGE, "arrival stamps, a fixed 120 ms (the lab's arrival-120ms)"],
    [GREY, "true path / true speed"],
  ];
  rows.forEach(([colour, text], i) => {
    plot(g, x + 6, y + i * 18 - 4, 5, colour);
    g.fillStyle = "#222";
    g.fillText(text, x + 18, y + i * 18);
  });
}

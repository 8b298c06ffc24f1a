// The bot driver of the players-per-core bench (scripts/bench ppc): one Node process that
// plays the same load against every server, so the load is the same by construction.
//
//   node bots.mjs --target village|tuplet|schema --url ws://127.0.0.1:PORT --rooms R
//                 --bots 40 --warmup 3 --secs 8 [--key KEY] [--tag T] [--server-pid PID,...]
//                 [--port-per-room]
//
// Every bot walks the village bots' pattern (examples/village-bots: out from its spawn and
// back at 3 m/s, standing still 2 s in every 12) with one move every 100 ms, and pings
// every 2 s (the round trip is measured). It reads every frame it gets and counts it; it
// decodes only what it needs (pongs, its own join). No chat, emotes or garbage: the load
// is moves, their relay and the 20 Hz snapshot.
//
// - `village`: a Rust server's WebSocket protocol (examples/village-server, and servers
//   that speak it): `session:hello` with a join token minted with KEY, `player:join`, then
//   frames of the generated codecs (an envelope id, then the payload). The first bot of
//   each room is an admin: it resets the room's numbers after the warm-up and reads its
//   tick lateness at the end (`diag:ping` with `want_stats`).
// - `tuplet`, `schema`: the Colyseus rooms of server.mjs through @colyseus/sdk (rooms of
//   40 by a `tag` filter); moves as the generated codec's bytes (`room.sendBytes`) or as
//   a plain object (`room.send("move", ...)`); the room's `ppc:stats` gives its lateness.
//
// Prints one `RESULT key=value ...` line (stdout) when done; progress on stderr. Bounded:
// the run ends after warm-up + secs, and a bot that cannot join within 20 s fails it.

import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import WebSocket from "ws";
import { Client } from "@colyseus/sdk";

import { loadGenerated } from "./sim.mjs";

const a = Object.fromEntries(process.argv.slice(2).join(" ").split("--").filter(Boolean).map((s) => s.trim().split(/\s+/)));
const target = a.target ?? "village";
const url = a.url ?? "ws://127.0.0.1:7878";
const rooms = Number(a.rooms ?? 1);
const perRoom = Number(a.bots ?? 40);
const warmup = Number(a.warmup ?? 3) * 1000;
const secs = Number(a.secs ?? 8) * 1000;
const tag = a.tag ?? `ppc${process.pid}`;
const key = a.key ?? process.env.VILLAGE_TOKEN_KEY;
// The server's process ids (comma-separated): their CPU time over the measured window, from /proc/PID/stat.
const serverPids = (a["server-pid"] ?? "").split(",").filter(Boolean);
// `--port-per-room`: a server of one room a process; room r is at the URL's port + r.
const portPerRoom = "port-per-room" in a;
const roomUrl = (r) => {
  if (!portPerRoom) return url;
  const u = new URL(url);
  u.port = String(Number(u.port) + r);
  return u.origin.replace(/^http/, "ws");
};
const gen = await loadGenerated();

const ID = Object.fromEntries(["DiagPong", "PlayerJoined", "SessionWelcome", "SessionFailed", "PlayerMoveRelayed"].map((n) => [n, gen[`${n}Codec`].id]));

/** The walk of examples/village-bots (bot.rs `Walk`). */
class Walk {
  constructor(spawn, index) {
    const r = Math.max(Math.hypot(spawn[0], spawn[2]), 1);
    this.dir = [spawn[0] / r, spawn[2] / r];
    this.r = r;
    this.rMin = r;
    this.rMax = r + 30 + (index % 4) * 60;
    this.out = true;
  }

  step(n) {
    if (n % 120 < 100) {
      this.r += this.out ? 0.3 : -0.3;
      if (this.r >= this.rMax) this.out = false;
      else if (this.r <= this.rMin) this.out = true;
    }
    let h = Math.atan2(this.dir[1], this.dir[0]) + (this.out ? 0 : 3);
    h = ((((h + Math.PI) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)) - Math.PI;
    return [[this.dir[0] * this.r, 0, this.dir[1] * this.r], h];
  }
}

/** A join token for examples/village-server (token.rs `mint`). */
function mint(account, name, admin) {
  const claims = { account, name, exp: Math.floor(Date.now() / 1000) + 3600, admin, staff: false, party: null };
  const signed = `v1.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${signed}.${createHmac("sha256", key).update(signed).digest("base64url")}`;
}

/** An envelope: the id as a msgpack uint, then the payload. */
function envelope(codec, value) {
  const body = codec.encode(value);
  const id = codec.id;
  const head = id < 128 ? [id] : id < 256 ? [0xcc, id] : [0xcd, id >> 8, id & 255];
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

/** The envelope id of a frame and where its payload starts. */
function idOf(b) {
  if (b[0] < 128) return [b[0], 1];
  if (b[0] === 0xcc) return [b[1], 2];
  if (b[0] === 0xcd) return [(b[1] << 8) | b[2], 3];
  return [-1, 0];
}

/** The CPU time of process `pid` so far, seconds (utime + stime, /proc/PID/stat fields 14 and 15). */
function cpuOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / TICKS_PER_S;
}
const serverCpu = () => serverPids.reduce((sum, pid) => sum + cpuOf(pid), 0);
const TICKS_PER_S = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());

const rtts = [];
const stats = []; // per room: tick lateness p95, ms
const count = { frames: 0, bytes: 0, moves: 0, corrections: 0, sent: 0 };
let measuring = false;

/** A connection to a Rust server: joined, with its spawn; `send(codec, value)`; `on(fn(id, bytes, at))`. */
async function joinVillage(room, index) {
  const ws = new WebSocket(`${roomUrl(room)}/${tag}-${room}`, { perMessageDeflate: false });
  ws.binaryType = "nodebuffer";
  const name = `bot${index}`;
  const c = { ws, handlers: [] };
  c.send = (codec, value) => ws.send(envelope(codec, value));
  await new Promise((ok, fail) => {
    ws.once("open", ok);
    ws.once("error", fail);
  });
  const joined = new Promise((ok, fail) => {
    let session;
    ws.on("message", (b) => {
      const [id, at] = idOf(b);
      if (session === undefined) {
        if (id === ID.SessionWelcome) {
          session = gen.SessionWelcomeCodec.decode(b.subarray(at)).value.s;
          c.send(gen.PlayerJoinCodec, { name, colour: 0x3366cc });
        } else if (id === ID.SessionFailed) fail(new Error(`session failed for ${name}: ${JSON.stringify(gen.SessionFailedCodec.decode(b.subarray(at)).value)}`));
        return;
      }
      if (c.spawn === undefined) {
        if (id === ID.PlayerJoined) {
          const j = gen.PlayerJoinedCodec.decode(b.subarray(at)).value;
          if (j.s === session) {
            c.spawn = [j.spawn.x, j.spawn.y, j.spawn.z];
            ok();
          }
        }
        return;
      }
      for (const h of c.handlers) h(id, b, at);
    });
    ws.once("close", (code) => fail(new Error(`${name}: closed (${code})`)));
  });
  const account = 1 + room * 1000 + index;
  c.send(gen.SessionHelloCodec, { protocol: 2, build: "ppc", token: mint(account, name, index === 0), locale: "en" });
  await joined;
  c.on = (h) => c.handlers.push(h);
  c.move = (p, r, seq) => c.send(gen.PlayerMoveCodec, { p, r, t: Date.now(), seq });
  c.ping = (nonce) => c.send(gen.DiagPingCodec, { nonce, sent: Date.now(), want_stats: false });
  c.reset = () => c.send(gen.DiagBytesRequestCodec, { reset: true });
  c.lateness = () =>
    new Promise((ok) => {
      c.on((id, b, at) => {
        if (id === ID.DiagPong) {
          const p = gen.DiagPongCodec.decode(b.subarray(at)).value;
          if (p.stats !== undefined) ok(p.stats.tick_late_p95_ms ?? 0);
        }
      });
      c.send(gen.DiagPingCodec, { nonce: 0, sent: Date.now(), want_stats: true });
    });
  c.close = () => ws.close();
  return c;
}

/** A connection to a Colyseus room of server.mjs. */
async function joinColyseus(room, index) {
  const r = await new Client(url.replace(/^ws/, "http")).joinOrCreate("ppc", { tag: `${tag}-${room}` });
  const c = { handlers: [] };
  const spawned = new Promise((ok) => {
    if (target === "schema") {
      const check = () => {
        const me = r.state?.players?.get(r.sessionId);
        if (me !== undefined && c.spawn === undefined) {
          c.spawn = [me.x, me.y, me.z];
          ok();
        }
      };
      r.onStateChange(() => {
        check();
        for (const h of c.handlers) h("state");
      });
      check();
    } else {
      r.onMessage("player:joined", (b) => {
        const j = gen.PlayerJoinedCodec.decode(b).value;
        if (j.s === r.sessionId && c.spawn === undefined) {
          c.spawn = [j.spawn.x, j.spawn.y, j.spawn.z];
          ok();
        }
      });
    }
  });
  r.onMessage("*", (type, m) => {
    for (const h of c.handlers) h(type, m);
  });
  await spawned;
  c.on = (h) => c.handlers.push(h);
  if (target === "schema") {
    c.move = (p, rr, seq) => r.send("move", { x: p[0], y: p[1], z: p[2], r: rr, t: Date.now(), seq });
    c.ping = (nonce) => r.send("ping", { nonce });
  } else {
    c.move = (p, rr, seq) => r.sendBytes("player:move", gen.PlayerMoveCodec.encode({ p, r: rr, t: Date.now(), seq }));
    c.ping = (nonce) => r.sendBytes("diag:ping", gen.DiagPingCodec.encode({ nonce, sent: Date.now(), want_stats: false }));
  }
  c.reset = () => r.send("ppc:stats", { reset: true });
  c.lateness = () =>
    new Promise((ok) => {
      c.on((type, m) => type === "ppc:stats" && ok(m.late_p95_ms));
      r.send("ppc:stats", {});
    });
  c.close = () => r.leave();
  return c;
}

/** One bot: joins, then walks until the run ends. */
async function bot(room, index, clock) {
  const c = await (target === "village" ? joinVillage : joinColyseus)(room, index);
  const pings = new Map();
  c.on((id, b) => {
    if (!measuring) return;
    count.frames += 1;
    if (b?.length !== undefined) count.bytes += b.length;
    if (id === ID.PlayerMoveRelayed || id === "player:move") count.moves += 1;
    const pong = id === ID.DiagPong || id === "diag:pong" || id === "pong";
    if (pong) {
      let nonce;
      if (id === "pong") nonce = b.nonce;
      else if (id === "diag:pong") nonce = gen.DiagPongCodec.decode(b).value.nonce;
      else nonce = gen.DiagPongCodec.decode(b.subarray(idOf(b)[1])).value.nonce;
      const t = pings.get(nonce);
      if (t !== undefined) rtts.push(performance.now() - t);
      pings.delete(nonce);
    }
  });
  return { c, walk: new Walk(c.spawn, index), index, room, n: 0, off: index * 7, pings };
}

const t0 = performance.now();
const joins = [];
for (let r = 0; r < rooms; r++) {
  for (let i = 0; i < perRoom; i++) {
    joins.push(bot(r, i, null));
    await new Promise((ok) => setTimeout(ok, 2));
  }
}
const deadline = new Promise((_, fail) => setTimeout(() => fail(new Error("the bots did not all join within 20 s")), 20000));
const bots = await Promise.race([Promise.all(joins), deadline]);
console.error(`bots: ${bots.length} joined in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// Each bot steps every 100 ms on a fixed grid (a late step delays the grid rather than
// bunching), its phase spread over the interval.
function schedule(b, at) {
  b.timer = setTimeout(() => {
    b.n += 1;
    const [p, r] = b.walk.step(b.n);
    b.c.move(p, r, b.n);
    if (measuring) count.sent += 1;
    if ((b.n + b.off) % 20 === 0) {
      b.pings.set(b.n, performance.now());
      b.c.ping(b.n);
    }
    const now = performance.now();
    schedule(b, now - at > 100 ? now + 100 : at + 100);
  }, Math.max(0, at - performance.now()));
}
const start = performance.now();
bots.forEach((b, k) => schedule(b, start + (k * 100) / bots.length));
await new Promise((ok) => setTimeout(ok, warmup));
const leaders = bots.filter((b) => b.index === 0);
for (const l of leaders) l.c.reset();
measuring = true;
const m0 = performance.now();
const c0 = serverCpu();
await new Promise((ok) => setTimeout(ok, secs));
measuring = false;
const c1 = serverCpu();
const window = (performance.now() - m0) / 1000;
for (const l of leaders) stats.push(await Promise.race([l.c.lateness(), new Promise((ok) => setTimeout(() => ok(-1), 5000))]));
for (const b of bots) clearTimeout(b.timer);
for (const b of bots) b.c.close();

rtts.sort((x, y) => x - y);
const q = (xs, f) => (xs.length ? xs[Math.min(xs.length - 1, Math.ceil(f * xs.length) - 1)] : 0);
const n = bots.length;
console.log(
  `RESULT target=${target} rooms=${rooms} bots=${n} moves_sent_per_s=${(count.sent / window).toFixed(0)} ` +
    `frames_per_client_s=${(count.frames / n / window).toFixed(1)} relayed_per_client_s=${(count.moves / n / window).toFixed(1)} ` +
    `bytes_per_client_s=${(count.bytes / n / window).toFixed(0)} ping_p95_ms=${q(rtts, 0.95).toFixed(2)} pings=${rtts.length} ` +
    `late_p95_ms=${Math.max(...stats).toFixed(2)} late_missing=${stats.filter((s) => s < 0).length} ` +
    `server_cpu_pct=${((100 * (c1 - c0)) / window).toFixed(1)}`,
);
setTimeout(() => process.exit(0), 300);

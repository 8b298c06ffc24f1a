// A Colyseus 0.18 server on Node 22 with the two rooms of the players-per-core bench
// (scripts/bench ppc), both doing the reference server's work per move and per tick
// (sim.mjs): validate a move (the map, the speed bank), keep the player's pose, and a
// 20 Hz tick that steps the NPCs and brings every client its snapshot.
//
//   node server.mjs --port 2567 --mode tuplet|tuplet-tick|schema
//
// - `tuplet`: the generated package as docs/frontend.md shows it on Colyseus. Moves arrive
//   as the generated codec's bytes (`room.sendBytes`) through `attachServer`; an accepted
//   move is encoded once and relayed by distance tier (`client.sendBytes`), unchanged poses
//   not relayed; the NPC snapshot goes through one delta `Tracker` per client.
// - `tuplet-tick`: the same, with each client's socket corked from its first relayed move
//   of a tick to the tick's end, so a client's frames leave in one write per tick, as the
//   Rust servers write them (without it, one write per relayed move: the profile's top).
// - `schema`: Colyseus's own state sync as its users write it: each player a `Schema` in a
//   `MapSchema`, moved by `room.send("move", {...})`, the NPCs in the state too; Colyseus
//   encodes the changes once per patch (20 Hz) and sends them to every client of the room
//   (no interest filter: a `StateView` per client is the advanced form).
//
// Each room answers a ping (the bots' round trip) and `ppc:stats` (how late its tick ran,
// p95 since the last reset) for the bench.

import { Room, Server } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { schema, t } from "@colyseus/schema";

import { KEYFRAME_EVERY, Ticker, World, dist2, loadGenerated, observe, shouldSend, spawnAt } from "./sim.mjs";

const args = Object.fromEntries(process.argv.slice(2).join(" ").split("--").filter(Boolean).map((a) => a.trim().split(/\s+/)));
const port = Number(args.port ?? 2567);
const mode = args.mode ?? "tuplet";
const perTick = mode === "tuplet-tick";
const gen = await loadGenerated();

const MAP_MIN = [-2000, -50, -2000];
const MAP_MAX = [2000, 500, 2000];
const MAX_SPEED = 12; // m/s, and a bank of one second of it (config.rs)

/** The reference server's move check: inside the map, within the speed bank. */
function accept(p, pos, now) {
  const dt = (now - p.lastMove) / 1000;
  p.lastMove = now;
  p.bank = Math.min(p.bank + dt * MAX_SPEED, MAX_SPEED);
  if (pos.some((v, i) => v < MAP_MIN[i] || v > MAP_MAX[i])) return false;
  const step = Math.sqrt(dist2(p.pos, pos) + (p.pos[1] - pos[1]) ** 2);
  if (step > p.bank) return false;
  p.bank -= step;
  return true;
}

/** What both rooms share: joins on the spawn ring, the tick, stats for the bench. */
class BenchRoom extends Room {
  maxClients = 40;

  setup(onTick) {
    this.world = new World();
    this.tick = 0;
    this.joins = 0;
    this.ticker = new Ticker(() => {
      this.tick += 1;
      this.world.step(this.tick);
      onTick();
    });
    this.onMessage("ppc:stats", (client, m) => {
      if (m?.reset) this.ticker.reset();
      client.send("ppc:stats", { late_p95_ms: this.ticker.p95(), ticks: this.ticker.late.length });
    });
  }

  newPlayer(client) {
    const pos = spawnAt(this.joins++);
    return { client, pos, r: 0, bank: MAX_SPEED, lastMove: performance.now() };
  }

  onDispose() {
    this.ticker?.stop();
  }
}

/** The generated codecs on Colyseus: relay by tier, a delta snapshot per client. */
class TupletRoom extends BenchRoom {
  onCreate() {
    this.players = new Map(); // sessionId -> player
    this.village = gen.attachServer(this, gen.c2s, {
      "player:move": (client, m) => this.onMove(client, m),
      "diag:ping": (client, p) => {
        client.sendBytes("diag:pong", gen.DiagPongCodec.encode({ nonce: p.nonce, sent: p.sent, server_time: Date.now() }));
        // A direct answer leaves at once, with what was held for this client (as in the Rust servers).
        const me = this.players.get(client.sessionId);
        if (me?.corked) {
          client.ref._socket?.uncork();
          me.corked = false;
        }
      },
    });
    this.onMessage("*", (client, type, payload) => this.village.onPayload(client, String(type), payload));
    this.setup(() => this.onTick());
  }

  onJoin(client) {
    const p = this.newPlayer(client);
    p.seen = new Set(); // movers this viewer has a pose of
    p.updates = 0; // the mover's cadence
    p.tracker = new gen.Tracker(gen.WorldSnapshot$delta, KEYFRAME_EVERY);
    this.players.set(client.sessionId, p);
    const spawn = { x: p.pos[0], y: p.pos[1], z: p.pos[2] };
    const joined = gen.PlayerJoinedCodec.encode({ s: client.sessionId, name: "bot", colour: 0x3366cc, spawn, heading: 0, guest: false });
    for (const v of this.players.values()) v.client.sendBytes("player:joined", joined);
  }

  onLeave(client) {
    this.players.delete(client.sessionId);
    for (const v of this.players.values()) v.seen.delete(client.sessionId);
  }

  onMove(client, m) {
    const p = this.players.get(client.sessionId);
    if (p === undefined) return;
    if (!accept(p, m.p, performance.now())) {
      client.sendBytes("player:correction", gen.PlayerCorrectionCodec.encode({ pos: p.pos, heading: p.r, accepted_seq: m.seq ?? 0, reason: "TooFast", medium: "Land" }));
      return;
    }
    p.pos = m.p;
    p.r = m.r;
    const report = observe(p, m.p, m.r);
    if (report === "unchanged") return;
    const n = ++p.updates;
    let bytes;
    for (const [id, v] of this.players) {
      if (v === p) continue;
      const seen = v.seen.has(client.sessionId);
      if (!shouldSend(n, dist2(v.pos, p.pos), seen, report === "first")) continue;
      v.seen.add(client.sessionId);
      // Encoded once, for whoever gets it first.
      bytes ??= gen.PlayerMoveRelayedCodec.encode({ s: client.sessionId, p: m.p, r: m.r, t: m.t, seq: m.seq, flags: m.flags });
      if (perTick && !v.corked) {
        // `ref` is the client's `ws` socket; its TCP socket holds writes until uncorked.
        v.client.ref._socket?.cork();
        v.corked = true;
      }
      v.client.sendBytes("player:move", bytes);
    }
  }

  onTick() {
    for (const p of this.players.values()) {
      const value = { tick: this.tick, keyframe: false, entities: this.world.inView(p.pos), gone: [] };
      gen.send(gen.s2c, p.client, { name: "world:snapshot", value }, { tracker: p.tracker });
      if (p.corked) {
        p.client.ref._socket?.uncork();
        p.corked = false;
      }
    }
  }
}

/** Colyseus's schema state sync, as its users write it. */
const Player = schema({ x: t.number(), y: t.number(), z: t.number(), r: t.number(), seq: t.number() });
const Npc = schema({ kind: t.string(), label: t.string(), x: t.number(), z: t.number(), heading: t.number(), speed: t.number(), anim: t.number() });
const State = schema({ players: t.map(Player), npcs: t.map(Npc) });

class SchemaRoom extends BenchRoom {
  onCreate() {
    this.setState(new State());
    this.setPatchRate(50);
    this.players = new Map();
    this.onMessage("move", (client, m) => this.onMove(client, m));
    this.onMessage("ping", (client, m) => client.send("pong", { nonce: m?.nonce }));
    this.setup(() => this.onTick());
    for (const e of this.world.npcs) this.state.npcs.set(String(e.id), new Npc({ kind: e.kind, label: e.label ?? "", speed: e.speed, anim: e.anim }));
    this.onTick();
  }

  onJoin(client) {
    const p = this.newPlayer(client);
    this.players.set(client.sessionId, p);
    this.state.players.set(client.sessionId, new Player({ x: p.pos[0], y: p.pos[1], z: p.pos[2], r: 0, seq: 0 }));
  }

  onLeave(client) {
    this.players.delete(client.sessionId);
    this.state.players.delete(client.sessionId);
  }

  onMove(client, m) {
    const p = this.players.get(client.sessionId);
    const ok = m && typeof m.x === "number" && typeof m.y === "number" && typeof m.z === "number" && typeof m.r === "number";
    if (p === undefined || !ok) return;
    const pos = [m.x, m.y, m.z];
    if (!accept(p, pos, performance.now())) {
      client.send("correction", { x: p.pos[0], y: p.pos[1], z: p.pos[2] });
      return;
    }
    p.pos = pos;
    const s = this.state.players.get(client.sessionId);
    s.x = m.x;
    s.y = m.y;
    s.z = m.z;
    s.r = m.r;
    s.seq = m.seq;
  }

  onTick() {
    for (const e of this.world.npcs) {
      const s = this.state.npcs.get(String(e.id));
      s.x = e.pos[0];
      s.z = e.pos[2];
      s.heading = e.heading;
    }
  }
}

const server = new Server({ transport: new WebSocketTransport(), greet: false, gracefullyShutdown: false });
server.define("ppc", mode === "schema" ? SchemaRoom : TupletRoom).filterBy(["tag"]);
await server.listen(port, "127.0.0.1");
console.error(`ppc colyseus (${mode}) on ws://127.0.0.1:${port}`);
// `--exit-after S`: exits on its own after S seconds (a profile run: `node --cpu-prof`
// writes its profile on a normal exit).
if (args["exit-after"] !== undefined) setTimeout(() => process.exit(0), Number(args["exit-after"]) * 1000);

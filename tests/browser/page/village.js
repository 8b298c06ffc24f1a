// The browser side of tests/browser/village.mjs: a village client page built from the
// generated package (bundled by esbuild), playing against the Rust village server on
// loopback. `globalThis.villageTest.play(url, tokens)` joins (with join tokens the server signed), moves, watches a scripted bot's moves,
// provokes a correction, keeps the delta-snapshot mirror of `world:snapshot` and reads the
// server's diagnostics, then returns plain data for village.mjs to check.
//
// Three WebSockets from the page: the player (tuple shape, delta snapshots), a bot far away
// (100 m: every 3rd update reaches the player) and an old-shape watcher standing where the
// player stands (protocol revision 1: named maps, the whole snapshot every tick), whose
// snapshots are the server's state the player's mirror must equal, tick by tick.

import { PROTOCOL_VERSION, WorldSnapshotCodec, c2s, createServerDispatcher, newReader, readInt, s2c, send } from "../../../generated/ts/src/index.ts";

const SNAPSHOT_ID = WorldSnapshotCodec.id;
const WAIT_MS = 10_000;

/** JSON with sorted keys and `undefined` fields left out: equal values, equal text. */
function canonical(v) {
  return JSON.stringify(v, (_k, x) => {
    if (x instanceof Map) return Object.fromEntries([...x].sort());
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      return Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]]));
    }
    return typeof x === "bigint" ? String(x) : x;
  });
}

function timeout(what) {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), WAIT_MS));
}

/**
 * Every client's incoming messages, through one dispatcher keyed by the client (the same
 * generated API a server uses for its clients): each handler gets the client the message came
 * to, and `world:snapshot` goes through that client's own Mirror.
 */
const dispatcher = createServerDispatcher(
  s2c,
  {
    ...Object.fromEntries(Object.keys(s2c.byName).map((n) => [n, (client, value, name) => client.push({ name, value })])),
    "world:snapshot": (client, value) => client.onSnapshot(value),
  },
  { onInvalid: (name, issues, client) => client.onInvalid(name, issues) },
);

/** One village client over a browser WebSocket. */
class VillageClient {
  constructor(ws, name, old) {
    this.ws = ws;
    this.name = name;
    this.old = old;
    this.opts = old ? { shape: "named" } : undefined;
    /** Every other message, in arrival order: `{ name, value }`. */
    this.inbox = [];
    this.waiters = [];
    this.nonce = 0;
    /** Snapshots by tick: what this client holds after each `world:snapshot`. */
    this.snapshots = new Map();
    this.snapshotLog = { keyframes: [], deltas: 0, errors: [], requested: [], skipped: [] };
    /** Called with the count of applied snapshots before each is applied; may return "skip". */
    this.plan = () => undefined;
    this.awaitingKeyframe = false;
    this.invalid = [];
    ws.binaryType = "arraybuffer";
    ws.onmessage = (ev) => this.onFrame(new Uint8Array(ev.data));
  }

  /** Joins as `name`, signed in with `token` (a join token the server's key signed) or as a guest without one. */
  static async join(url, name, { old = false, token = undefined } = {}) {
    const ws = new WebSocket(url);
    await Promise.race([
      new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
      }),
      timeout(`${name} connecting`),
    ]);
    const c = new VillageClient(ws, name, old);
    c.send("session:hello", { protocol: old ? 1 : PROTOCOL_VERSION, build: "browser", token, locale: "en" });
    const welcome = await c.waitFor("session:welcome");
    c.session = welcome.s;
    c.send("player:join", { name, colour: 0x3366cc });
    const joined = await c.waitFor("player:joined", (j) => j.s === c.session);
    c.spawn = [joined.spawn.x, joined.spawn.y, joined.spawn.z];
    return c;
  }

  onFrame(bytes) {
    // The old-shape watcher gets whole snapshots (no tracker); the player's plan may drop a
    // delta, as a tab asleep would miss it. Everything else goes to the shared dispatcher.
    const r = newReader(bytes);
    if (readInt(r, 0, 4294967295) === SNAPSHOT_ID) {
      if (this.old) return this.onWholeSnapshot(bytes.subarray(r.pos));
      const log = this.snapshotLog;
      const n = log.keyframes.length + log.deltas;
      const keyframe = bytes[r.pos + 2] === 0xc0; // [seq, nil, ...] is a keyframe
      if (!keyframe && this.plan(n) === "skip") return log.skipped.push(n);
    }
    dispatcher.onBytes(this, bytes);
  }

  /** An old-shape client's `world:snapshot`: the whole value. */
  onWholeSnapshot(payload) {
    const res = WorldSnapshotCodec.decode(payload);
    if (!res.ok) throw new Error(`${this.name}: world:snapshot: ${res.issues[0].code}`);
    this.snapshots.set(res.value.tick, res.value);
  }

  /** A `world:snapshot` rebuilt by this client's mirror in the dispatcher. */
  onSnapshot(value) {
    const log = this.snapshotLog;
    this.awaitingKeyframe = false;
    if (value.keyframe) log.keyframes.push(log.keyframes.length + log.deltas);
    else log.deltas += 1;
    this.snapshots.set(value.tick, value);
  }

  /** A message the dispatcher dropped; a snapshot the mirror cannot apply asks for a keyframe (once). */
  onInvalid(name, issues) {
    if (name !== "world:snapshot" || this.old) {
      this.invalid.push(`${name}: ${issues.map((i) => `${i.code} at ${i.path}`).join(", ")}`);
      return;
    }
    const log = this.snapshotLog;
    if (!this.awaitingKeyframe) this.send("world:keyframe", { last_tick: 0 });
    this.awaitingKeyframe = true;
    log.errors.push({ at: log.keyframes.length + log.deltas, code: issues[0].code });
  }

  push(msg) {
    const w = this.waiters.findIndex((x) => x.name === msg.name && x.pred(msg.value));
    if (w < 0) this.inbox.push(msg);
    else this.waiters.splice(w, 1)[0].resolve(msg.value);
  }

  /** The next message `name` (already received or to come) that `pred` accepts. */
  waitFor(name, pred = () => true) {
    const i = this.inbox.findIndex((m) => m.name === name && pred(m.value));
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0].value);
    return Promise.race([
      new Promise((resolve) => this.waiters.push({ name, pred, resolve })),
      timeout(`${this.name} waiting for ${name}`),
    ]);
  }

  send(name, value) {
    send(c2s, this.ws, { name, value }, this.opts);
  }

  /**
   * Every message queued for this client before the server answered a ping (the room
   * handles messages in order), and the pong's stats when `wantStats`.
   */
  async sync(wantStats = false) {
    const nonce = ++this.nonce;
    this.send("diag:ping", { nonce, sent: Date.now(), want_stats: wantStats });
    const pong = await this.waitFor("diag:pong", (p) => p.nonce === nonce);
    const before = this.inbox.splice(0);
    return { before, stats: pong.stats };
  }

  close() {
    this.ws.close();
  }
}

function seqsOf(msgs) {
  return msgs.filter((m) => m.name === "player:move").map((m) => m.value.seq);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The whole scenario; returns what village.mjs checks. */
async function play(url, tokens) {
  const t0 = performance.now();
  const player = await VillageClient.join(url, "browser", { token: tokens.browser });
  const bot = await VillageClient.join(url, "bot", { token: tokens.bot });
  const watcher = await VillageClient.join(url, "watcher", { old: true, token: tokens.watcher });
  // The player's snapshot plan: a keyframe requested after 12, one delta missed after 24.
  player.plan = (n) => {
    if (n === 12 && player.snapshotLog.requested.length === 0) {
      player.snapshotLog.requested.push(n);
      player.send("world:keyframe", { last_tick: 0 });
    }
    if (n >= 24 && player.snapshotLog.skipped.length === 0) return "skip";
    return undefined;
  };

  // The bot walks 30 steps north; the player, 100 m away, gets every 3rd (and the first:
  // it had never seen the bot).
  for (let i = 1; i <= 30; i++) {
    bot.send("player:move", { p: [bot.spawn[0], 0, bot.spawn[2] + i * 0.1], r: 0.5, t: 1_764_000_000_000 + i * 100, seq: i });
  }
  await bot.sync();
  const seen = seqsOf((await player.sync()).before);
  const watcherSeen = seqsOf((await watcher.sync()).before);
  const botEcho = seqsOf((await bot.sync()).before);

  // Out of the map: a correction to the player alone, relayed to nobody.
  player.send("player:move", { p: [5000, 0, 0], r: 0, t: 1_764_000_010_000, seq: 31 });
  const correction = await player.waitFor("player:correction");
  await player.sync();
  const afterCorrection = seqsOf((await bot.sync()).before);

  // Snapshots for 2 s more (40 ticks: several keyframes at --keyframe-every 10).
  const want = 50;
  const until = performance.now() + WAIT_MS;
  while (player.snapshotLog.keyframes.length + player.snapshotLog.deltas < want && performance.now() < until) {
    await sleep(50);
  }
  await sleep(100); // the watcher's snapshot of the last tick

  // Diagnostics, to the asker alone.
  const { stats } = await player.sync(true);
  player.send("diag:bytes", { reset: false });
  const bytes = await player.waitFor("diag:bytes");
  const botDiag = (await bot.sync()).before.filter((m) => m.name.startsWith("diag:")).map((m) => m.name);

  // The mirror against the server's state: every tick both hold.
  let compared = 0;
  const mismatches = [];
  for (const [tick, mine] of player.snapshots) {
    const server = watcher.snapshots.get(tick);
    if (server === undefined) continue;
    compared += 1;
    const a = canonical(mine.entities);
    const b = canonical(server.entities);
    if (a !== b) mismatches.push({ tick, mirror: a.slice(0, 300), server: b.slice(0, 300) });
  }
  const entities = [...player.snapshots.values()].map((s) => s.entities.length);
  const log = player.snapshotLog;
  for (const c of [player, bot, watcher]) c.close();
  return {
    spawns: { player: player.spawn, bot: bot.spawn, watcher: watcher.spawn },
    seen,
    watcherSeen,
    botEcho,
    correction: { reason: correction.reason, pos: correction.pos, accepted_seq: correction.accepted_seq },
    afterCorrection,
    snapshots: {
      applied: log.keyframes.length + log.deltas,
      keyframes: log.keyframes,
      deltas: log.deltas,
      requested: log.requested,
      skipped: log.skipped,
      errors: log.errors.map((e) => `${e.at}:${e.code}`),
      compared,
      mismatches,
      minEntities: Math.min(...entities),
      maxEntities: Math.max(...entities),
    },
    stats: stats === undefined ? null : JSON.parse(canonical(stats)),
    bytes: { out: Object.fromEntries(bytes.out), inbound: Object.fromEntries(bytes.inbound) },
    botDiag,
    invalid: [...player.invalid, ...bot.invalid, ...watcher.invalid],
    ms: Math.round(performance.now() - t0),
  };
}

globalThis.villageTest = { play, environment: () => navigator.userAgent };

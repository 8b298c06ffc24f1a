/**
 * One city in one Durable Object: the sockets (Hibernation API), the 20 Hz tick, the inputs
 * and the characters' storage. What each client is sent per tick is left to a subclass
 * (`stream`): `City` sends tuplet delta snapshots, `CityJson` the JSON twin's.
 *
 * Hibernation: the socket and its attachment (the player's name) survive it; everything in
 * memory does not: the simulation is rebuilt from the seed and the saved characters, and each
 * client gets a fresh snapshot stream whose first payload is a keyframe, which a client's
 * `Mirror` takes whatever it held. While anyone is connected the tick keeps the object awake,
 * unless `IDLE_AFTER_S` lets it stop after that long without input.
 */

import { DurableObject } from "cloudflare:workers";
import { c2s, createServerDispatcher, DiagPongCodec, InputAckCodec, WorldClockCodec, VehicleSeatCodec, Writer, type C2sMessages, type Issue, type ServerStats, type SocketDispatcher } from "village-protocol";
import { City as Sim, type Player } from "./sim.js";
import { Store } from "./store.js";
import { Counts, Window } from "./meters.js";
import { keyframePhase, type Stream } from "./streams.js";
import { InputPlayouts } from "./input_playout.js";

/** What the Worker binds and sets (wrangler.toml; secrets with `wrangler secret put`). */
export interface Env {
  CITY: DurableObjectNamespace;
  CITY_JSON: DurableObjectNamespace;
  /** Signs players' tokens (a secret). */
  TOKEN_SECRET: string;
  /** Enables `/lab/*` when set (the lab sets it; production does not). */
  LAB_KEY?: string;
  /** Players one city holds (default 50). */
  MAX_PLAYERS?: string;
  /** Stop the tick after this many seconds without input from anyone (default: never while connected). */
  IDLE_AFTER_S?: string;
}

/** Ticks per second, and the keyframe cadence (every 5 s). */
export const RATE = 20;
const KEYFRAME_EVERY = 5 * RATE;
/**
 * Steps one timer callback may run: a callback that fires whole periods late runs the steps
 * it owes first (up to this many), so the world and the players' input frames keep to 20 Hz
 * of wall time through a stall. A queue of input frames that stopped draining for half a
 * second would otherwise overflow its playout's ring (32 frames) and lose frames.
 */
const MAX_STEPS = 10;
/** Characters are saved this often (and when their player leaves). */
const SAVE_EVERY = 5 * RATE;
/**
 * Messages one client may send: a bucket of 120 that refills at 40 a second (a player sends
 * about 16); past it, messages are dropped (`rate_limited`). The bucket absorbs the bursts a
 * stalled network or a busy object delivers at once.
 */
const MSGS_PER_S = 40;
const MSGS_BURST = 120;
/** Largest frame read from a client, bytes (`input:batch` is at most about 100). */
const MAX_FRAME = 2048;

/** What a socket carries through hibernation (`serializeAttachment`). */
interface Attachment {
  name: string;
  /**
   * Set when a newer connection of the same name replaced this one: the socket is closing,
   * and a woken object must not make it a player again (its late close would end the newer
   * session).
   */
  replaced?: true;
}

interface Client {
  readonly ws: WebSocket;
  readonly player: Player;
  readonly stream: Stream;
  /** The tick its keyframes are counted from (offset by its slot: keyframes spread over the cadence). */
  readonly phase: number;
  /** No snapshot sent yet: the next is a keyframe. */
  fresh: boolean;
  /** Messages the rate limit still allows, as of `at` (ms). */
  tokens: number;
  at: number;
  /** Valid messages by name, and bytes sent. */
  valid: number;
  sent: number;
}

/** The part both cities share; subclasses say how snapshots go out. */
export abstract class CityBase extends DurableObject<Env> {
  private sim: Sim;
  private city: string | undefined;
  private readonly store: Store;
  private readonly clients = new Map<WebSocket, Client>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastInput = Date.now();
  private readonly started = Date.now();
  private readonly maxPlayers: number;
  private idleAfterMs: number;
  /** Every client's messages: the handlers get the sender (a `Client`). */
  private readonly dispatcher: SocketDispatcher<C2sMessages, Client>;
  /** Each player's input jitter buffer (input_playout.ts). */
  private readonly inputs = new InputPlayouts();
  private readonly out = new Writer(256);
  /** Meters since the last `/lab/reset`. */
  private readonly dropped = new Counts(60);
  private readonly ignored = new Counts(60);
  private readonly tickMs = new Window(6000);
  private readonly saveMs = new Window(600);
  private readonly late = new Window(6000);
  private inbound = 0;
  private accepted = 0;
  private ticks = 0;
  /** Steps run beyond one per timer callback (catching up after a stall). */
  private catchUp = 0;
  private sentBytes = 0;
  private sentMsgs = 0;
  private snapBytes = 0;
  private snapshotSlots = 0;
  private fullSum = 0;
  private fullCount = 0;
  private measuredSince = Date.now();
  private nextTickAt = 0;
  /** How many times this object's memory was built (1 + wakes from hibernation or eviction). */
  private readonly instance: number;

  /** A fresh per-client snapshot stream (a keyframe first). */
  protected abstract stream(): Stream;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new Store(ctx.storage.sql);
    // The city's name (its seed) is recorded on the first connection; a woken object reads it.
    this.city = this.store.meta("name");
    this.sim = new Sim(seedOf(this.city ?? ""));
    this.instance = Number(this.store.meta("instances") ?? 0) + 1;
    this.store.setMeta("instances", String(this.instance));
    this.maxPlayers = Number(env.MAX_PLAYERS ?? 50);
    this.idleAfterMs = Number(env.IDLE_AFTER_S ?? 0) * 1000;
    this.dispatcher = createServerDispatcher(
      c2s,
      {
        "input:batch": (c: Client, v) => {
          this.inputs.push(c.player, v.first, v.frames);
          this.lastInput = Date.now();
          this.ensureTick();
        },
        "diag:ping": (c: Client, v) => this.pong(c, v.nonce, v.sent, v.want_stats),
        "world:keyframe": (c: Client) => c.stream.requestKeyframe(),
        "vehicle:enter": (c: Client, v) => {
          if (this.sim.enter(c.player, v.vehicle)) this.reply(c, VehicleSeatCodec, { vehicle: v.vehicle, seat: "Driver", occupant: c.player.name });
        },
      },
      { onInvalid: (name: string, issues: readonly Issue[]) => this.dropped.add(`${name} ${issues[0]?.code ?? "invalid"}`) },
    );
    // Sockets that outlived the last instance (hibernation): rebuild their clients. Each
    // gets a new stream, whose first snapshot is a keyframe.
    const sockets = ctx.getWebSockets();
    const saved = this.store.load(sockets.map((ws) => (ws.deserializeAttachment() as Attachment | null)?.name ?? ""));
    for (const ws of sockets) {
      const a = ws.deserializeAttachment() as Attachment | null;
      if (a === null) ws.close(1011, "no attachment");
      else if (a.replaced === true) continue;
      else this.admit(ws, a.name, saved.get(a.name));
    }
    if (this.clients.size > 0) this.ensureTick();
  }

  /** `/ws` from the Worker (the player's name checked there, in `X-Player`), and the lab's `/lab/*`. */
  override async fetch(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const city = req.headers.get("X-City") ?? "";
    if (this.city === undefined && city !== "") {
      this.city = city;
      this.store.setMeta("name", city);
      if (this.clients.size === 0) this.sim = new Sim(seedOf(city));
    }
    if (url.pathname.startsWith("/lab/")) return this.lab(url);
    if (req.headers.get("Upgrade") !== "websocket") return new Response("expected a WebSocket upgrade\n", { status: 426 });
    const name = req.headers.get("X-Player") ?? "";
    for (const c of this.clients.values()) {
      if (c.player.name === name) {
        this.depart(c);
        c.ws.serializeAttachment({ name, replaced: true } satisfies Attachment);
        c.ws.close(4001, "replaced by a newer connection");
      }
    }
    if (this.clients.size >= this.maxPlayers) return new Response("city full\n", { status: 503 });
    const pair = new WebSocketPair();
    const ws = pair[1];
    this.ctx.acceptWebSocket(ws);
    ws.serializeAttachment({ name } satisfies Attachment);
    this.admit(ws, name, this.store.load([name]).get(name));
    this.lastInput = Date.now();
    this.ensureTick();
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): void {
    const c = this.clients.get(ws);
    if (c === undefined) return;
    this.inbound += 1;
    const now = Date.now();
    c.tokens = Math.min(MSGS_BURST, c.tokens + ((now - c.at) * MSGS_PER_S) / 1000);
    c.at = now;
    if (c.tokens < 1) return this.dropped.add("(frame) rate_limited");
    c.tokens -= 1;
    if (typeof data === "string") return this.dropped.add("(frame) text");
    if (data.byteLength > MAX_FRAME) return this.dropped.add("(frame) too_large");
    const before = this.dropped.total;
    const handled = this.dispatcher.onBytes(c, data);
    if (handled) {
      this.accepted += 1;
      c.valid += 1;
    } else if (this.dropped.total === before) this.ignored.add("(no handler)");
  }

  override webSocketClose(ws: WebSocket, code: number): void {
    const c = this.clients.get(ws);
    if (c !== undefined) this.depart(c);
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "bye");
    } catch {
      // already closed
    }
  }

  override webSocketError(ws: WebSocket): void {
    const c = this.clients.get(ws);
    if (c !== undefined) this.depart(c);
  }

  private admit(ws: WebSocket, name: string, saved: { x: number; y: number; heading: number } | undefined): void {
    const player = this.sim.join(name, saved);
    const c: Client = { ws, player, stream: this.stream(), phase: this.sim.tick - keyframePhase(player.slot), fresh: true, tokens: MSGS_BURST, at: Date.now(), valid: 0, sent: 0 };
    this.clients.set(ws, c);
    this.reply(c, WorldClockCodec, { tick: this.sim.tick, at: Date.now(), rate: RATE });
  }

  /** A player leaves: their character is saved now. */
  private depart(c: Client): void {
    if (!this.clients.delete(c.ws)) return;
    this.save([c.player]);
    this.sim.leave(c.player.name);
    this.inputs.leave(c.player.name);
    if (this.clients.size === 0) this.stopTick();
  }

  private reply<T>(c: Client, codec: { id: number; writeTo(w: Writer, v: T): void }, v: T): void {
    const w = this.out;
    w.reset();
    w.uint(codec.id);
    codec.writeTo(w, v);
    // A copy: workerd reads the bytes after \`send\` returns, and \`out\` is reused.
    this.send(c, w.finish());
  }

  private send(c: Client, bytes: Uint8Array | string): void {
    try {
      c.ws.send(bytes);
      const n = typeof bytes === "string" ? bytes.length : bytes.length;
      c.sent += n;
      this.sentBytes += n;
      this.sentMsgs += 1;
    } catch {
      // the socket closed under us; webSocketClose follows
    }
  }

  private pong(c: Client, nonce: number, sent: number, wantStats: boolean): void {
    const v = { nonce, sent, server_time: Date.now(), ...(wantStats ? { stats: this.stats() } : {}) };
    this.reply(c, DiagPongCodec, v);
  }

  private stats(): ServerStats {
    const secs = Math.max(0.001, (Date.now() - this.measuredSince) / 1000);
    return {
      loop_lag_ms: this.late.quantile(0.5),
      move_cost_ms: this.tickMs.quantile(0.5),
      move_cost_peak_ms: this.tickMs.max(),
      rss: 0,
      heap_used: 0,
      moves_per_s: Math.min(65535, Math.round(this.accepted / secs)),
      uptime_s: Math.floor((Date.now() - this.started) / 1000),
      accepted: this.accepted,
      dropped: this.dropped.map(),
    };
  }

  private ensureTick(): void {
    if (this.timer !== undefined) return;
    this.nextTickAt = Date.now() + 1000 / RATE;
    this.timer = setInterval(() => this.tick(), 1000 / RATE);
  }

  private stopTick(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const now = Date.now();
    const period = 1000 / RATE;
    const d = now - this.nextTickAt;
    this.late.push(Math.max(0, d));
    // The steps owed by now: one when the timer fires on time, one more per period it fired
    // late (a stalled isolate or machine), none when it fired more than half a period early
    // (overdue callbacks delivered back to back); at most MAX_STEPS, and time owed beyond
    // that is given up. Over time the city steps 20 times per second of wall time.
    const steps = Math.max(0, Math.min(MAX_STEPS, Math.round(d / period) + 1));
    this.nextTickAt += steps * period;
    if (this.nextTickAt <= now - period) this.nextTickAt = now + period;
    if (steps === 0) return;
    if (this.idleAfterMs > 0 && now - this.lastInput > this.idleAfterMs) {
      // Nobody has moved for a while: save, and stop, so the object may hibernate.
      this.stopTick();
      this.save([...this.clients.values()].map((c) => c.player));
      return;
    }
    const t0 = performance.now();
    for (let k = 0; k < steps; k++) {
      this.sim.step();
      this.inputs.step(this.sim.players.values());
    }
    this.catchUp += steps - 1;
    const tick = this.sim.tick;
    for (const c of this.clients.values()) {
      const ack = this.inputs.ack(c.player, tick);
      if (ack !== undefined) this.reply(c, InputAckCodec, ack);
      // Due when the cadence passed one of the ticks just stepped.
      const keyframe = c.fresh || (tick - c.phase) % KEYFRAME_EVERY < steps;
      c.fresh = false;
      if (keyframe) c.stream.requestKeyframe();
      const entities = this.sim.view(c.player);
      const n = c.stream.send(c.ws, tick, keyframe, entities);
      if (n > 0) {
        c.sent += n;
        this.snapBytes += n;
        this.sentBytes += n;
        this.sentMsgs += 1;
      }
      this.snapshotSlots += 1;
    }
    this.tickMs.push(performance.now() - t0);
    this.ticks += 1;
    // Outside the measured tick: a reference size now and then, and the periodic save.
    if (tick % RATE < steps) {
      for (const c of this.clients.values()) {
        this.fullSum += c.stream.fullBytes(tick, this.sim.view(c.player));
        this.fullCount += 1;
      }
    }
    if (tick % SAVE_EVERY < steps) {
      const s0 = performance.now();
      this.save([...this.clients.values()].map((c) => c.player));
      this.saveMs.push(performance.now() - s0);
    }
  }

  private save(players: readonly Player[]): void {
    const rows = players.map((p) => ({ name: p.name, x: p.body.x, y: p.body.y, heading: p.body.heading }));
    this.store.save(rows, Date.now());
  }

  /** The lab's view of the city (enabled only when `LAB_KEY` is set; the Worker checks the key). */
  private lab(url: URL): Response {
    const what = url.pathname.slice("/lab/".length);
    if (what === "reset") {
      this.tickMs.clear();
      this.late.clear();
      this.saveMs.clear();
      this.inbound = this.accepted = this.ticks = this.catchUp = this.sentBytes = this.sentMsgs = this.snapBytes = this.snapshotSlots = 0;
      this.fullSum = this.fullCount = 0;
      this.measuredSince = Date.now();
      return Response.json({ ok: true });
    }
    if (what === "report") {
      const secs = (Date.now() - this.measuredSince) / 1000;
      const players: Record<string, unknown> = {};
      for (const c of this.clients.values()) {
        const p = c.player;
        players[p.name] = { frames: p.frames, gaps: p.gaps, valid: c.valid, sent: c.sent, driving: p.driving, snapshot: c.stream.report() };
      }
      return Response.json({
        instance: this.instance,
        tick: this.sim.tick,
        clients: this.clients.size,
        secs,
        ticks: this.ticks,
        catchUp: this.catchUp,
        tickMs: this.tickMs.summary(),
        lateMs: this.late.summary(),
        saveMs: this.saveMs.summary(),
        inbound: this.inbound,
        inboundPerS: this.inbound / Math.max(secs, 0.001),
        accepted: this.accepted,
        dropped: this.dropped.toJSON(),
        ignored: this.ignored.toJSON(),
        snapBytes: this.snapBytes,
        sentBytes: this.sentBytes,
        sentMsgs: this.sentMsgs,
        snapshotSlots: this.snapshotSlots,
        fullBytesMean: this.fullCount === 0 ? 0 : this.fullSum / this.fullCount,
        saved: this.store.count(),
        rowsWritten: this.store.rowsWritten,
        statements: this.store.statements,
        running: this.timer !== undefined,
        players,
      });
    }
    if (what === "sqlite-limit") return Response.json(this.sqliteLimit());
    if (what === "idle") {
      // Lets this instance's tick stop after that many seconds without input (memory only).
      this.idleAfterMs = Number(url.searchParams.get("after") ?? 0) * 1000;
      return Response.json({ ok: true });
    }
    return new Response("unknown lab request\n", { status: 404 });
  }

  /**
   * Whether this SQLite refuses a statement with 101 bound parameters (as Cloudflare's limits
   * say it does), and whether the one-parameter save takes 150 characters.
   */
  private sqliteLimit(): { refused101: boolean; error: string; saved150: boolean } {
    const sql = this.ctx.storage.sql;
    let refused101 = false;
    let error = "";
    try {
      const ps = Array.from({ length: 101 }, (_, i) => `n${i}`);
      sql.exec(`SELECT count(*) FROM characters WHERE name IN (${ps.map(() => "?").join(",")})`, ...ps).toArray();
    } catch (e) {
      refused101 = true;
      error = String(e);
    }
    const rows = Array.from({ length: 150 }, (_, i) => ({ name: `zz${String(i).padStart(7, "0")}`, x: i, y: -i, heading: 0 }));
    this.store.save(rows, Date.now());
    const back = this.store.load(rows.map((r) => r.name));
    sql.exec("DELETE FROM characters WHERE name IN (SELECT json_extract(value, '$.name') FROM json_each(?))", JSON.stringify(rows));
    return { refused101, error, saved150: back.size === 150 };
  }
}

/** The seed of a city: a hash of its name (the tuplet city and its JSON twin of one name run the same city). */
export function seedOf(name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h >>> 0;
}

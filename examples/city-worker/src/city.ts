/**
 * One city in one Durable Object: the sockets (Hibernation API), the 20 Hz tick, the inputs
 * and the characters' storage. Each client gets tuplet delta snapshots (`world:snapshot`
 * through a `Tracker`, streams.ts).
 *
 * Hibernation: the socket and its attachment (the player's name) survive it; everything in
 * memory does not: the simulation is rebuilt from the seed and the saved characters, and each
 * client gets a fresh snapshot stream whose first payload is a keyframe, which a client's
 * `Mirror` takes whatever it held. While anyone is connected the tick keeps the object awake,
 * unless `IDLE_AFTER_S` lets it stop after that long without input.
 */

import { DurableObject } from "cloudflare:workers";
import { c2s, createServerDispatcher, DiagPongCodec, WorldClockCodec, VehicleSeatCodec, Writer, type C2sMessages, type InputAck, type Issue, type ServerStats, type SocketDispatcher } from "village-protocol";
import { City as Sim, type Player } from "./sim.js";
import { Store } from "./store.js";
import { keyframePhase, TupletStream, type Stream } from "./streams.js";
import { InputPlayouts } from "./input_playout.js";
import { LagComp } from "./lag_comp.js";

/** What the Worker binds and sets (wrangler.toml; secrets with `wrangler secret put`). */
export interface Env {
  CITY: DurableObjectNamespace;
  /** Signs players' tokens (a secret). */
  TOKEN_SECRET: string;
  /** Players one city holds (default 50). */
  MAX_PLAYERS?: string;
  /** Stop the tick after this many seconds without input from anyone (default: never while connected). */
  IDLE_AFTER_S?: string;
  /** Lag compensation's cap, ms (default 600; 0: drivers collide with the world as it is now). */
  MAX_REWIND_MS?: string;
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
/** Largest frame read from a client, bytes (`input:batch` is at most 224, its budget). */
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

/** A connected player: its socket, its character and its snapshot stream. */
export interface Client {
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
}

/**
 * The city. A subclass may watch it through the `on*` hooks (no-ops here) and replace its
 * snapshot stream (`stream`); the lab's meters and JSON twin do so (lab/worker/city.ts).
 */
export class City extends DurableObject<Env> {
  protected sim: Sim;
  private city: string | undefined;
  protected readonly store: Store;
  protected readonly clients = new Map<WebSocket, Client>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastInput = Date.now();
  private readonly maxPlayers: number;
  /** Stop the tick after this long without input (`IDLE_AFTER_S`; 0: never while connected). */
  protected idleAfterMs: number;
  /** Every client's messages: the handlers get the sender (a `Client`). */
  private readonly dispatcher: SocketDispatcher<C2sMessages, Client>;
  /** Each player's input jitter buffer (input_playout.ts). */
  /** The cars' history for lag compensation; undefined when `MAX_REWIND_MS` is 0. */
  private readonly lag: LagComp | undefined;
  private readonly inputs = new InputPlayouts((p, seq) => (this.lag === undefined ? this.sim.bumpPresent(p) : this.lag.bumpFrame(p, seq)));
  private readonly out = new Writer(256);
  private nextTickAt = 0;

  /** A fresh per-client snapshot stream (a keyframe first). */
  protected stream(): Stream {
    return new TupletStream();
  }

  /** A frame arrived from a client, before any check. */
  protected onFrame(): void {}
  /** A frame or message was dropped, and why (`(frame) rate_limited`, `input:batch range`, ...). */
  protected onDropped(_why: string): void {}
  /** A valid frame was dispatched: `handled` unless no handler takes its message. */
  protected onDispatched(_c: Client, _handled: boolean): void {}
  /** `bytes` went to `c`: a snapshot (`snapshot`) or a reply. */
  protected onSent(_c: Client, _bytes: number, _snapshot: boolean): void {}
  /** The tick's timer fired, `lateMs` after the step it was due for. */
  protected onTimer(_lateMs: number): void {}
  /** The server statistics `diag:pong` carries when asked (none here). */
  protected stats(): ServerStats | undefined {
    return undefined;
  }

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new Store(ctx.storage.sql);
    // The city's name (its seed) is recorded on the first connection; a woken object reads it.
    this.city = this.store.meta("name");
    this.sim = new Sim(seedOf(this.city ?? ""));
    this.maxPlayers = Number(env.MAX_PLAYERS ?? 50);
    this.idleAfterMs = Number(env.IDLE_AFTER_S ?? 0) * 1000;
    const rewind = Number(env.MAX_REWIND_MS ?? 600);
    this.lag = rewind > 0 ? new LagComp(rewind) : undefined;
    this.dispatcher = createServerDispatcher(
      c2s,
      {
        "input:batch": (c: Client, v) => {
          this.inputs.push(c.player, v.first, v.frames);
          this.lag?.stamp(c.player, v.first, v.frames, this.sim.tick);
          this.lastInput = Date.now();
          this.ensureTick();
        },
        "diag:ping": (c: Client, v) => this.pong(c, v.nonce, v.sent, v.want_stats),
        "world:keyframe": (c: Client) => c.stream.requestKeyframe(),
        "vehicle:enter": (c: Client, v) => {
          if (this.sim.enter(c.player, v.vehicle)) this.reply(c, VehicleSeatCodec, { vehicle: v.vehicle, seat: "Driver", occupant: c.player.name });
        },
      },
      { onInvalid: (name: string, issues: readonly Issue[]) => this.onDropped(`${name} ${issues[0]?.code ?? "invalid"}`) },
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

  /** `/ws` from the Worker (the player's name checked there, in `X-Player`). */
  override async fetch(req: Request): Promise<Response> {
    this.named(req);
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

  /** The first request names the city (`X-City`, from the Worker): its seed, kept in storage. */
  protected named(req: Request): void {
    const city = req.headers.get("X-City") ?? "";
    if (this.city === undefined && city !== "") {
      this.city = city;
      this.store.setMeta("name", city);
      if (this.clients.size === 0) this.sim = new Sim(seedOf(city));
    }
  }

  override webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): void {
    const c = this.clients.get(ws);
    if (c === undefined) return;
    this.onFrame();
    const now = Date.now();
    c.tokens = Math.min(MSGS_BURST, c.tokens + ((now - c.at) * MSGS_PER_S) / 1000);
    c.at = now;
    if (c.tokens < 1) return this.onDropped("(frame) rate_limited");
    c.tokens -= 1;
    if (typeof data === "string") return this.onDropped("(frame) text");
    if (data.byteLength > MAX_FRAME) return this.onDropped("(frame) too_large");
    this.onDispatched(c, this.dispatcher.onBytes(c, data));
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
    const c: Client = { ws, player, stream: this.stream(), phase: this.sim.tick - keyframePhase(player.slot), fresh: true, tokens: MSGS_BURST, at: Date.now() };
    this.clients.set(ws, c);
    this.reply(c, WorldClockCodec, { tick: this.sim.tick, at: Date.now(), rate: RATE });
  }

  /** A player leaves: their character is saved now. */
  private depart(c: Client): void {
    if (!this.clients.delete(c.ws)) return;
    this.save([c.player]);
    this.sim.leave(c.player.name);
    this.inputs.leave(c.player.name);
    this.lag?.leave(c.player.name);
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
      this.onSent(c, bytes.length, false);
    } catch {
      // the socket closed under us; webSocketClose follows
    }
  }

  /** Sends `c` an `input:ack` through its stream (the JSON twin's is text). */
  private sendAck(c: Client, ack: InputAck): void {
    try {
      this.onSent(c, c.stream.sendAck(c.ws, ack), false);
    } catch {
      // the socket closed under us; webSocketClose follows
    }
  }

  private pong(c: Client, nonce: number, sent: number, wantStats: boolean): void {
    const stats = wantStats ? this.stats() : undefined;
    const v = { nonce, sent, server_time: Date.now(), ...(stats === undefined ? {} : { stats }) };
    this.reply(c, DiagPongCodec, v);
  }

  private ensureTick(): void {
    if (this.timer !== undefined) return;
    this.nextTickAt = Date.now() + 1000 / RATE;
    this.timer = setInterval(() => this.tick(), 1000 / RATE);
  }

  /** Whether the tick runs (it stops when nobody is connected, or after `idleAfterMs`). */
  protected get running(): boolean {
    return this.timer !== undefined;
  }

  private stopTick(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const now = Date.now();
    const period = 1000 / RATE;
    const d = now - this.nextTickAt;
    this.onTimer(Math.max(0, d));
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
    this.advance(steps);
    if (this.sim.tick % SAVE_EVERY < steps) this.checkpoint();
  }

  /** Runs `steps` steps of the world and the players' inputs, then sends each client its snapshot and ack. */
  protected advance(steps: number): void {
    for (let k = 0; k < steps; k++) {
      this.sim.step();
      this.inputs.step(this.sim.players.values(), this.sim.tick);
      this.lag?.record(this.sim);
    }
    const tick = this.sim.tick;
    for (const c of this.clients.values()) {
      // Due when the cadence passed one of the ticks just stepped.
      const keyframe = c.fresh || (tick - c.phase) % KEYFRAME_EVERY < steps;
      c.fresh = false;
      if (keyframe) c.stream.requestKeyframe();
      const entities = this.sim.view(c.player);
      this.onSent(c, c.stream.send(c.ws, tick, keyframe, entities), true);
      // After the snapshot, on the same socket: when the ack arrives, the client's Mirror holds
      // this tick's entities, its own body among them (so the ack leaves out `p` and `r`).
      const ack = this.inputs.ack(c.player, tick, entities);
      if (ack !== undefined) this.sendAck(c, ack);
    }
  }

  /** The periodic save of every connected player's character. */
  protected checkpoint(): void {
    this.save([...this.clients.values()].map((c) => c.player));
  }

  /** Saves these players' characters (one statement). */
  protected save(players: readonly Player[]): void {
    const rows = players.map((p) => ({ name: p.name, x: p.body.x, y: p.body.y, heading: p.body.heading }));
    this.store.save(rows, Date.now());
  }
}

/** The seed of a city: a hash of its name (every object of one name runs the same city). */
export function seedOf(name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h >>> 0;
}

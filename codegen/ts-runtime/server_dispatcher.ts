/**
 * Server-side dispatch over any socket: a Durable Object's `webSocketMessage(ws, data)`, a
 * `ws` server's `socket.on("message", ...)`, uWebSockets.js or Bun call `onBytes(client,
 * bytes)` with whatever object stands for the sender (the socket itself, or the server's own
 * record of the player). The handler gets that client and the message's full value; a delta
 * message goes through the client's own `Mirror`. Bad input is dropped, counted in total and
 * per client, and reported with its sender, who stays connected. For what the server sends,
 * `tracker(client, name)` is the client's own `Tracker` of a delta message and
 * `send(client, msg)` frames a message for the client's socket (through that tracker for a
 * delta message). Everything per client lives in `WeakMap`s keyed by the client object and
 * goes with it; `forget(client)` drops it at once (a reconnect under the same object).
 * Part of the package's runtime (hand-written, embedded by the emitter from codegen/ts-runtime).
 */

import { TupletError, type Issue, type Result } from "./errors.js";
import { unknownMessageId, unknownMessageName } from "./fail.js";
import { newReader } from "./reader.js";
import { readInt } from "./reader_num.js";
import { Writer } from "./writer.js";
import { Tracker, type DeltaCodec, type Mirror } from "./delta.js";
import type { EncodeOptions, MessageCodec } from "./codec.js";
import type { Direction, MessageMap, MessageOf, ServerHandlers, SocketLike } from "./dispatcher.js";

/** Options of `createServerDispatcher`. */
export interface SocketDispatcherOptions<C, O extends MessageMap = MessageMap> {
  /**
   * Called for every dropped message with its name (`"#<id>"` for an unknown envelope id,
   * `"#?"` for a frame without one), its issues and the client that sent it. The client stays
   * connected unless this callback closes it.
   */
  readonly onInvalid?: (name: string, issues: readonly Issue[], client: C) => void;
  /**
   * The direction the server sends (`s2c`): `tracker(client, name)` and `send(client, msg)`
   * need it.
   */
  readonly out?: Direction<O>;
  /** A tracker's keyframe cadence, in encodes (default 100: every 5 s at 20 Hz; 0: only when asked). */
  readonly keyframeEvery?: number;
  /** The socket of a client, for `send` (default: the client itself, which must then have `send(bytes)`). */
  readonly socketOf?: (client: C) => SocketLike;
}

/** A server dispatcher over any socket: `(client, bytes)` in, the handler gets the client. */
export interface SocketDispatcher<M extends MessageMap, C extends object, O extends MessageMap = MessageMap> {
  /** The direction it dispatches (the one clients send: `c2s`). */
  readonly direction: Direction<M>;
  /** Dropped messages per name, all clients together (`"#<id>"` for an unknown envelope id). */
  readonly dropped: Readonly<Record<string, number>>;
  /** Dropped messages of one client, per name (empty for a client that sent nothing bad). */
  droppedBy(client: C): Readonly<Record<string, number>>;
  /**
   * Handles one binary envelope from `client` (the id as a msgpack uint, then the payload):
   * returns true when a handler ran, false when the message was dropped or has no handler.
   */
  onBytes(client: C, bytes: Uint8Array | ArrayBuffer): boolean;
  /** Handles one payload from `client` that the transport framed with its name (a decoded value or bytes). */
  onPayload(client: C, name: string, payload: unknown): boolean;
  /** The client's mirror of an incoming delta message, once it sent one. */
  mirror<K extends keyof M & string>(client: C, name: K): Mirror<M[K]> | undefined;
  /** The client's tracker of an outgoing delta message (made on first use; a keyframe first). */
  tracker<K extends keyof O & string>(client: C, name: K): Tracker<O[K]>;
  /**
   * Sends `msg` to the client's socket as a binary envelope: a delta message as the payload of
   * the client's tracker (nothing when nothing changed; returns what was sent). Throws
   * TupletError on an invalid value, and the tracker's next payload is then a keyframe.
   */
  send(client: C, msg: MessageOf<O>, opts?: EncodeOptions): "message" | "keyframe" | "delta" | "nothing";
  /** Drops the client's mirrors, trackers and counts (its totals stay in `dropped`). */
  forget(client: C): void;
}

/** What the dispatcher keeps per client. */
interface PerClient {
  readonly mirrors: Record<string, { decode(payload: unknown): Result<unknown> } | undefined>;
  readonly trackers: Record<string, Tracker<unknown> | undefined>;
  readonly dropped: Record<string, number>;
}

/** An empty lookup table without a prototype: a name from the wire finds only what was put in it. */
function table<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function issuesOf(e: unknown): Issue[] {
  if (e instanceof TupletError) return [e.issue()];
  throw e;
}

/**
 * A dispatcher of `dir`'s messages (what clients send) for a server on any socket. One
 * dispatcher serves every client: pass the sender with each frame. A message without a
 * handler is ignored (not counted as dropped).
 *
 * ```ts
 * const clients = createServerDispatcher(c2s, {
 *   "player:move": (client: Player, m) => client.moveTo(m.p),
 *   "world:keyframe": (client) => clients.tracker(client, "world:snapshot").requestKeyframe(),
 * }, { out: s2c, socketOf: (p) => p.ws, onInvalid: (name, issues, p) => log(p.name, name, issues) });
 * socket.on("message", (data) => clients.onBytes(player, data));
 * clients.send(player, { name: "world:snapshot", value: snapshotFor(player) });
 * ```
 */
export function createServerDispatcher<M extends MessageMap, C extends object, O extends MessageMap = MessageMap>(
  dir: Direction<M>,
  handlers: ServerHandlers<M, C>,
  options?: SocketDispatcherOptions<C, O>,
): SocketDispatcher<M, C, O> {
  const dropped = table<number>();
  const state = new WeakMap<C, PerClient>();
  const every = options?.keyframeEvery ?? 100;
  // One writer for every envelope this dispatcher sends (encoding is synchronous).
  const w = new Writer(256);
  const hs = handlers as Record<string, ((client: C, value: unknown, name: string) => void) | undefined>;
  const handlerOf = (name: string): ((client: C, value: unknown, name: string) => void) | undefined =>
    Object.prototype.hasOwnProperty.call(hs, name) ? hs[name] : undefined;
  const byName = dir.byName as Record<string, MessageCodec<unknown> | undefined>;
  const of = (client: C): PerClient => {
    let s = state.get(client);
    if (s === undefined) state.set(client, (s = { mirrors: table(), trackers: table(), dropped: table() }));
    return s;
  };
  const drop = (client: C, name: string, issues: readonly Issue[]): false => {
    dropped[name] = (dropped[name] ?? 0) + 1;
    const mine = of(client).dropped;
    mine[name] = (mine[name] ?? 0) + 1;
    options?.onInvalid?.(name, issues, client);
    return false;
  };
  const run = (client: C, c: MessageCodec<unknown>, payload: unknown): boolean => {
    const h = handlerOf(c.name);
    if (h === undefined) return false;
    let res: Result<unknown>;
    if (c.delta !== undefined) {
      const mirrors = of(client).mirrors;
      res = (mirrors[c.name] ??= c.delta.mirror()).decode(payload);
    } else {
      res = payload instanceof Uint8Array ? c.decode(payload) : c.fromWire(payload);
    }
    if (!res.ok) return drop(client, c.name, res.issues);
    h(client, res.value, c.name);
    return true;
  };
  const outCodec = (name: string): MessageCodec<unknown> => {
    const c = (options?.out?.byName as Record<string, MessageCodec<unknown> | undefined> | undefined)?.[name];
    if (c === undefined) throw options?.out === undefined ? new TupletError("unknown_message", "createServerDispatcher needs { out: s2c } to send") : unknownMessageName(name);
    return c;
  };
  const trackerOf = (client: C, name: string): Tracker<unknown> => {
    const trackers = of(client).trackers;
    let t = trackers[name];
    if (t === undefined) {
      const d = outCodec(name).delta;
      if (d === undefined) throw new TupletError("delta_payload", `${name} is not a delta message; it has no tracker`);
      // A codec's delta face is its message's `X$delta`, a whole DeltaCodec.
      trackers[name] = t = new Tracker(d as unknown as DeltaCodec<unknown>, every);
    }
    return t;
  };
  return {
    direction: dir,
    dropped,
    droppedBy: (client) => state.get(client)?.dropped ?? table(),
    onBytes(client: C, data: Uint8Array | ArrayBuffer): boolean {
      const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
      const r = newReader(bytes);
      let id: number;
      try {
        id = readInt(r, 0, 4294967295);
      } catch (e) {
        return drop(client, "#?", issuesOf(e));
      }
      const c = dir.byId.get(id);
      if (c === undefined) return drop(client, "#" + String(id), [unknownMessageId(id).issue()]);
      return run(client, c, bytes.subarray(r.pos));
    },
    onPayload(client: C, name: string, payload: unknown): boolean {
      const c = byName[name];
      if (c === undefined) return drop(client, name, [unknownMessageName(name).issue()]);
      return run(client, c, payload);
    },
    mirror: <K extends keyof M & string>(client: C, name: K) => state.get(client)?.mirrors[name] as unknown as Mirror<M[K]> | undefined,
    tracker: <K extends keyof O & string>(client: C, name: K) => trackerOf(client, name) as unknown as Tracker<O[K]>,
    send(client: C, msg: MessageOf<O>, opts?: EncodeOptions) {
      const c = outCodec(msg.name);
      w.reset();
      w.uint(c.id);
      let sent: "message" | "keyframe" | "delta" | "nothing" = "message";
      if (c.delta !== undefined) {
        sent = trackerOf(client, msg.name).encodeInto(msg.value, w);
        if (sent === "nothing") return sent;
      } else {
        c.writeTo(w, msg.value, opts);
      }
      // `finish` copies: a socket may read the bytes after `send` returns (workerd does).
      const socket = options?.socketOf?.(client) ?? (client as unknown as SocketLike);
      socket.send(w.finish());
      return sent;
    },
    forget(client: C): void {
      state.delete(client);
    },
  };
}

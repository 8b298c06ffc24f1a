/**
 * Typed dispatch of one direction's messages over a plain WebSocket (binary envelope: the id
 * as a msgpack uint, then the payload) or a Colyseus room, client side (`createDispatcher`,
 * `attach`) or server side (`attachServer`), through structural room types: no dependency on
 * colyseus.js or @colyseus/core. Input is validated inside the handler: an invalid message is
 * dropped and counted, the connection is kept (Colyseus's own validation, `onMessage`'s
 * validate or schema argument, disconnects the sender instead). A `delta` message's payloads
 * go to a `Mirror` (one per dispatcher and message, or per client on a server), its handler
 * gets the rebuilt full value; `send` takes the peer's `Tracker` for one. Part of the
 * package's runtime (hand-written, embedded by the emitter from codegen/ts-runtime).
 */

import { TupletError, type Issue, type Result } from "./errors.js";
import { unknownMessageId, unknownMessageName } from "./fail.js";
import { newReader } from "./reader.js";
import { readInt } from "./reader_num.js";
import { Writer } from "./writer.js";
import type { EncodeOptions, MessageCodec } from "./codec.js";
import type { Mirror } from "./delta.js";

/** The messages of one direction: wire name -> natural value type. */
export type MessageMap = object;

/** A message of a direction as a discriminated union member: `{ name, value }`. */
export type MessageOf<M extends MessageMap> = { [K in keyof M & string]: { readonly name: K; readonly value: M[K] } }[keyof M & string];

/**
 * One direction, or some of its messages (`s2cOnly([...])`): its codecs by name and by id,
 * and the ids of the direction's messages it leaves out.
 */
export interface Direction<M extends MessageMap> {
  /** `"c2s"` or `"s2c"`. */
  readonly dir: string;
  /** The codec of every message it holds, by wire name. */
  readonly byName: { readonly [K in keyof M & string]: MessageCodec<M[K], K> };
  /** The codec of every message it holds, by envelope id. */
  readonly byId: ReadonlyMap<number, MessageCodec<unknown>>;
  /**
   * The envelope ids of the direction's messages it leaves out (empty for a whole
   * direction): a dispatcher ignores them or drops them, as its `others` option says, where
   * an id no message has is always dropped.
   */
  readonly others?: ReadonlySet<number> | undefined;
}

/** The messages of a list of codecs: wire name -> natural value (`MessagesOf<[typeof PlayerMoveCodec]>`). */
export type MessagesOf<Cs extends readonly MessageCodec<unknown, string, number>[]> = {
  [C in Cs[number] as C["name"]]: C extends MessageCodec<infer T, string, number> ? T : never;
};

/**
 * Builds a direction from codecs; `ids`, when given, are the envelope ids of every message of
 * the direction (the generated `c2sOnly`, `s2cOnly` pass them), those not in `codecs` becoming
 * its `others`.
 */
export function direction<M extends MessageMap>(dir: string, codecs: readonly MessageCodec<unknown>[], ids?: readonly number[]): Direction<M> {
  const byName = table<MessageCodec<unknown>>();
  const byId = new Map<number, MessageCodec<unknown>>();
  for (const c of codecs) {
    byName[c.name] = c;
    byId.set(c.id, c);
  }
  const others = new Set<number>();
  for (const id of ids ?? []) if (!byId.has(id)) others.add(id);
  return { dir, byName: byName as unknown as Direction<M>["byName"], byId, others };
}

/** A handler per message name; messages without one are ignored (not counted as dropped). */
export type Handlers<M extends MessageMap> = { readonly [K in keyof M & string]?: (value: M[K], name: K) => void };

/** A Colyseus room as the client sees it (structural: colyseus.js's `Room` fits). */
export interface RoomLike {
  onMessage(type: string, cb: (payload: unknown) => void): unknown;
  send(type: string, payload: unknown): void;
  /** Sends bytes as they are (colyseus.js 0.15+); `send` carries a tracker's payload without it. */
  sendBytes?(type: string, bytes: Uint8Array): void;
}

/** One client of a Colyseus room, as the server sees it (structural: @colyseus/core's `Client` fits). */
export interface ClientLike {
  send(type: string, payload: unknown): void;
  sendBytes(type: string, bytes: Uint8Array): void;
}

/**
 * A plain binary socket: a browser `WebSocket` (lib.dom of TypeScript 5.9 and 7, whose `send`
 * takes `ArrayBufferView<ArrayBuffer>`) and a `ws` WebSocket fit. Set `binaryType =
 * "arraybuffer"` on a browser socket so that `onBytes` gets its frames as bytes.
 */
export interface SocketLike {
  send(data: Uint8Array<ArrayBuffer>): void;
  /**
   * Sends a frame unreliably where the transport can (a WebTransport datagram, `transport.ts`);
   * `send` uses it for a message declared `#[tuplet(unreliable)]`.
   */
  sendDatagram?(data: Uint8Array<ArrayBuffer>): void;
}

/** The mirror of each delta message, by name (`Mirror<WorldSnapshot>` under `"world:snapshot"`). */
export type Mirrors<M extends MessageMap> = { [K in keyof M & string]?: Mirror<M[K]> };

/**
 * The name a dropped message is reported and counted under: a message name of the direction,
 * or `"#<id>"` (`"#9999"`, `"#?"` when the id cannot be read) and `"#<name>"` for what is
 * none of its messages.
 */
export type DroppedName<M extends MessageMap> = (keyof M & string) | `#${string}`;

/** Options of a dispatcher. */
export interface DispatcherOptions<M extends MessageMap = MessageMap> {
  /**
   * Called for every dropped message: its name (`DroppedName`: `"#<id>"` for an unknown id)
   * and issues. For a delta message (`no_baseline`: a payload was missed) ask the server for a
   * keyframe.
   */
  readonly onInvalid?: ((name: DroppedName<M>, issues: readonly Issue[]) => void) | undefined;
  /**
   * A message of the direction that the dispatcher's direction leaves out (`s2cOnly([...])`
   * names the others): `"ignore"` (the default) skips it and counts it in `ignored` under
   * `"#<id>"`; `"error"` drops it as `unknown_message` (counted in `dropped`, reported to
   * `onInvalid`). An id no message of the direction has is dropped either way.
   */
  readonly others?: "ignore" | "error" | undefined;
  /** Mirrors to apply delta messages' payloads to; the dispatcher makes the others on first use. */
  readonly mirrors?: Mirrors<M> | undefined;
}

/** A typed dispatcher of one direction's incoming messages. */
export interface Dispatcher<M extends MessageMap> {
  /** The direction it dispatches. */
  readonly direction: Direction<M>;
  /** Dropped messages per name (`DroppedName`: `"#<id>"` for an unknown envelope id). */
  readonly dropped: Partial<Record<DroppedName<M>, number>>;
  /** Messages of the direction left out of this dispatcher's (`others: "ignore"`), per `"#<id>"`. */
  readonly ignored: Partial<Record<`#${number}`, number>>;
  /** The mirror of each delta message that has one (`clear()` them on a reconnect). */
  readonly mirrors: Mirrors<M>;
  /** Handles one binary envelope; returns whether a handler ran. */
  onBytes(bytes: Uint8Array | ArrayBuffer): boolean;
  /** Handles one payload the transport framed with its name (a decoded value or bytes). */
  onPayload(name: string, payload: unknown): boolean;
  /** Registers one `room.onMessage` per handled message name. */
  attach(room: Pick<RoomLike, "onMessage">): void;
}

/**
 * An empty lookup table without a prototype: a message name from the wire (`"toString"`,
 * `"__proto__"`) finds only what was put in it.
 */
function table<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The handler of `name` the user passed (own properties only, never `Object.prototype`'s). */
function handlerOf<H>(handlers: Record<string, H | undefined>, name: string): H | undefined {
  return Object.prototype.hasOwnProperty.call(handlers, name) ? handlers[name] : undefined;
}

function drop(dropped: Record<string, number>, options: DispatcherOptions | undefined, name: string, issues: readonly Issue[]): false {
  dropped[name] = (dropped[name] ?? 0) + 1;
  options?.onInvalid?.(name as `#${string}`, issues);
  return false;
}

/** `unknown_message` for a message of the direction that a dispatcher reading only some leaves out. */
function leftOut(dir: string, id: number): TupletError {
  return new TupletError("unknown_message", `message ${id} of ${dir} is not one this dispatcher reads`);
}

function issuesOf(e: unknown): Issue[] {
  if (e instanceof TupletError) return [e.issue()];
  throw e;
}

/**
 * Reads one payload of `c` (bytes, or a value the transport decoded): a delta message's with
 * its mirror in `mirrors` (made on first use), any other with the codec.
 */
/** A mirror as the dispatcher uses it. */
type Applier = { decode(payload: unknown): Result<unknown> };

function read(c: MessageCodec<unknown>, mirrors: Record<string, Applier>, payload: unknown): Result<unknown> {
  const d = c.delta;
  if (d !== undefined) return (mirrors[c.name] ??= d.mirror()).decode(payload);
  return payload instanceof Uint8Array ? c.decode(payload) : c.fromWire(payload);
}

/** A dispatcher calling `handlers` with validated natural values. */
export function createDispatcher<M extends MessageMap>(
  dir: Direction<M>,
  handlers: Handlers<M>,
  options?: DispatcherOptions<M>,
): Dispatcher<M> {
  const dropped = table<number>();
  const ignored = table<number>();
  const mirrors = Object.assign(table<Applier>(), options?.mirrors);
  const hs = handlers as Record<string, ((value: unknown, name: string) => void) | undefined>;
  const byName = dir.byName as Record<string, MessageCodec<unknown> | undefined>;
  const run = (name: string, res: { ok: true; value: unknown } | { ok: false; issues: readonly Issue[] }): boolean => {
    if (!res.ok) return drop(dropped, options, name, res.issues);
    const h = handlerOf(hs, name);
    if (h === undefined) return false;
    h(res.value, name);
    return true;
  };
  const onPayload = (name: string, payload: unknown): boolean => {
    const c = byName[name];
    if (c === undefined) {
      return drop(dropped, options, "#" + name, [unknownMessageName(name).issue()]);
    }
    if (handlerOf(hs, name) === undefined) return false;
    return run(name, read(c, mirrors, payload));
  };
  return {
    direction: dir,
    dropped: dropped as Dispatcher<M>["dropped"],
    ignored,
    mirrors: mirrors as unknown as Mirrors<M>,
    onBytes(data: Uint8Array | ArrayBuffer): boolean {
      const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
      let id: number;
      const r = newReader(bytes);
      try {
        id = readInt(r, 0, 4294967295);
      } catch (e) {
        return drop(dropped, options, "#?", issuesOf(e));
      }
      const c = dir.byId.get(id);
      if (c === undefined) {
        const key = "#" + String(id);
        if (dir.others?.has(id) !== true) return drop(dropped, options, key, [unknownMessageId(id).issue()]);
        if (options?.others === "error") return drop(dropped, options, key, [leftOut(dir.dir, id).issue()]);
        ignored[key] = (ignored[key] ?? 0) + 1;
        return false;
      }
      if (handlerOf(hs, c.name) === undefined) return false;
      return run(c.name, read(c, mirrors, bytes.subarray(r.pos)));
    },
    onPayload,
    attach(room: Pick<RoomLike, "onMessage">): void {
      for (const name of Object.keys(hs)) {
        if (handlerOf(hs, name) !== undefined) room.onMessage(name, (payload) => onPayload(name, payload));
      }
    },
  };
}

/**
 * A Colyseus room as the server sees it (structural: @colyseus/core's `Room`, 0.16 and 0.17,
 * fits): `onMessage(type, (client, payload) => ...)`, used without a validation argument.
 */
export interface ServerRoomLike<C> {
  onMessage(type: string, cb: (client: C, payload: unknown) => void): unknown;
}

/** A server-side handler per message name: the sending client, then the validated value. */
export type ServerHandlers<M extends MessageMap, C> = {
  readonly [K in keyof M & string]?: (client: C, value: M[K], name: K) => void;
};

/** Options of `attachServer`. */
export interface ServerDispatcherOptions<C> {
  /** Called for every dropped message: its name, its issues and the client that sent it. */
  readonly onInvalid?: (name: string, issues: readonly Issue[], client: C) => void;
}

/** What `attachServer` returns: the counts, the dispatch it registered, and a way to undo it. */
export interface ServerDispatcher<M extends MessageMap, C> {
  /** The direction it dispatches (the one clients send: `c2s`). */
  readonly direction: Direction<M>;
  /** Dropped (invalid) messages per name; the senders stay connected. */
  readonly dropped: Record<string, number>;
  /** Handles one payload from `client` framed with its name (a decoded value or bytes). */
  onPayload(client: C, name: string, payload: unknown): boolean;
  /** Calls every unbind function the room's `onMessage` returned (Colyseus 0.17 returns one). */
  detach(): void;
}

/**
 * Server side of a Colyseus room: registers one plain `room.onMessage(name, cb)` for every
 * message of the direction (so none reaches Colyseus's "not registered" fallback, which
 * disconnects in production), each validating with `fromWire` (or `decode` for bytes) inside
 * the callback: a valid value goes to its handler, an invalid one is dropped, counted in
 * `dropped` and reported to `onInvalid`, and the sender stays connected. A message without a
 * handler is ignored. A delta message's payloads go to a `Mirror` per client (the client is
 * the key, so it must be an object, as Colyseus's `Client` is). Do not pass the codec as
 * `onMessage`'s validation argument for input you do not trust: Colyseus disconnects a sender
 * whose input fails it.
 *
 * ```ts
 * onCreate() {
 *   this.village = attachServer(this, c2s, { "player:move": (client, m) => move(client, m) }, { onInvalid: log });
 * }
 * ```
 */
export function attachServer<M extends MessageMap, C>(
  room: ServerRoomLike<C>,
  dir: Direction<M>,
  handlers: ServerHandlers<M, C>,
  options?: ServerDispatcherOptions<C>,
): ServerDispatcher<M, C> {
  const dropped = table<number>();
  // One mirror per client and delta message, dropped with the client object.
  const mirrors = new WeakMap<object, Record<string, Applier>>();
  const none = table<Applier>();
  const mirrorsOf = (client: C): Record<string, Applier> => {
    let mine = mirrors.get(client as object);
    if (mine === undefined) mirrors.set(client as object, (mine = table()));
    return mine;
  };
  const hs = handlers as Record<string, ((client: C, value: unknown, name: string) => void) | undefined>;
  const byName = dir.byName as Record<string, MessageCodec<unknown> | undefined>;
  const dropFrom = (client: C, name: string, issues: readonly Issue[]): false => {
    dropped[name] = (dropped[name] ?? 0) + 1;
    options?.onInvalid?.(name, issues, client);
    return false;
  };
  const onPayload = (client: C, name: string, payload: unknown): boolean => {
    const c = byName[name];
    if (c === undefined) return dropFrom(client, name, [unknownMessageName(name).issue()]);
    const h = handlerOf(hs, name);
    if (h === undefined) return false;
    const res = read(c, c.delta === undefined ? none : mirrorsOf(client), payload);
    if (!res.ok) return dropFrom(client, name, res.issues);
    h(client, res.value, name);
    return true;
  };
  const unbind: unknown[] = [];
  for (const name of Object.keys(byName)) {
    unbind.push(room.onMessage(name, (client, payload) => onPayload(client, name, payload)));
  }
  return {
    direction: dir,
    dropped,
    onPayload,
    detach(): void {
      for (const u of unbind.splice(0)) if (typeof u === "function") (u as () => unknown)();
    },
  };
}

/** Options of `send`: the shape, and for a delta message the peer's tracker. */
export interface SendOptions extends EncodeOptions {
  /**
   * The `Tracker` of this peer and delta message (one per client on a server): `send` sends
   * its next payload, or nothing when nothing changed (`tracker.last` says which). A delta
   * message without one throws `delta_payload`, unless `shape` is `"named"` (a legacy peer
   * gets full values).
   */
  readonly tracker?: { encode(value: never): Uint8Array | undefined } | undefined;
}

/** The binary envelope of a message: its id as a msgpack uint, then its payload (`bytes`, if given). */
function frame(c: MessageCodec<unknown>, value: unknown, opts: EncodeOptions | undefined, bytes?: Uint8Array): Uint8Array<ArrayBuffer> {
  const w = new Writer();
  w.uint(c.id);
  if (bytes === undefined) c.writeTo(w, value, opts);
  else w.raw(bytes);
  return w.finish();
}

/** The binary envelope of a message: its id as a msgpack uint, then its payload. */
export function envelope<M extends MessageMap>(dir: Direction<M>, msg: MessageOf<M>, opts?: EncodeOptions): Uint8Array<ArrayBuffer> {
  const c = (dir.byName as Record<string, MessageCodec<unknown> | undefined>)[msg.name];
  if (c === undefined) throw unknownMessageName(msg.name);
  return frame(c, msg.value, opts);
}

/**
 * Sends a message in the shape this peer expects (`{ shape: "named" }` for a peer still on
 * the legacy maps): to a Colyseus room as `room.send(name, toWire(value))`, to a Colyseus
 * server's client likewise, to a plain socket as a binary envelope. A delta message goes as
 * the payload of `opts.tracker` (`sendBytes` when the target has it). Throws TupletError on
 * an invalid value.
 *
 * ```ts
 * // server, every tick, for each client (one tracker per client):
 * send(s2c, client, { name: "world:snapshot", value: snapshotFor(client) }, { tracker: trackers.get(client) });
 * ```
 */
export function send<M extends MessageMap>(dir: Direction<M>, target: RoomLike | ClientLike | SocketLike, msg: MessageOf<M>, opts?: SendOptions): void {
  const c = (dir.byName as Record<string, MessageCodec<unknown> | undefined>)[msg.name];
  if (c === undefined) throw unknownMessageName(msg.name);
  const t = opts?.tracker;
  let bytes: Uint8Array | undefined;
  if (t !== undefined) {
    bytes = t.encode(msg.value as never);
    if (bytes === undefined) return;
  } else if (c.delta !== undefined && opts?.shape !== "named") {
    throw new TupletError("delta_payload", `${msg.name} is a delta message; send it with { tracker } (a Tracker per peer)`);
  }
  if ("onMessage" in target || "sendBytes" in target) {
    const room = target as RoomLike;
    if (bytes === undefined) room.send(msg.name, c.toWire(msg.value, opts));
    else if (room.sendBytes !== undefined) room.sendBytes(msg.name, bytes);
    else room.send(msg.name, bytes);
  } else {
    const socket = target as SocketLike;
    const f = frame(c, msg.value, opts, bytes);
    if (c.unreliable && socket.sendDatagram !== undefined) socket.sendDatagram(f);
    else socket.send(f);
  }
}

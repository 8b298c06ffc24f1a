/**
 * Scripted players over real WebSockets (the `ws` package, permessage-deflate offered as
 * browsers do): an `input:batch` every 66 ms, a `diag:ping` every 2 s, half of them driving
 * their own car, a few sending garbage. Each keeps a `Mirror` (or the JSON twin's mirror)
 * of its snapshots and, at the end, compares it with what the object says it last sent.
 */

import WebSocket from "ws";
import {
  c2s,
  createDispatcher,
  envelope,
  Mirror,
  newReader,
  readInt,
  s2c,
  WorldSnapshot$delta,
  WorldSnapshotCodec,
  type Buttons,
  type InputFrame,
  type WorldSnapshot,
} from "village-protocol";
import { JsonMirror, type JsonEntity, type JsonSnapshot } from "./worker/json_delta.js";
import { rng } from "../src/sim.js";

/** Which city class a bot talks to. */
export type Mode = "tuplet" | "json";

/** What the object reports about one player at the end. */
export interface PlayerReport {
  frames: number;
  gaps: number;
  valid: number;
  snapshot: { tick: number; bytes?: string; entities?: JsonEntity[] } | null;
}

/** Buttons with only `held` pressed. */
function buttons(held: Partial<Buttons>): Buttons {
  return { forward: false, back: false, left: false, right: false, jump: false, sprint: false, interact: false, primary: false, aim: false, brake: false, horn: false, ...held };
}

/** The garbage a bad bot sends, in turn: each is dropped by the object with a code. */
const GARBAGE: readonly { what: string; data: () => Uint8Array | string }[] = [
  { what: "never-used marker 0xc1", data: () => Uint8Array.of(0xc1) },
  { what: "input:batch with dt 200 (range 1..100)", data: () => Uint8Array.of(90, 0x92, 1, 0x91, 0x94, 0xcc, 200, 0, 0x92, 0, 0, 0) },
  { what: "input:batch cut short", data: () => Uint8Array.of(90, 0x92, 1, 0x91, 0x94, 16) },
  { what: "unknown message id 4000", data: () => Uint8Array.of(0xcd, 0x0f, 0xa0, 0x90) },
  { what: "text frame", data: () => "{\"type\":\"input\"}" },
  { what: "diag:ping with a string nonce", data: () => Uint8Array.of(70, 0x93, 0xa1, 0x78, 0, 0xc2) },
];

/** One scripted player. */
export class Bot {
  readonly driving: boolean;
  readonly garbage: boolean;
  private ws: WebSocket | undefined;
  private readonly rand: () => number;
  private timers: ReturnType<typeof setInterval>[] = [];
  private readonly mirror = new Mirror<WorldSnapshot>(WorldSnapshot$delta);
  private readonly jsonMirror = new JsonMirror();
  /** Recent full values by tick (the mirror after each snapshot), for the final comparison. */
  private readonly history = new Map<number, unknown>();
  private lastTick = -1;
  private first = 0;
  private nonce = 0;
  private heading = 0;
  private x = 0;
  private y = 0;
  private carId: number | undefined;
  private seated = false;
  private readonly dispatcher;
  /** Counters the lab reads. */
  framesSent = 0;
  /** What was sent before the object last lost its memory (hibernation): not in its counts. */
  framesBefore = 0;
  garbageBefore = 0;
  batchesSent = 0;
  garbageSent = 0;
  pings = 0;
  pongs = 0;
  readonly rtts: number[] = [];
  snapshots = 0;
  keyframes = 0;
  snapshotsAfterGarbage = 0;
  mirrorErrors = 0;
  closedEarly = "";

  constructor(
    readonly name: string,
    readonly mode: Mode,
    seed: number,
    index: number,
    garbage: boolean,
  ) {
    this.rand = rng(seed * 1000 + index);
    this.driving = index % 2 === 1;
    this.garbage = garbage;
    this.dispatcher = createDispatcher(s2c, {
      "diag:pong": (v) => {
        this.pongs += 1;
        this.rtts.push(Date.now() - v.sent);
      },
      "vehicle:seat": (v) => {
        if (v.vehicle === this.carId && v.occupant === this.name) this.seated = true;
      },
    });
  }

  /** Connects through `url` (the proxy) and starts playing; fails after `timeoutMs` without an open socket. */
  connect(url: string, timeoutMs = 15_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: true, handshakeTimeout: timeoutMs });
      ws.binaryType = "nodebuffer";
      this.ws = ws;
      ws.once("open", () => {
        this.start();
        resolve();
      });
      ws.once("unexpected-response", (_req, res) => reject(new Error(`${this.name}: upgrade refused: HTTP ${res.statusCode}`)));
      ws.once("error", reject);
      ws.once("upgrade", (res) => {
        const h = res.headers["sec-websocket-extensions"];
        this.negotiated = Array.isArray(h) ? h.join(", ") : (h ?? "");
      });
      ws.on("message", (data: Buffer, isBinary: boolean) => this.onMessage(data, isBinary));
      ws.on("close", (code, reason) => {
        if (this.timers.length > 0) this.closedEarly = `${code} ${reason.toString()}`;
        this.stop();
      });
    });
  }

  /** The extensions the server accepted, with their parameters (`Sec-WebSocket-Extensions`). */
  negotiated = "";

  /** Bytes this bot's TCP connection has read (down) and written (up), the upgrade included. */
  get socketBytes(): { down: number; up: number } {
    const sock = (this.ws as unknown as { _socket?: { bytesRead: number; bytesWritten: number } } | undefined)?._socket;
    return { down: sock?.bytesRead ?? 0, up: sock?.bytesWritten ?? 0 };
  }

  /** The extensions the server accepted (permessage-deflate when compression is on). */
  get extensions(): string {
    return this.negotiated;
  }

  private start(): void {
    this.timers.push(setInterval(() => this.sendBatch(), 66));
    const t = setTimeout(() => {
      this.timers.push(setInterval(() => this.ping(), 2000));
      this.ping();
    }, Math.floor(this.rand() * 2000));
    this.timers.push(t as unknown as ReturnType<typeof setInterval>);
    if (this.garbage) this.timers.push(setInterval(() => this.sendGarbage(), 500));
  }

  /** Starts counting afresh (the object forgot what came before: it hibernated). */
  epoch(): void {
    this.framesBefore = this.framesSent;
    this.garbageBefore = this.garbageSent;
  }

  /** Starts sending again after `stop`. */
  resume(): void {
    if (this.timers.length === 0) this.start();
  }

  /** Stops sending (the socket stays open). */
  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  close(): void {
    this.stop();
    this.ws?.close(1000, "done");
  }

  private send(bytes: Uint8Array | string): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(bytes);
  }

  private sendBatch(): void {
    const frames: InputFrame[] = [];
    for (let i = 0; i < 4; i++) frames.push(this.frame());
    this.send(envelope(c2s, { name: "input:batch", value: { first: this.first, frames } }));
    this.first += frames.length;
    this.framesSent += frames.length;
    this.batchesSent += 1;
  }

  /** One 16 ms frame: walkers wander around the square, drivers circle in their car. */
  private frame(): InputFrame {
    const r = this.rand;
    if (this.driving && this.seated) {
      const steer = Math.round(30 + r() * 40);
      return { dt: 16, buttons: buttons({ forward: r() < 0.8, brake: r() < 0.05 }), look: [0, 0], steer };
    }
    // Walk; turn back towards the centre when far from it.
    let turn = (r() - 0.5) * 0.2;
    const away = Math.hypot(this.x, this.y) > 40;
    if (away) {
      const want = Math.atan2(-this.y, -this.x);
      let d = want - this.heading;
      while (d > Math.PI) d -= 2 * Math.PI;
      while (d < -Math.PI) d += 2 * Math.PI;
      turn = Math.max(-0.3, Math.min(0.3, d));
    }
    this.heading += turn;
    const forward = r() < 0.7;
    const sprint = forward && r() < 0.2;
    const v = forward ? (sprint ? 5 : 1.6) : 0;
    this.x += Math.cos(this.heading) * v * 0.016;
    this.y += Math.sin(this.heading) * v * 0.016;
    return { dt: 16, buttons: buttons({ forward, sprint }), look: [Math.round(turn * 1000) / 1000, 0], steer: 0 };
  }

  private ping(): void {
    this.pings += 1;
    this.send(envelope(c2s, { name: "diag:ping", value: { nonce: this.nonce++, sent: Date.now(), want_stats: false } }));
  }

  private sendGarbage(): void {
    const g = GARBAGE[this.garbageSent % GARBAGE.length]!;
    this.send(g.data());
    this.garbageSent += 1;
    this.snapshotsAfterGarbage = 0;
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (!isBinary) {
      const msg = JSON.parse(data.toString("utf8")) as JsonSnapshot;
      if (msg.t !== "snap") return;
      try {
        this.jsonMirror.apply(msg);
      } catch {
        this.mirrorErrors += 1;
        return;
      }
      this.snapshot(msg.tick, msg.kf === true, this.jsonMirror.value);
      return;
    }
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const r = newReader(bytes);
    const id = readInt(r, 0, 4294967295);
    if (id !== WorldSnapshotCodec.id) {
      this.dispatcher.onBytes(bytes);
      return;
    }
    let v: WorldSnapshot;
    try {
      v = this.mirror.apply(bytes.subarray(r.pos));
    } catch (e) {
      // The mirror is dropped: ask for a keyframe (what a real client does).
      if (this.mirrorErrors === 0 && process.env.LAB_DEBUG) console.error(this.name, e, Buffer.from(bytes).toString("hex").slice(0, 200));
      this.mirrorErrors += 1;
      this.send(envelope(c2s, { name: "world:keyframe", value: { last_tick: Math.max(0, this.lastTick) } }));
      return;
    }
    this.snapshot(v.tick, v.keyframe, v);
  }

  private snapshot(tick: number, keyframe: boolean, value: unknown): void {
    this.snapshots += 1;
    this.snapshotsAfterGarbage += 1;
    if (keyframe) this.keyframes += 1;
    this.lastTick = tick;
    this.history.set(tick, value);
    this.history.delete(tick - 200);
    if (this.driving && this.carId === undefined) {
      const ents = this.mode === "json" ? (value as JsonEntity[]) : (value as WorldSnapshot).entities;
      const car = ents.find((e) => e.owner === this.name && e.kind === "Vehicle");
      if (car !== undefined) {
        this.carId = car.id;
        this.send(envelope(c2s, { name: "vehicle:enter", value: { vehicle: car.id } }));
      }
    }
  }

  /** Waits (up to `ms`) until this bot has applied the snapshot of `tick`. */
  async reached(tick: number, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (this.lastTick < tick && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    return this.lastTick >= tick;
  }

  /** What is wrong at the end, by the object's report of this player (empty: all good). */
  check(rep: PlayerReport | undefined): string[] {
    const bad: string[] = [];
    if (rep === undefined) return [`${this.name}: not in the object's report`];
    if (this.closedEarly !== "") bad.push(`${this.name}: disconnected early (${this.closedEarly})`);
    const sent = this.framesSent - this.framesBefore;
    if (rep.frames !== sent) bad.push(`${this.name}: sent ${sent} valid input frames, the object applied ${rep.frames}`);
    if (rep.gaps !== 0) bad.push(`${this.name}: ${rep.gaps} gaps in its input sequence at the object`);
    if (this.garbage && this.garbageSent > 0 && this.snapshotsAfterGarbage === 0) bad.push(`${this.name}: no snapshot after its last garbage`);
    if (this.pings > 1 && this.pongs < this.pings - 1) bad.push(`${this.name}: ${this.pings} pings, ${this.pongs} pongs`);
    const s = rep.snapshot;
    if (s === null) return [...bad, `${this.name}: the object sent it no snapshot`];
    const mine = this.history.get(s.tick);
    if (mine === undefined) return [...bad, `${this.name}: has no mirror value for tick ${s.tick} (last ${this.lastTick})`];
    let theirs: unknown;
    if (this.mode === "json") theirs = s.entities;
    else {
      const d = WorldSnapshotCodec.decode(Uint8Array.from(Buffer.from(s.bytes ?? "", "base64")));
      if (!d.ok) return [...bad, `${this.name}: the object's report does not decode: ${d.issues[0]?.code}`];
      theirs = d.value;
    }
    if (canon(mine) !== canon(theirs)) bad.push(`${this.name}: mirror at tick ${s.tick} differs from the object's state`);
    return bad;
  }
}

/** JSON with object keys sorted and absent optionals left out (for equality of values). */
export function canon(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return x;
    const o = x as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => [k, o[k]]));
  });
}

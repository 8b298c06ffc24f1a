/**
 * The four strategies, fed the same messages and frames: (a) the Colyseus tutorial's
 * 20%-per-frame lerp, (b) @geckos.io/snapshot-interpolation as its README uses it, (c) the
 * village game's first interpolator (arrival-time stamps, a fixed 120 ms), (d) tuplet's.
 * Every strategy draws x, y and the stamp time it shows (a third channel, drawn like x and y),
 * so the lab can compare the drawing against the truth at the drawn time.
 */
import { SnapshotInterpolation } from "@geckos.io/snapshot-interpolation";
import { Interpolator, InterpState } from "../../../codegen/ts-runtime/interp.js";
import { NETCODE_DEFAULTS, type NetcodeSettings } from "../../../codegen/ts-runtime/settings.js";
import { RenderClock } from "../../../codegen/ts-runtime/render_clock.js";

/** What a frame drew for one entity. */
export const Drew = { Normal: 0, Extrapolated: 1, Snapped: 2, Held: 3, Nothing: 4 } as const;

/** One entity as the lab describes it to a strategy. */
export interface EntityInfo {
  /** Stamped by a server tick (snapshot stream) instead of its sender's clock. */
  readonly tick: boolean;
}

/** A strategy drawing every entity. */
export interface Strategy {
  readonly name: string;
  /** Moves: `stamp` is the sender's clock; snapshots: the server's tick time. */
  message(e: number, stamp: number, arrived: number, x: number, y: number): void;
  /** A snapshot message arrived (before its entities' `message` calls). */
  snapshot(stamp: number, arrived: number): void;
  /** Draws every entity at our clock's `now`. */
  frame(now: number): void;
  /** Drawn x, y, stamp time and what happened, per entity. */
  readonly drawn: Float64Array;
  readonly drew: Uint8Array;
  /** The interpolation delay this strategy uses for entity `e` (ms), NaN when it has none. */
  buffer(e: number): number;
}

/** The teleport test every strategy that snaps uses (tuplet's settings). */
function teleport(dx: number, dy: number, dtMs: number): boolean {
  const d = Math.hypot(dx, dy);
  return d > NETCODE_DEFAULTS.teleportDistance && d > NETCODE_DEFAULTS.teleportSpeed * dtMs * 0.001;
}

/** (a) Colyseus tutorial: every frame, move 20% of the way to the latest value. */
export class Lerp implements Strategy {
  readonly name = "colyseus-lerp";
  readonly drawn: Float64Array;
  readonly drew: Uint8Array;
  private readonly target: Float64Array;
  private readonly seen: Uint8Array;
  constructor(n: number) {
    this.drawn = new Float64Array(n * 3);
    this.drew = new Uint8Array(n).fill(Drew.Nothing);
    this.target = new Float64Array(n * 3);
    this.seen = new Uint8Array(n);
  }
  message(e: number, stamp: number, _arrived: number, x: number, y: number): void {
    this.target[e * 3] = x; this.target[e * 3 + 1] = y; this.target[e * 3 + 2] = stamp;
    if (this.seen[e] === 0) { this.seen[e] = 1; this.drawn.set(this.target.subarray(e * 3, e * 3 + 3), e * 3); }
  }
  snapshot(): void {}
  frame(): void {
    for (let e = 0; e < this.seen.length; e++) {
      if (this.seen[e] === 0) continue;
      for (let c = 0; c < 3; c++) this.drawn[e * 3 + c]! += (this.target[e * 3 + c]! - this.drawn[e * 3 + c]!) * 0.2;
      this.drew[e] = Drew.Normal;
    }
  }
  buffer(): number { return NaN; }
}

const ID = Array.from({ length: 64 }, (_, i) => `e${i}`);

/** (b) @geckos.io/snapshot-interpolation: one instance per stream, `new SnapshotInterpolation(rate)`. */
export class Geckos implements Strategy {
  readonly name = "geckos";
  readonly drawn: Float64Array;
  readonly drew: Uint8Array;
  private readonly si: (SnapshotInterpolation | undefined)[] = [];
  private world: SnapshotInterpolation | undefined;
  private pending: { id: string; x: number; y: number; t: number }[] = [];
  private pendingTime = 0;
  private readonly tickIds: number[];
  constructor(private readonly entities: readonly EntityInfo[], private readonly clock: { now: number }) {
    this.drawn = new Float64Array(entities.length * 3);
    this.drew = new Uint8Array(entities.length).fill(Drew.Nothing);
    this.tickIds = entities.flatMap((e, i) => (e.tick ? [i] : []));
  }
  private flush(): void {
    if (this.pending.length === 0) return;
    this.world ??= new SnapshotInterpolation(20);
    // the server made it at its tick time (Date.now() on the server's clock)
    const at = this.clock.now;
    this.clock.now = this.pendingTime;
    const snap = SnapshotInterpolation.CreateSnapshot(this.pending);
    this.clock.now = at;
    this.world.snapshot.add(snap);
    this.pending = [];
  }
  snapshot(stamp: number): void {
    this.flush();
    this.pendingTime = stamp;
  }
  message(e: number, stamp: number, _arrived: number, x: number, y: number): void {
    if (this.entities[e]!.tick) { this.pending.push({ id: ID[e]!, x, y, t: stamp }); return; }
    let si = this.si[e];
    if (!si) { si = new SnapshotInterpolation(10); this.si[e] = si; }
    const at = this.clock.now;
    this.clock.now = stamp; // SI.snapshot.create on the sender, at its Date.now()
    const snap = SnapshotInterpolation.CreateSnapshot([{ id: ID[e]!, x, y, t: stamp }]);
    this.clock.now = at;
    si.snapshot.add(snap);
  }
  frame(): void {
    this.flush();
    for (let e = 0; e < this.entities.length; e++) {
      if (this.entities[e]!.tick) continue;
      const si = this.si[e];
      const r = si?.calcInterpolation("x y t");
      this.take(e, r?.state as unknown as { id: string; x: number; y: number; t: number }[] | undefined);
    }
    if (this.world) {
      const r = this.world.calcInterpolation("x y t");
      const st = r?.state as unknown as { id: string; x: number; y: number; t: number }[] | undefined;
      for (const e of this.tickIds) this.take(e, st);
    }
  }
  private take(e: number, st: { id: string; x: number; y: number; t: number }[] | undefined): void {
    const id = ID[e]!;
    const s = st?.find((v) => v.id === id);
    if (!s) { if (this.drew[e] !== Drew.Nothing) this.drew[e] = Drew.Held; return; }
    this.drawn[e * 3] = s.x; this.drawn[e * 3 + 1] = s.y; this.drawn[e * 3 + 2] = s.t;
    this.drew[e] = Drew.Normal;
  }
  buffer(e: number): number {
    return this.entities[e]!.tick ? 150 : 300;
  }
}

/** (c) The village game's first interpolator: arrival-time stamps, 120 ms, a ring of 4. */
export class Arrival implements Strategy {
  readonly name = "arrival-120ms";
  readonly drawn: Float64Array;
  readonly drew: Uint8Array;
  private readonly ring: Float64Array; // per entity 4 × (arrived, x, y, stamp)
  private readonly count: Uint8Array;
  private readonly cut: Float64Array; // arrival time of a teleport sample, NaN if none
  constructor(n: number) {
    this.drawn = new Float64Array(n * 3);
    this.drew = new Uint8Array(n).fill(Drew.Nothing);
    this.ring = new Float64Array(n * 16);
    this.count = new Uint8Array(n);
    this.cut = new Float64Array(n).fill(NaN);
  }
  message(e: number, stamp: number, arrived: number, x: number, y: number): void {
    const r = this.ring, b = e * 16;
    let k = this.count[e]!;
    if (k > 0) {
      const p = b + (k - 1) * 4;
      if (teleport(x - r[p + 1]!, y - r[p + 2]!, stamp - r[p + 3]!)) { k = 0; this.cut[e] = arrived; }
    }
    if (k === 4) { r.copyWithin(b, b + 4, b + 16); k = 3; }
    const o = b + k * 4;
    r[o] = arrived; r[o + 1] = x; r[o + 2] = y; r[o + 3] = stamp;
    this.count[e] = k + 1;
  }
  snapshot(): void {}
  frame(now: number): void {
    const rt = now - 120;
    for (let e = 0; e < this.count.length; e++) {
      const k = this.count[e]!;
      if (k === 0) continue;
      const r = this.ring, b = e * 16;
      let j = k - 1;
      while (j >= 0 && r[b + j * 4]! > rt) j--;
      let st: number = Drew.Normal;
      if (j < 0) {
        for (let c = 0; c < 3; c++) this.drawn[e * 3 + c] = r[b + 1 + c]!;
        if (this.cut[e] === this.cut[e]) { st = Drew.Snapped; this.cut[e] = NaN; }
      } else if (j === k - 1) {
        for (let c = 0; c < 3; c++) this.drawn[e * 3 + c] = r[b + j * 4 + 1 + c]!;
        st = Drew.Held;
      } else {
        const a = b + j * 4, n = a + 4, u = (rt - r[a]!) / (r[n]! - r[a]!);
        for (let c = 0; c < 3; c++) this.drawn[e * 3 + c] = r[a + 1 + c]! + (r[n + 1 + c]! - r[a + 1 + c]!) * u;
      }
      this.drew[e] = st;
    }
  }
  buffer(): number { return 120; }
}

/** (d) tuplet: one `Interpolator` per entity; the snapshot stream through a `RenderClock`. */
export class Tuplet implements Strategy {
  readonly name = "tuplet";
  readonly drawn: Float64Array;
  readonly drew: Uint8Array;
  readonly its: Interpolator[];
  readonly clock: RenderClock;
  private readonly ch = new Float64Array(3);
  constructor(private readonly entities: readonly EntityInfo[], settings?: Partial<NetcodeSettings>) {
    const s = { teleportChannels: 2, ...settings };
    // x, y drawn; the stamp held: the drawn time is the interpolator's own render time, or,
    // while it holds a sample (waiting at a teleport for the render time to reach it), that
    // sample's stamp: the time of what it shows
    this.its = entities.map(() => new Interpolator({ linear: 2, angle: 0, hold: 1 }, s));
    this.clock = new RenderClock(s);
    this.drawn = new Float64Array(entities.length * 3);
    this.drew = new Uint8Array(entities.length).fill(Drew.Nothing);
  }
  snapshot(stamp: number, arrived: number): void {
    this.clock.observe(stamp, arrived);
  }
  message(e: number, stamp: number, arrived: number, x: number, y: number): void {
    this.ch[0] = x; this.ch[1] = y; this.ch[2] = stamp;
    if (this.entities[e]!.tick) this.its[e]!.pushAt(stamp, this.ch);
    else this.its[e]!.pushSent(stamp, arrived, this.ch);
  }
  frame(now: number): void {
    const rt = this.clock.now(now);
    for (let e = 0; e < this.its.length; e++) {
      const it = this.its[e]!;
      const st = this.entities[e]!.tick ? (rt === rt ? it.sampleAt(rt) : InterpState.Empty) : it.sample(now);
      if (st === InterpState.Empty) continue;
      this.drawn[e * 3] = it.out[0]!;
      this.drawn[e * 3 + 1] = it.out[1]!;
      this.drawn[e * 3 + 2] = st === InterpState.Holding ? it.out[2]! : it.renderTime;
      this.drew[e] =
        st === InterpState.Extrapolating ? Drew.Extrapolated
        : st === InterpState.Snapped ? Drew.Snapped
        : st === InterpState.Holding ? Drew.Held
        : Drew.Normal;
    }
  }
  buffer(e: number): number {
    const it = this.its[e]!;
    return this.entities[e]!.tick ? this.clock.lag - this.clock.timing.offset : it.lag - it.timing.offset;
  }
}

/**
 * (e) Mirror's `SnapshotInterpolation` with its defaults, per stream: a local timeline a buffer
 * of two send intervals behind the newest remote time, advanced each frame at a timescale that
 * catches up 2% when the drift (an exponential average of newest remote time − timeline, over
 * one second of sends, minus the buffer) exceeds one send interval and slows down 4% below minus
 * one; lerp between the snapshots around it, holding the first or the last outside them; a
 * teleport resets the stream (as `NetworkTransform` does). Without its dynamic adjustment.
 */
export class MirrorSI implements Strategy {
  readonly name = "mirror";
  readonly drawn: Float64Array;
  readonly drew: Uint8Array;
  private readonly buf: number[][]; // per entity: remote, x, y, stamp, ...
  private readonly timeline: Float64Array;
  private readonly scale: Float64Array;
  private readonly drift: Float64Array;
  private readonly seen: Uint8Array;
  private last = NaN;
  constructor(private readonly entities: readonly EntityInfo[], private readonly interval: (e: number) => number) {
    const n = entities.length;
    this.drawn = new Float64Array(n * 3);
    this.drew = new Uint8Array(n).fill(Drew.Nothing);
    this.buf = entities.map(() => []);
    this.timeline = new Float64Array(n);
    this.scale = new Float64Array(n).fill(1);
    this.drift = new Float64Array(n);
    this.seen = new Uint8Array(n);
  }
  snapshot(): void {}
  message(e: number, stamp: number, _arrived: number, x: number, y: number): void {
    const b = this.buf[e]!;
    const iv = this.interval(e);
    const bufferTime = 2 * iv;
    if (b.length > 0 && teleport(x - b[b.length - 3]!, y - b[b.length - 2]!, stamp - b[b.length - 4]!)) b.length = 0;
    if (b.length > 0 && !(stamp > b[b.length - 4]!)) return;
    if (b.length === 0) {
      this.timeline[e] = stamp - bufferTime;
      this.drift[e] = bufferTime;
      this.seen[e] = 1;
    }
    b.push(stamp, x, y, stamp);
    if (b.length > 4 * 32) b.splice(0, 4);
    const n = Math.max(1, 1000 / iv); // driftEmaDuration 1 s of sends
    const alpha = 2 / (n + 1);
    this.drift[e] = this.drift[e]! + alpha * (stamp - this.timeline[e]! - this.drift[e]!);
    const drift = this.drift[e]! - bufferTime;
    this.scale[e] = drift > iv ? 1.02 : drift < -iv ? 0.96 : 1;
  }
  frame(now: number): void {
    const dt = this.last === this.last ? now - this.last : 0;
    this.last = now;
    for (let e = 0; e < this.entities.length; e++) {
      if (this.seen[e] === 0) continue;
      const b = this.buf[e]!;
      const t = (this.timeline[e] = this.timeline[e]! + dt * this.scale[e]!);
      let j = b.length - 4;
      while (j >= 0 && b[j]! > t) j -= 4;
      let st: number = Drew.Normal;
      if (j < 0) {
        for (let c = 0; c < 3; c++) this.drawn[e * 3 + c] = b[1 + c]!;
        st = Drew.Held;
      } else if (j === b.length - 4) {
        for (let c = 0; c < 3; c++) this.drawn[e * 3 + c] = b[j + 1 + c]!;
        st = Drew.Held;
      } else {
        const u = (t - b[j]!) / (b[j + 4]! - b[j]!);
        for (let c = 0; c < 3; c++) this.drawn[e * 3 + c] = b[j + 1 + c]! + (b[j + 5 + c]! - b[j + 1 + c]!) * u;
      }
      this.drew[e] = st;
    }
  }
  buffer(e: number): number {
    return 2 * this.interval(e);
  }
}

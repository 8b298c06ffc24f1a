/**
 * The generated interpolation adapters' types and the helpers that feed decoded values into an
 * `InterpolatedSet` (ATTRIBUTES.md "Interpolation", docs/netcode-attributes.md).
 *
 * A message or record declared `interp` gets `X$interp`: an `InterpAdapter` when it draws its
 * own fields (key, sample time, `write` into channels, `read` back), an `InterpClock` when it
 * only carries drawn records (`world:snapshot`). Channels are linear, then angle, then hold.
 *
 * ```ts
 * const players = new InterpolatedSet<string>(PlayerMoveRelayed$interp.layout);
 * on("player:move", (m) => feed(players, PlayerMoveRelayed$interp, m, performance.now()));
 * const npcs = new EntityFeed(new InterpolatedSet<number>(NearbyEntity$interp.layout), NearbyEntity$interp);
 * on("world:snapshot", (s) => npcs.update(WorldSnapshot$interp.time(s), s.entities, performance.now()));
 * ```
 */

import type { ChannelLayout, Interpolator } from "./interp.js";
import type { InterpolatedSet } from "./pool.js";

/** How a value's samples are stamped. */
export type InterpClockKind = "sent" | "tick" | "arrival" | "carrier";

/** The sample clock of an `interp` message. */
export interface InterpClock<T> {
  /** `sent`: the sender's ms; `tick`: server ticks at `rate`; `arrival`: none on the wire; `carrier`: its message's. */
  readonly clock: InterpClockKind;
  /** Ticks per second for `tick`, else 0. */
  readonly rate: number;
  /** The sample time in ms on its clock (`tick * 1000 / rate` for ticks); NaN without one. */
  time(v: T): number;
}

/** What a drawn message or record generates: its layout, key and channel copies. */
export interface InterpAdapter<T, K> extends InterpClock<T> {
  /** Channel counts. */
  readonly layout: ChannelLayout;
  /** The entity key. */
  key(v: T): K;
  /** Copies the drawn fields into `channels` (linear, angle, hold). */
  write(v: T, channels: Float64Array): void;
  /** Writes drawn channels back into `out` (fields not drawn are left as they are). */
  read(channels: ArrayLike<number>, out: T): void;
}

/** The value of a unit enum for a held channel's number `n` (`numbers`: `X$numbers`). */
export function unitOf(numbers: Readonly<Record<string, number>>, n: number, open: boolean): string | number {
  for (const name in numbers) if (numbers[name] === n) return name;
  return open ? n : Object.keys(numbers)[0]!;
}

/** Pushes one sample `v` (arrived at our `arrivedMs`) into `set`, stamped on `a`'s clock. */
export function feed<T, K>(set: InterpolatedSet<K>, a: InterpAdapter<T, K>, v: T, arrivedMs: number): Interpolator {
  const it = set.enter(a.key(v));
  a.write(v, it.input);
  push(it, a.clock, a.time(v), arrivedMs);
  return it;
}

/** Pushes a carried record `v` at its carrier's `timeMs` on the carrier's `clock`. */
export function feedCarried<T, K>(
  set: InterpolatedSet<K>,
  a: InterpAdapter<T, K>,
  v: T,
  clock: InterpClockKind,
  timeMs: number,
  arrivedMs: number,
): Interpolator {
  const it = set.enter(a.key(v));
  a.write(v, it.input);
  push(it, clock, timeMs, arrivedMs);
  return it;
}

function push(it: Interpolator, clock: InterpClockKind, timeMs: number, arrivedMs: number): void {
  if (clock === "sent") it.pushSent(timeMs, arrivedMs);
  else if (clock === "tick") it.pushAt(timeMs);
  else it.pushSent(arrivedMs, arrivedMs);
}

/**
 * Keeps a set in step with a list of entities (a delta `Mirror`'s, as the dispatcher hands a
 * `world:snapshot` over): each update enters and pushes every entity listed and lets go of
 * those no longer listed, their interpolators pooled, so steady state allocates nothing.
 */
export class EntityFeed<T, K> {
  /** The interpolators, keyed by entity. */
  readonly set: InterpolatedSet<K>;
  /** The entities' adapter. */
  readonly adapter: InterpAdapter<T, K>;
  private readonly seen = new Map<K, number>();
  private round = 0;

  /** A feed of `set` through `adapter`. */
  constructor(set: InterpolatedSet<K>, adapter: InterpAdapter<T, K>) {
    this.set = set;
    this.adapter = adapter;
  }

  /** One snapshot: `entities` sampled at `timeMs` on the carrier's `clock` (default `tick`). */
  update(timeMs: number, entities: readonly T[], arrivedMs: number, clock: InterpClockKind = "tick"): void {
    const round = ++this.round;
    for (let i = 0; i < entities.length; i++) {
      const v = entities[i]!;
      feedCarried(this.set, this.adapter, v, clock, timeMs, arrivedMs);
      this.seen.set(this.adapter.key(v), round);
    }
    // Backwards: `leave` moves the last live entry into the hole, one already visited.
    for (let i = this.set.size - 1; i >= 0; i--) {
      const k = this.set.keyAt(i);
      if (this.seen.get(k) !== round) {
        this.set.leave(k);
        this.seen.delete(k);
      }
    }
  }
}

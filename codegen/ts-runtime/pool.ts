/**
 * Interpolators keyed by entity, pooled (`InterpolatedSet`). Mirrors Rust's
 * `tuplet::netcode::InterpolatedSet`.
 */
import { Interpolator, type ChannelLayout } from "./interp.js";
import type { NetcodeSettings } from "./settings.js";

/** How many keys that left view the index keeps beyond the live ones (see `index`). */
const GONE_MAX = 256;

/**
 * Interpolators keyed by entity, pooled: an entity entering view reuses an interpolator a
 * leaving one gave back, so view changes allocate nothing in steady state. Live entries are
 * dense (`at(i)`, `keyAt(i)` for `i < size`), so a frame loop needs no iterator.
 */
export class InterpolatedSet<K> {
  /** The layout every interpolator here has. */
  readonly layout: ChannelLayout;
  private readonly settings: Partial<NetcodeSettings> | undefined;
  /**
   * Key -> index in `live`, or -1 for a key that left view: V8's Map allocates a new table when
   * deleted entries pile up, so a key that left stays as -1 (no garbage when it comes back) until
   * there are more such keys than `GONE_MAX` and the live ones; then they are deleted at once.
   */
  private readonly index = new Map<K, number>();
  private gone = 0;
  private readonly live: Interpolator[] = [];
  private readonly keys: K[] = [];
  private readonly free: Interpolator[] = [];

  /** A set of interpolators of `layout`, with `settings` over the defaults. */
  constructor(layout: ChannelLayout, settings?: Partial<NetcodeSettings>) {
    this.layout = layout;
    this.settings = settings;
  }

  /** Live entities. */
  get size(): number {
    return this.live.length;
  }

  /** The `i`th live interpolator (`0 <= i < size`). */
  at(i: number): Interpolator {
    return this.live[i]!;
  }

  /** The key of the `i`th live interpolator. */
  keyAt(i: number): K {
    return this.keys[i]!;
  }

  /** The interpolator of `key`, if it is in view. */
  get(key: K): Interpolator | undefined {
    const i = this.index.get(key);
    return i === undefined || i < 0 ? undefined : this.live[i];
  }

  /** The interpolator of `key`: the live one, or a pooled (reset) or new one. */
  enter(key: K): Interpolator {
    const i = this.index.get(key);
    if (i !== undefined && i >= 0) return this.live[i]!;
    if (i !== undefined) this.gone--;
    const it = this.free.pop() ?? new Interpolator(this.layout, this.settings);
    this.index.set(key, this.live.length);
    this.live.push(it);
    this.keys.push(key);
    return it;
  }

  /** `key` left view: its interpolator is reset and pooled. Returns false when it was not live. */
  leave(key: K): boolean {
    const i = this.index.get(key);
    if (i === undefined || i < 0) return false;
    const it = this.live[i]!;
    const last = this.live.length - 1;
    if (i !== last) {
      this.live[i] = this.live[last]!;
      this.keys[i] = this.keys[last]!;
      this.index.set(this.keys[i]!, i);
    }
    this.live.pop();
    this.keys.pop();
    this.index.set(key, -1);
    if (++this.gone > GONE_MAX + this.live.length) this.forgetGone();
    it.reset();
    this.free.push(it);
    return true;
  }

  /** Deletes the keys that left view from the index (see `index`). */
  private forgetGone(): void {
    for (const [k, i] of this.index) if (i < 0) this.index.delete(k);
    this.gone = 0;
  }

  /** Draws every live entity at our clock's `nowMs` (`Interpolator.sample`). */
  sampleAll(nowMs: number): void {
    for (let i = 0; i < this.live.length; i++) this.live[i]!.sample(nowMs);
  }
}

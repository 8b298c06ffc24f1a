/** Bounded meters: counts by key with a cap on distinct keys, and a ring of recent samples. */

/** Counts by key; past `maxKeys` distinct keys, new keys count under `(other)`. */
export class Counts {
  private readonly m = new Map<string, number>();
  total = 0;

  constructor(private readonly maxKeys: number) {}

  add(key: string): void {
    const k = this.m.has(key) || this.m.size < this.maxKeys - 1 ? key : "(other)";
    this.m.set(k, (this.m.get(k) ?? 0) + 1);
    this.total += 1;
  }

  /** The counts as a key-sorted `Map`. */
  map(): Map<string, number> {
    return new Map([...this.m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  }

  clear(): void {
    this.m.clear();
    this.total = 0;
  }

  /** The counts as a plain object (JSON). */
  toJSON(): Record<string, number> {
    return Object.fromEntries(this.map());
  }
}

/** The last `size` samples. */
export class Window {
  private readonly xs: Float64Array;
  private n = 0;

  constructor(size: number) {
    this.xs = new Float64Array(size);
  }

  push(x: number): void {
    this.xs[this.n % this.xs.length] = x;
    this.n += 1;
  }

  clear(): void {
    this.n = 0;
  }

  private sorted(): Float64Array {
    return this.xs.slice(0, Math.min(this.n, this.xs.length)).sort();
  }

  /** The q-quantile (nearest rank) of the samples held, 0 when empty. */
  quantile(q: number): number {
    const s = this.sorted();
    if (s.length === 0) return 0;
    return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  }

  max(): number {
    return this.quantile(1);
  }

  /** Count, mean, p50, p99 and max of the samples held. */
  summary(): { n: number; mean: number; p50: number; p99: number; max: number } {
    const s = this.sorted();
    const at = (q: number): number => (s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(q * s.length))]!);
    let sum = 0;
    for (const x of s) sum += x;
    return { n: s.length, mean: s.length === 0 ? 0 : sum / s.length, p50: at(0.5), p99: at(0.99), max: at(1) };
  }
}

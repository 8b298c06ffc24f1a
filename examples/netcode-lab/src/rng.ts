/** A small deterministic PRNG (mulberry32): the lab's every random draw comes from a seed. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = (seed * 0x9e3779b9) >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Uniform in [a, b). */
  range(a: number, b: number): number {
    return a + (b - a) * this.next();
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}

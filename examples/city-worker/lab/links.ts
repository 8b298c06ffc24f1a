/**
 * The city game's simulated links (its write-up's network lab), shared by the input lab and
 * the render-clock lab: one direction of a WebSocket, in order, each message delayed by a base,
 * a uniform jitter, and on a share of messages a spike on top.
 */

/** A one-way link: base delay, uniform jitter, and a share of messages held longer. In order, like a WebSocket. */
export interface Link {
  readonly name: string;
  readonly base: number;
  readonly jitter: number;
  readonly spikeShare: number;
  readonly spike: number;
}

/** The seed's links (clean, Wi-Fi, far), a perfect one, and the village game's 0–80 ms jitter. */
export const LINKS: readonly Link[] = [
  { name: "none", base: 0, jitter: 0, spikeShare: 0, spike: 0 },
  { name: "clean", base: 25, jitter: 5, spikeShare: 0, spike: 0 },
  { name: "wifi", base: 45, jitter: 30, spikeShare: 0.02, spike: 120 },
  { name: "far", base: 110, jitter: 25, spikeShare: 0.02, spike: 150 },
  { name: "jitter80", base: 0, jitter: 80, spikeShare: 0, spike: 0 },
];

/** Messages on one direction of a link: delivered in order, each at max(its own delay, the previous arrival). */
export class Pipe<T> {
  private readonly q: { at: number; v: T }[] = [];
  private last = 0;
  constructor(
    private readonly link: Link,
    private readonly rand: () => number,
  ) {}
  send(now: number, v: T): void {
    const l = this.link;
    let d = l.base + this.rand() * l.jitter;
    if (l.spikeShare > 0 && this.rand() < l.spikeShare) d += this.rand() * l.spike;
    this.last = Math.max(this.last, now + d);
    this.q.push({ at: this.last, v });
  }
  /** Messages arrived by `now`, oldest first. */
  take(now: number, f: (v: T, at: number) => void): void {
    while (this.q.length > 0 && this.q[0]!.at <= now) {
      const m = this.q.shift()!;
      f(m.v, m.at);
    }
  }
  /** Messages still on the way. */
  get pending(): number {
    return this.q.length;
  }
}

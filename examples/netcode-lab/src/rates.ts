/**
 * Faster senders: the lab's entities with their own senders at 20 and 60 Hz instead of 10 Hz
 * (the relays still forward every 3rd and 10th move), on the Wi-Fi, village and stalling Wi-Fi
 * links at 60 fps. At 60 Hz the 16 samples of tuplet's ring span 250 ms, less than the delay a
 * stall leaves behind, so a full ring thins out (`interp_ring.ts`); the checks hold there as
 * they do at 10 Hz.
 */
import { link } from "./links.js";
import { ENTITIES, NAMES, WARMUP, run } from "./sim.js";
import { Meter, quantile, type Tally } from "./metrics.js";

/** The send intervals (ms) and links this section runs. */
export const RATES: readonly { readonly hz: number; readonly ms: number }[] = [
  { hz: 20, ms: 50 },
  { hz: 60, ms: 1000 / 60 },
];
const LINK_NAMES = ["wifi", "village", "wifi-stalls"] as const;

/** One rate × link: a tally per strategy, per seed. */
interface Cell {
  readonly hz: number;
  readonly link: string;
  readonly per: Tally[][];
}

/**
 * Runs every rate × link × seed and applies `check` (the checks of the main table that hold
 * for any send rate); returns the table's Markdown lines.
 */
export function senderRates(seeds: readonly number[], durationMs: number, check: (ok: boolean, what: string) => void): string[] {
  const tuplet = NAMES.indexOf("tuplet");
  const cells: Cell[] = [];
  for (const r of RATES) {
    for (const name of LINK_NAMES) {
      const per: Tally[][] = [];
      for (const seed of seeds) {
        const m = new Meter(NAMES.length, ENTITIES.length, () => true, (t) => t >= WARMUP);
        const { truths } = run({ seed, link: link(name), fps: 60, event: "steady", durationMs, sendMs: r.ms, onFrame: (f) => m.frame(f) });
        for (const t of m.tallies) t.nominal(truths);
        per.push(m.tallies);
      }
      cells.push({ hz: r.hz, link: name, per });
      process.stderr.write(`netcode lab: senders at ${r.hz} Hz, ${name}, ${seeds.length} seed(s)\n`);
    }
  }
  const med = (xs: number[]): number => quantile(xs, 0.5);
  const pct = (x: number): string => (100 * x).toFixed(x < 0.1 ? 2 : 1);
  const lines: string[] = [
    "| senders | link | strategy | off-speed % | jank % | error p95 at nominal delay (m) | idle error p99 (cm) | slides / stops overshot / wrong-way turns | delay p50 (ms) | extrapolated % |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const c of cells) {
    const at = (si: number, f: (t: Tally) => number): number[] => c.per.map((s) => f(s[si]!));
    const key = `senders at ${c.hz} Hz, ${c.link}, 60 fps`;
    const off = NAMES.map((_, si) => med(at(si, (t) => t.offShare)));
    const bad = Math.max(...at(tuplet, (t) => t.slid.size + t.overshot.size + t.turnedWrong.size));
    check(bad === 0, `${key}: tuplet draws only what was sent, every seed (${bad} slides, stops overshot or turns the wrong way)`);
    const idle = Math.max(...at(tuplet, (t) => quantile(t.idleErr, 0.99)));
    check(idle <= 0.01, `${key}: tuplet idle error p99 ${(100 * idle).toFixed(2)} cm <= 1 cm`);
    const others = Math.min(...off.filter((_, si) => si !== tuplet));
    check(off[tuplet]! <= others + 0.001, `${key}: tuplet off-speed ${pct(off[tuplet]!)}% lowest (others ${off.filter((_, si) => si !== tuplet).map(pct).join("/")}%)`);
    if (c.link !== "wifi-stalls") {
      const ex = med(at(tuplet, (t) => t.extrapolated / Math.max(1, t.frames)));
      check(ex <= 0.005, `${key}: tuplet extrapolated frames ${pct(ex)}% <= 0.5%`);
    }
    NAMES.forEach((n, si) => {
      const worst = (f: (t: Tally) => number): number => Math.max(...at(si, f));
      lines.push(
        `| ${c.hz} Hz | ${c.link} | ${si === tuplet ? `**${n}**` : n} | ${pct(off[si]!)} | ${pct(med(at(si, (t) => t.jankShare)))} | ` +
          `${med(at(si, (t) => quantile(t.nominalErr, 0.95))).toFixed(2)} | ${(100 * worst((t) => quantile(t.idleErr, 0.99))).toFixed(2)} | ` +
          `${worst((t) => t.slid.size)} / ${worst((t) => t.overshot.size)} / ${worst((t) => t.turnedWrong.size)} | ` +
          `${med(at(si, (t) => quantile(t.delay, 0.5))).toFixed(0)} | ${pct(med(at(si, (t) => t.extrapolated / Math.max(1, t.frames))))} |`,
      );
    });
  }
  return lines;
}

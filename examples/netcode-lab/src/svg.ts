/** The picture: drawn vs true speed over 10 s, five strategies, the Wi-Fi link, 60 fps. */
import { link } from "./links.js";
import { run } from "./sim.js";

const W = 900, PANEL = 150, PAD = 40;
const COLORS = ["#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#2ca02c"];

/** An SVG of the turning car's speed (entity 1) from 10 s to 20 s of seed `seed`. */
export function speedSvg(seed: number, durationMs: number): string {
  const from = 10000, to = 20000, e = 1;
  const names: string[] = [];
  const drawn: number[][] = [[], [], [], [], []];
  const truth: number[][] = [[], [], [], [], []];
  const prev = [NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN];
  run({
    seed, link: link("wifi"), fps: 60, event: "steady", durationMs: Math.max(durationMs, to + 500),
    onFrame: (f) => {
      f.strategies.forEach((s, si) => {
        names[si] = s.name;
        const x = s.drawn[e * 3]!, y = s.drawn[e * 3 + 1]!, tt = s.drawn[e * 3 + 2]! - f.skew[e]!;
        const px = prev[si * 2]!, py = prev[si * 2 + 1]!;
        prev[si * 2] = x; prev[si * 2 + 1] = y;
        if (f.trueNow < from || f.trueNow > to || px !== px || f.dt <= 0) return;
        drawn[si]!.push(f.trueNow, (Math.hypot(x - px, y - py) / f.dt) * 1000);
        truth[si]!.push(f.trueNow, f.truths[e]!.speedAt(tt));
      });
    },
  });
  const vmax = 25;
  const sx = (t: number): number => PAD + ((t - from) / (to - from)) * (W - 2 * PAD);
  const parts: string[] = [];
  const H = PAD + 5 * (PANEL + 20);
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  parts.push(`<text x="${PAD}" y="20" font-size="14">Drawn (colour) vs true speed at the drawn time (grey) of a turning car, m/s; Wi-Fi link, 60 fps, 10 Hz moves, seed ${seed}, 10–20 s</text>`);
  for (let si = 0; si < 5; si++) {
    const top = PAD + si * (PANEL + 20);
    const sy = (v: number): number => top + PANEL - (Math.min(v, vmax) / vmax) * PANEL;
    parts.push(`<rect x="${PAD}" y="${top}" width="${W - 2 * PAD}" height="${PANEL}" fill="none" stroke="#ccc"/>`);
    for (const v of [0, 10, 20]) parts.push(`<text x="${PAD - 6}" y="${sy(v) + 4}" text-anchor="end" fill="#666">${v}</text><line x1="${PAD}" x2="${W - PAD}" y1="${sy(v)}" y2="${sy(v)}" stroke="#eee"/>`);
    const line = (pts: number[], color: string, w: number): void => {
      let d = "";
      for (let i = 0; i < pts.length; i += 2) d += `${i ? "L" : "M"}${sx(pts[i]!).toFixed(1)} ${sy(pts[i + 1]!).toFixed(1)}`;
      parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="${w}"/>`);
    };
    line(truth[si]!, "#999", 3);
    line(drawn[si]!, COLORS[si]!, 1.2);
    parts.push(`<text x="${PAD + 6}" y="${top + 16}" fill="${COLORS[si]}" font-weight="bold">${names[si] ?? ""}</text>`);
  }
  for (let s = 10; s <= 20; s += 2) parts.push(`<text x="${sx(s * 1000)}" y="${H - 6}" text-anchor="middle" fill="#666">${s} s</text>`);
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}

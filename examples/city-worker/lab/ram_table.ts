/**
 * The input lab's ramming table (lab/ramming.ts): per link and mode, means over seeds of the
 * driver's corrections and the watcher's hitches, with the checks the issue sets.
 */

import { LINKS } from "./links.js";
import { MAX_REWIND_MS, ram, type Mode, type RamResult } from "./ramming.js";

const MODES: readonly { mode: Mode; name: string }[] = [
  { mode: "none", name: "no prediction of others" },
  { mode: "ahead", name: "prediction to now" },
  { mode: "lagcomp", name: "prediction to now + lag compensation" },
];

/** The seed's corrections per 30 s ramming traffic: before its work, and after (Wi-Fi and far only). */
const SEED_BEFORE: Record<string, string> = { clean: "18", wifi: "37", far: "286" };
const SEED_AFTER: Record<string, string> = { clean: "–", wifi: "~7", far: "18" };

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

/** Runs every link and mode over `seeds`; returns the table's lines, pushes failed checks to `problems`. */
export function ramTable(seeds: readonly number[], seconds: number, problems: string[]): string[] {
  const rows = [
    `Ramming traffic (the seed's setup): a bot driver laps the centre and rams moving AI traffic and parked cars; ${seeds.length} seeds × ${seconds} s per link and row, means over seeds. Corrections: the driver's prediction moving >4 cm when the server's answer arrives. Jump: the most the drawn own car moved in one frame apart from its prediction. Converge: from a counted correction until its offset is under 1 cm. The server's rewind is capped at ${MAX_REWIND_MS} ms.`,
    "",
    "| link | row | corrections >4 cm | largest (cm) | largest jump (cm) | snaps | converge p50 / max (ms) | watched car's hitches | crashes | views capped | seed before / after |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const link of LINKS) {
    if (!(link.name in SEED_BEFORE)) continue;
    for (const { mode, name } of MODES) {
      const rs: RamResult[] = seeds.map((s) => ram(link, s, seconds, mode));
      const mean = (f: (r: RamResult) => number): number => rs.reduce((s, r) => s + f(r), 0) / rs.length;
      const corr = mean((r) => r.corrections);
      const maxC = Math.max(...rs.map((r) => r.maxCorrection));
      const jump = Math.max(...rs.map((r) => r.maxJump));
      const conv = rs.flatMap((r) => r.converge);
      rows.push(
        `| ${link.name} | ${name} | ${corr.toFixed(1)} | ${(maxC * 100).toFixed(1)} | ${(jump * 100).toFixed(2)} | ${rs.reduce((s, r) => s + r.snaps, 0)} | ${pct(conv, 0.5).toFixed(0)} / ${Math.max(0, ...conv).toFixed(0)} | ${mean((r) => r.hitches).toFixed(1)} | ${mean((r) => r.crashes).toFixed(1)} | ${rs.reduce((s, r) => s + r.capped, 0)} | ${SEED_BEFORE[link.name]} / ${SEED_AFTER[link.name]} |`,
      );
      if (rs.some((r) => r.crashes === 0)) problems.push(`${link.name} ${mode}: a run without a crash (the bot must ram)`);
      if (jump > 0.0201) problems.push(`${link.name} ${mode}: the own car jumped ${(jump * 100).toFixed(2)} cm in a frame (> 2 cm)`);
      if (mode === "lagcomp") {
        const target = link.name === "far" ? 7 : 3;
        if (corr > target) problems.push(`${link.name} lagcomp: ${corr.toFixed(1)} corrections per ${seconds} s, more than ${target}`);
        if (link.name === "far" && !(maxC < 0.2)) problems.push(`far lagcomp: largest correction ${(maxC * 100).toFixed(1)} cm, not under 20`);
      }
    }
  }
  return rows;
}

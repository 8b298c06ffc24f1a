/** The links: one-way latency per message (ms), drawn from a seed. */
import type { Rng } from "./rng.js";

/** A link profile. */
export interface Link {
  readonly name: string;
  /** What it models, for the table. */
  readonly about: string;
  latency(rng: Rng): number;
  /** Stalls of 200–300 ms every 2–4 s (a Wi-Fi link scanning, a congested uplink). */
  readonly stalls?: boolean;
}

/** The six links of the lab. */
export const LINKS: readonly Link[] = [
  { name: "none", about: "no network: 1 ms, no jitter", latency: () => 1 },
  { name: "clean", about: "25 ms + up to 5 ms jitter", latency: (r) => 25 + r.range(0, 5) },
  {
    name: "wifi",
    about: "45 ms + up to 30 ms, 2% held up to 120 ms more",
    latency: (r) => 45 + r.range(0, 30) + (r.chance(0.02) ? r.range(0, 120) : 0),
  },
  {
    name: "far",
    about: "110 ms + up to 25 ms, 2% spikes up to 150 ms",
    latency: (r) => 110 + r.range(0, 25) + (r.chance(0.02) ? r.range(0, 150) : 0),
  },
  { name: "village", about: "0–80 ms uniform jitter (the village game's simulation)", latency: (r) => r.range(0, 80) },
  {
    name: "wifi-stalls",
    about: "Wi-Fi with stalls of 200–300 ms every 2–4 s",
    latency: (r) => 45 + r.range(0, 30) + (r.chance(0.02) ? r.range(0, 120) : 0),
    stalls: true,
  },
];

/** The link named `name`. */
export function link(name: string): Link {
  const l = LINKS.find((l) => l.name === name);
  if (!l) throw new Error(`no link named ${name}`);
  return l;
}

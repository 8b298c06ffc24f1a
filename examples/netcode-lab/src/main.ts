/**
 * The network lab (`scripts/bench netcode`; docs/netcode.md): every link × frame rate × seed,
 * five strategies on the same traces, the tables BENCHMARKS.md quotes, the checks of issues #38
 * and #50, and the speed picture (docs/netcode-speed.svg).
 *
 *   node build/examples/netcode-lab/src/main.js [--smoke] [--seeds N] [--seconds S] [--svg FILE]
 *
 * --smoke: one seed, every link and frame rate and event and the faster senders, every check, no
 * timing, no table.
 * Exit status 1 when a check fails (each failed check is printed).
 */
import { LINKS, link } from "./links.js";
import { ENTITIES, EVENT_AT, EVENT_MS, NAMES, WARMUP, run, type Event } from "./sim.js";
import { Meter, quantile, type Tally } from "./metrics.js";
import { speedSvg } from "./svg.js";
import { senderRates } from "./rates.js";
import { writeFileSync } from "node:fs";

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const smoke = args.includes("--smoke");
const seeds = Array.from({ length: smoke ? 1 : Number(opt("--seeds") ?? 6) }, (_, i) => i + 1);
const seconds = Number(opt("--seconds") ?? 30);
const durationMs = seconds * 1000;
const svgPath = opt("--svg");
const FPS = [60, 144];
const TUPLET = NAMES.indexOf("tuplet");
const S = NAMES.length;
const NEAR_MOVES = (e: number): boolean => !ENTITIES[e]!.tick && ENTITIES[e]!.stride === 1;

interface Cell { all: Tally[]; near: Tally[] }
const med = (xs: number[]): number => quantile(xs, 0.5);
const cells = new Map<string, Cell[]>(); // "link fps" -> per seed

const failures: string[] = [];
function check(ok: boolean, what: string): void {
  if (!ok) failures.push(what);
  process.stderr.write(`${ok ? "ok  " : "FAIL"} ${what}\n`);
}
/**
 * Issue #50's targets (and issue #38's jank guard) the runtime does not reach yet: measured and printed (UNMET) in the
 * table's list, never counted as passing, never failing the run.
 */
const unmet: string[] = [];
function target(ok: boolean, what: string): void {
  if (!ok) unmet.push(what);
  process.stderr.write(`${ok ? "met " : "UNMET"} target: ${what}\n`);
}

for (const l of LINKS) {
  for (const fps of FPS) {
    const per: Cell[] = [];
    for (const seed of seeds) {
      const all = new Meter(S, ENTITIES.length, () => true, (t) => t >= WARMUP);
      const near = new Meter(S, ENTITIES.length, NEAR_MOVES, (t) => t >= WARMUP);
      const { truths } = run({ seed, link: l, fps, event: "steady", durationMs, onFrame: (f) => { all.frame(f); near.frame(f); } });
      for (const t of [...all.tallies, ...near.tallies]) t.nominal(truths);
      per.push({ all: all.tallies, near: near.tallies });
    }
    cells.set(`${l.name} ${fps}`, per);
    process.stderr.write(`netcode lab: ${l.name} ${fps} fps, ${seeds.length} seed(s)\n`);
  }
}

// ---- events: hidden tab (5 s) and stall (1 s), Wi-Fi, 60 fps ----
interface EventResult { jumpEarly: number; jump: number; offAfter: number; jankAfter: number; rate: number; jankFrames: number; jankSteady: number; jankSteadyShare: number }
const events = new Map<Event, EventResult[][]>(); // per seed, per strategy
for (const ev of ["hidden", "stall"] as const) {
  const per: EventResult[][] = [];
  for (const seed of seeds) {
    const resume = EVENT_AT + EVENT_MS[ev];
    // the same seed without the event, over the same window: the link's own late bursts (a
    // message held up to 120 ms more) hold a drawing at its newest sample there too
    const steady = new Meter(S, ENTITIES.length, () => true, (t) => t >= resume + 500 && t < resume + 2500);
    run({ seed, link: link("wifi"), fps: 60, event: "steady", durationMs: Math.max(durationMs, resume + 4000), onFrame: (f) => steady.frame(f) });
    // a hidden tab's first frame is a resync nobody saw coming: jumps count from the next one
    const early = new Meter(S, ENTITIES.length, () => true, (t) => (ev === "hidden" ? t > resume : t >= resume) && t < resume + 500);
    const after = new Meter(S, ENTITIES.length, () => true, (t) => t >= resume + 500 && t < resume + 2500);
    // each entity alone, for how fast its drawn time runs 0.5–2.5 s after resuming
    const one = ENTITIES.map((_, e) => new Meter(S, ENTITIES.length, (x) => x === e, (t) => t >= resume + 500 && t < resume + 2500));
    run({
      seed, link: link("wifi"), fps: 60, event: ev, durationMs: Math.max(durationMs, resume + 4000),
      onFrame: (f) => { early.frame(f); after.frame(f); for (const m of one) m.frame(f); },
    });
    per.push(early.tallies.map((t, si) => {
      const a = after.tallies[si]!;
      return {
        jumpEarly: t.maxJump, jump: Math.max(t.maxJump, a.maxJump), offAfter: a.offShare, jankAfter: a.jankShare,
        rate: med(one.map((m) => m.tallies[si]!.rate)),
        jankFrames: a.jank, jankSteady: steady.tallies[si]!.jank, jankSteadyShare: steady.tallies[si]!.jankShare,
      };
    }));
  }
  events.set(ev, per);
  process.stderr.write(`netcode lab: ${ev}, ${seeds.length} seed(s)\n`);
}

// ---- faster senders: 20 and 60 Hz, checked as the main table is (rates.ts) ----
const ratesTable = senderRates(seeds, durationMs, check);

// ---- aggregation ----
const pct = (x: number): string => (100 * x).toFixed(x < 0.1 ? 2 : 1);
function stat(per: Cell[], si: number, f: (t: Tally) => number, group: "all" | "near" = "all"): { med: number; lo: number; hi: number } {
  const xs = per.map((c) => f(c[group][si]!));
  return { med: med(xs), lo: Math.min(...xs), hi: Math.max(...xs) };
}
const range = (s: { med: number; lo: number; hi: number }, fmt: (x: number) => string): string =>
  seeds.length > 1 ? `${fmt(s.med)} (${fmt(s.lo)}–${fmt(s.hi)})` : fmt(s.med);

// ---- checks (issue #38, "Must show") ----
const village = cells.get("village 60")!;
const seedC = stat(village, 2, (t) => t.offShare, "near");
const seedD = stat(village, TUPLET, (t) => t.offShare, "near");
const bufD = stat(village, TUPLET, (t) => quantile(t.buffer, 0.5), "near");
check(seedD.med <= 0.005, `village 0–80 ms, 10 Hz, 60 fps: tuplet off-speed ${pct(seedD.med)}% <= 0.5% (arrival-120ms: ${pct(seedC.med)}%, the village game measured about 28%)`);
const totC = stat(village, 2, (t) => quantile(t.delay, 0.5), "near");
const totD = stat(village, TUPLET, (t) => quantile(t.delay, 0.5), "near");
check(
  totD.med <= totC.med + 50,
  `village 0–80 ms: tuplet draws ${(totD.med - totC.med).toFixed(0)} ms further in the past than arrival-120ms (added delay p50 ${totD.med.toFixed(0)} vs ${totC.med.toFixed(0)} ms) <= 50 ms; its own delay above the clock offset p50 ${bufD.med.toFixed(0)} ms (120 + ${(bufD.med - 120).toFixed(0)})`,
);
const today = 194; // tuplet's village 60 fps added delay p50 before issue #50 (BENCHMARKS.md then)
check(totD.med <= today + 20, `village 0–80 ms: tuplet's added delay p50 ${totD.med.toFixed(0)} ms <= ${today} + 20 ms (before issue #50)`);
for (const [key, per] of cells) {
  const stalls = key.startsWith("wifi-stalls");
  const med = (si: number, f: (t: Tally) => number): number => stat(per, si, f).med;
  const worst = (si: number, f: (t: Tally) => number): number => stat(per, si, f).hi;
  const off = NAMES.map((_, si) => med(si, (t) => t.offShare));
  const d50 = NAMES.map((_, si) => med(si, (t) => quantile(t.delay, 0.5)));
  const nom = NAMES.map((_, si) => med(si, (t) => quantile(t.nominalErr, 0.95)));
  const counts = `slides ${worst(TUPLET, (t) => t.slid.size)}, stops overshot ${worst(TUPLET, (t) => t.overshot.size)}, turns the wrong way ${worst(TUPLET, (t) => t.turnedWrong.size)}`;
  check(worst(TUPLET, (t) => t.slid.size + t.overshot.size + t.turnedWrong.size) === 0, `${key} fps: tuplet draws only what was sent, every seed: ${counts}`);
  const idle = worst(TUPLET, (t) => quantile(t.idleErr, 0.99));
  check(idle <= 0.01, `${key} fps: tuplet idle error p99 ${(100 * idle).toFixed(2)} cm <= 1 cm`);
  const bestNom = Math.min(...nom.filter((_, si) => si !== TUPLET));
  target(nom[TUPLET]! <= bestNom + 1e-9, `${key} fps: tuplet error p95 at its nominal delay ${(100 * nom[TUPLET]!).toFixed(1)} cm <= the best other's ${(100 * bestNom).toFixed(1)} cm`);
  target(off[TUPLET]! <= 0.007, `${key} fps: tuplet off-speed ${pct(off[TUPLET]!)}% <= 0.7%`);
  // issue #38's guards: smoothest of the other strategies; less janky than the two buffered
  // interpolators of issue #38 (geckos, arrival-120ms). Least janky of all is a target: holding at
  // the newest sample janks where Mirror's buffer and the always-moving lerp do not.
  const jank = NAMES.map((_, si) => med(si, (t) => t.jankShare));
  const best = (xs: number[]): number => Math.min(...xs.slice(0, TUPLET));
  check(off[TUPLET]! <= best(off) + 0.001, `${key} fps: tuplet off-speed ${pct(off[TUPLET]!)}% lowest (others ${off.slice(0, TUPLET).map(pct).join("/")}%)`);
  const buffered = [NAMES.indexOf("geckos"), NAMES.indexOf("arrival-120ms")];
  check(buffered.every((si) => si >= 0 && jank[TUPLET]! <= jank[si]! + 0.001), `${key} fps: tuplet jank ${pct(jank[TUPLET]!)}% <= geckos' and arrival-120ms' (${buffered.map((si) => pct(jank[si]!)).join("/")}%)`);
  target(jank[TUPLET]! <= best(jank) + 0.001, `${key} fps: tuplet jank ${pct(jank[TUPLET]!)}% lowest (others ${jank.slice(0, TUPLET).map(pct).join("/")}%)`);
  const both = NAMES.filter((_, si) => si !== TUPLET && off[si]! < off[TUPLET]! && d50[si]! < d50[TUPLET]!);
  check(both.length === 0, `${key} fps: no strategy both smoother and drawing less far in the past than tuplet${both.length ? ` (${both.join(", ")})` : ""}`);
  if (!stalls) {
    const ex = med(TUPLET, (t) => t.extrapolated / Math.max(1, t.frames));
    check(ex <= 0.005, `${key} fps: tuplet extrapolated frames ${pct(ex)}% <= 0.5%`);
  }
}
for (const [ev, per] of events) {
  const r = (f: (x: EventResult) => number): number => Math.max(...per.map((s) => f(s[TUPLET]!)));
  // jank: no frame more than the same seed's run without the event over the same window (the
  // link's own late bursts, which a drawing holds through at its newest sample, visible or not)
  const more = r((x) => x.jankFrames - x.jankSteady);
  check(r((x) => x.offAfter) <= 0.01 && more <= 0, `${ev}: smooth again within 0.5 s: from 0.5 s to 2.5 s after resuming, tuplet off-speed ${pct(r((x) => x.offAfter))}% <= 1%, jank ${pct(r((x) => x.jankAfter))}% (without the ${ev === "hidden" ? "hidden tab" : ev}: ${pct(r((x) => x.jankSteadyShare))}%), ${Math.max(0, more)} janked frame(s) more than without it`);
  check(r((x) => x.rate) <= 1.05, `${ev}: no fast-forward: 0.5–2.5 s after resuming tuplet's drawn time runs at ${r((x) => x.rate).toFixed(3)}x real time <= 1.05x`);
  check(r((x) => x.jump) <= 8, `${ev}: tuplet's largest jump ${r((x) => x.jump).toFixed(2)} m <= the teleport distance (8 m)`);
}

// ---- the picture ----
if (svgPath) {
  writeFileSync(svgPath, speedSvg(1, durationMs));
  process.stderr.write(`netcode lab: wrote ${svgPath}\n`);
}

// ---- the table ----
if (!smoke) {
  const out: string[] = [];
  out.push("## Netcode lab: drawing remote entities (`scripts/bench netcode`)", "");
  out.push(
    `Five strategies on the same traces (examples/netcode-lab, deterministic from seeds; ${seeds.length} seeds × ${seconds} s per link and frame rate; median over seeds, range in brackets): ` +
      "(a) `colyseus-lerp`, the Colyseus tutorial's 20% per frame; (b) `geckos`, `@geckos.io/snapshot-interpolation` 1.1.1 as its README uses it; " +
      "(c) `arrival-120ms`, the village game's first interpolator; (d) `mirror`, Mirror's `SnapshotInterpolation` defaults (a buffer of two send intervals, 2% catch-up, 4% slow-down, no dynamic adjustment); (e) `tuplet`, `Interpolator` and `RenderClock`. " +
      "Eleven entities: six near players at 10 Hz (walker, turning car, stop-and-go, teleporter, 180° turns, long idles), a far walker and a far stop-and-go relayed every 3rd move (the relay always forwards the pose that ends a movement and the first after a silence), a very far car every 10th, and two entities of a 20 Hz tick-stamped snapshot. " +
      "Off-speed: frames where a moving entity is drawn more than 30% off its true speed; jank: frames where its drawn motion stops; error: distance to the truth at the drawn time, and at the nominal delay (true now minus the strategy's delay p50 over the frames that draw the entity moving, which keeps counting while a drawing freezes); idle: error while the entity stands still; slides: teleports drawn more than 2 m off within 1 s of them; overshoots: stops and 180° turns drawn more than 5 cm past; delay: true now minus the true time drawn (network included).",
    "",
  );
  out.push("| link | fps | strategy | off-speed % | jank % | error p95 (m) | error p95 at nominal delay (m) | error max (m) | idle error p99 (cm) | slides / stops overshot / wrong-way turns | delay p50 (ms) | delay p95 (ms) | snaps | extrapolated % |");
  out.push("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const l of LINKS) for (const fps of FPS) {
    const per = cells.get(`${l.name} ${fps}`)!;
    NAMES.forEach((n, si) => {
      const row = [
        l.name, String(fps), si === TUPLET ? `**${n}**` : n,
        range(stat(per, si, (t) => t.offShare), pct),
        range(stat(per, si, (t) => t.jankShare), pct),
        range(stat(per, si, (t) => quantile(t.err, 0.95)), (x) => x.toFixed(2)),
        range(stat(per, si, (t) => quantile(t.nominalErr, 0.95)), (x) => x.toFixed(2)),
        stat(per, si, (t) => t.errMax).hi.toFixed(2),
        stat(per, si, (t) => 100 * quantile(t.idleErr, 0.99)).hi.toFixed(2),
        `${stat(per, si, (t) => t.slid.size).hi} / ${stat(per, si, (t) => t.overshot.size).hi} / ${stat(per, si, (t) => t.turnedWrong.size).hi}`,
        stat(per, si, (t) => quantile(t.delay, 0.5)).med.toFixed(0),
        stat(per, si, (t) => quantile(t.delay, 0.95)).med.toFixed(0),
        stat(per, si, (t) => t.snaps).med.toFixed(0),
        pct(stat(per, si, (t) => t.extrapolated / Math.max(1, t.frames)).med),
      ];
      out.push(`| ${row.join(" | ")} |`);
    });
  }
  out.push("", "Links: " + LINKS.map((l) => `${l.name}: ${l.about}`).join("; ") + ".", "");
  out.push("The village game's experiment (0–80 ms jitter, 10 Hz, 60 fps, the four near players):", "");
  out.push(`- \`arrival-120ms\` off-speed ${pct(seedC.med)}% (${pct(seedC.lo)}–${pct(seedC.hi)}), beside the village game's about 28%; \`tuplet\` ${pct(seedD.med)}% (${pct(seedD.lo)}–${pct(seedD.hi)}).`);
  out.push(`- added delay p50 (true now minus the true time drawn, network included): \`tuplet\` ${totD.med.toFixed(0)} ms, \`arrival-120ms\` ${totC.med.toFixed(0)} ms: ${(totD.med - totC.med).toFixed(0)} ms more.`);
  out.push(`- \`tuplet\`'s own delay above its clock offset p50 ${bufD.med.toFixed(0)} ms (${bufD.lo.toFixed(0)}–${bufD.hi.toFixed(0)}) against \`arrival-120ms\`'s fixed 120 ms on arrival stamps.`, "");
  out.push("A hidden tab (5 s without frames) and a stall (1 s without messages) on the Wi-Fi link at 60 fps, worst over seeds, with the jank of the same seed without the event over the same window (the link's own late bursts):", "");
  out.push("| event | strategy | largest jump (m), first 0.5 s | largest jump (m), 0.5–2.5 s | off-speed % 0.5–2.5 s after | jank % 0.5–2.5 s after | jank % same window without the event | drawn time's rate 0.5–2.5 s after |");
  out.push("|---|---|---|---|---|---|---|---|");
  for (const [ev, per] of events) NAMES.forEach((n, si) => {
    const w = (f: (x: EventResult) => number): number => Math.max(...per.map((s) => f(s[si]!)));
    out.push(`| ${ev} | ${si === TUPLET ? `**${n}**` : n} | ${w((x) => x.jumpEarly).toFixed(2)} | ${w((x) => x.jump).toFixed(2)} | ${pct(w((x) => x.offAfter))} | ${pct(w((x) => x.jankAfter))} | ${pct(w((x) => x.jankSteadyShare))} | ${w((x) => x.rate).toFixed(3)} |`);
  });
  out.push(
    "",
    "Faster senders: the same entities with their own senders at 20 and 60 Hz (relays still forward every 3rd and 10th move), 60 fps, median over seeds (worst for the idle error and the counts). " +
      "At 60 Hz tuplet's ring of 16 spans 250 ms, less than the delay a stall leaves, and thins out rather than drop a sample the drawing still needs.",
    "",
    ...ratesTable,
  );
  out.push("", `Checks (issues #38 and #50, "Must show"): ${failures.length === 0 ? "all passed" : `${failures.length} failed`}.`);
  for (const f of failures) out.push(`- FAILED: ${f}`);
  out.push("", `Targets not met (measured, not checks: issue #50's nominal-delay error and 0.7% off-speed, issue #38's lowest jank): ${unmet.length === 0 ? "none" : unmet.length}.`);
  for (const u of unmet) out.push(`- UNMET: ${u}`);
  console.log(out.join("\n"));
}
if (unmet.length > 0) process.stderr.write(`netcode lab: ${unmet.length} target(s) of issue #50 not met (not checks)\n`);
if (failures.length > 0) {
  process.stderr.write(`netcode lab: ${failures.length} check(s) failed\n`);
  process.exitCode = 1;
}

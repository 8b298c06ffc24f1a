/**
 * The city lab: the bundled Worker on workerd (miniflare), scripted players behind a
 * byte-counting proxy, every check at the end of each round.
 *
 *   node build/lab.mjs --smoke            5 bots, a few seconds per city class, every check, no timing
 *   node build/lab.mjs [--bots 50] [--secs 60] [--seeds 1,2,3] [--capacity 50,100,150,200] [--cities 10] [--city-bots 50] [--bot-procs N] [--runtimes N]
 *
 * The cities round runs its bots in `--bot-procs` processes (fleet.ts; default one per 100
 * bots; 0 runs them in this process behind the proxy, as the other rounds do) and its cities
 * in `--runtimes` workerd processes (default one per 4 cities).
 *
 * Each round prints `RESULT {json}` on stdout; progress and failures go to stderr; the exit
 * status is 1 when any check failed.
 */

import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { Bot, type Mode, type PlayerReport } from "./bots.js";
import { startProxy, type Proxy } from "./proxy.js";
import { Fleet, type BotSpec, type BotState, type Checked } from "./fleet.js";
import { cpuNs, profileWorkerd, readWrangler, selfCpuNs, startWorkerd, workerdPids, type Runtime } from "./workerd.js";
import { sign } from "../src/token.js";

interface Args {
  smoke: boolean;
  bots: number;
  secs: number;
  seeds: number[];
  capacity: number[];
  cities: number;
  cityBots: number;
  /** Bot processes for the cities round (0: the bots run in this process, behind the proxy). */
  botProcs: number;
  /** workerd processes for the cities round (default one per 4 cities). */
  runtimes: number;
}

function args(argv: string[]): Args {
  const a: Args = { smoke: false, bots: 50, secs: 60, seeds: [1, 2, 3], capacity: [50, 100, 150, 200, 250], cities: 10, cityBots: 50, botProcs: -1, runtimes: 0 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const v = argv[i + 1] ?? "";
    const nums = (): number[] => v.split(",").filter((x) => x !== "").map(Number);
    if (k === "--smoke") a.smoke = true;
    else if (k === "--bots") (a.bots = Number(v)), i++;
    else if (k === "--secs") (a.secs = Number(v)), i++;
    else if (k === "--seeds") (a.seeds = nums()), i++;
    else if (k === "--capacity") (a.capacity = nums()), i++;
    else if (k === "--cities") (a.cities = Number(v)), i++;
    else if (k === "--city-bots") (a.cityBots = Number(v)), i++;
    else if (k === "--bot-procs") (a.botProcs = Number(v)), i++;
    else if (k === "--runtimes") (a.runtimes = Number(v)), i++;
    else throw new Error(`unknown argument ${k}; see the header of lab/run.ts`);
  }
  return a;
}

/** workerd's inspector port when CITY_PROFILE is set (CITY_PROFILE_PORT, default 9230). */
const PROFILE_PORT = process.env.CITY_PROFILE === undefined ? undefined : Number(process.env.CITY_PROFILE_PORT ?? 9230);

const log = (s: string): void => void process.stderr.write(s + "\n");
const failures: string[] = [];

/** One city's report (`/lab/report`). */
interface Report {
  instance: number;
  tick: number;
  clients: number;
  ticks: number;
  catchUp: number;
  secs: number;
  tickMs: { n: number; mean: number; p50: number; p99: number; max: number };
  lateMs: { p50: number; p99: number; max: number };
  saveMs: { n: number; p50: number; max: number };
  inbound: number;
  inboundPerS: number;
  accepted: number;
  dropped: Record<string, number>;
  ignored: Record<string, number>;
  snapBytes: number;
  sentBytes: number;
  sentMsgs: number;
  snapshotSlots: number;
  fullBytesMean: number;
  saved: number;
  rowsWritten: number;
  statements: number;
  running: boolean;
  players: Record<string, PlayerReport>;
}

class Lab {
  constructor(
    readonly rt: Runtime,
    readonly proxy: Proxy,
  ) {}

  pathOf(mode: Mode, what: string, city: string, extra = ""): string {
    return this.path(mode, what, city, extra);
  }

  private path(mode: Mode, what: string, city: string, extra = ""): string {
    return `${mode === "json" ? "/json" : ""}${what}?city=${city}${extra}`;
  }

  async lab<T>(mode: Mode, city: string, what: string, extra = ""): Promise<T> {
    const res = await this.rt.mf.dispatchFetch(new URL(this.path(mode, `/lab/${what}`, city, `&key=${this.rt.labKey}${extra}`), this.rt.url));
    if (!res.ok) throw new Error(`/lab/${what} for ${city}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  /** Connects `n` bots to one city, ten at a time (each group's handshakes in parallel). */
  async bots(mode: Mode, city: string, n: number, seed: number, cityIndex: number): Promise<Bot[]> {
    const out: Bot[] = [];
    for (let i = 0; i < n; i++) {
      const name = `${mode === "json" ? "j" : "t"}${String(seed % 100).padStart(2, "0")}${String(cityIndex % 100).padStart(2, "0")}${String(i).padStart(4, "0")}`;
      // A few garbage senders per city: one in ten, at least one.
      out.push(new Bot(name, mode, seed, i, i % 10 === 3 || (n < 10 && i === n - 1)));
    }
    for (let g = 0; g < n; g += 10) {
      await Promise.all(
        out.slice(g, g + 10).map(async (bot) => {
          const token = await sign(this.rt.secret, bot.name, Date.now() + 3_600_000);
          await bot.connect(`ws://127.0.0.1:${this.proxy.port}${this.path(mode, "/ws", city, `&token=${token}`)}`);
        }),
      );
      await sleep(20);
    }
    return out;
  }
}

/** The checks at the end of a round: each bot against its player's report. */
async function check(lab: Lab, mode: Mode, city: string, bots: Bot[], what: string): Promise<{ garbage: number; dropped: number }> {
  for (const b of bots) b.stop();
  // What the bots sent may still be in flight on a loaded machine: wait (up to 15 s) until
  // the object has applied every frame, then until each bot has the last snapshot sent.
  let rep = await lab.lab<Report>(mode, city, "report");
  for (let i = 0; i < 60; i++) {
    const behind = bots.some((b) => (rep.players[b.name]?.frames ?? -1) < b.framesSent - b.framesBefore);
    if (!behind) break;
    await sleep(250);
    rep = await lab.lab<Report>(mode, city, "report");
  }
  await sleep(300);
  rep = await lab.lab<Report>(mode, city, "report");
  const problems: string[] = [];
  await Promise.all(bots.map((b) => b.reached(rep.players[b.name]?.snapshot?.tick ?? 0, 10_000)));
  for (const b of bots) problems.push(...b.check(rep.players[b.name]));
  const garbage = bots.reduce((s, b) => s + b.garbageSent - b.garbageBefore, 0);
  const dropped = Object.values(rep.dropped).reduce((s, n) => s + n, 0);
  if (garbage > 0 && garbage !== dropped) problems.push(`${city}: bots sent ${garbage} garbage messages, the object dropped ${dropped} (${JSON.stringify(rep.dropped)})`);
  const ext = new Set(bots.map((b) => b.extensions));
  if (process.env.LAB_DEBUG) log(`extensions: ${[...ext].join(" | ")}`);
  if (![...ext].every((e) => e.includes("permessage-deflate"))) problems.push(`${city}: permessage-deflate not negotiated (${[...ext].join(" | ")})`);
  for (const p of problems.slice(0, 20)) log(`FAIL ${what}: ${p}`);
  if (problems.length > 20) log(`FAIL ${what}: ... ${problems.length - 20} more`);
  failures.push(...problems.map((p) => `${what}: ${p}`));
  return { garbage, dropped };
}

interface Round {
  what: string;
  mode: Mode;
  seed: number;
  cities: number;
  bots: number;
  secs: number;
  load: number;
  tickMean: number;
  tickP50: number;
  tickP99: number;
  tickMax: number;
  lateP99: number;
  snapPerPlayerTick: number;
  fullPerPlayerTick: number;
  wirePerPlayerTick: number;
  upPerPlayerTick: number;
  inboundPerS: number;
  workerdCpuUsPerTick: number;
  labCpuShare: number;
  mirrorErrors: number;
  garbage: number;
  dropped: number;
  rttP50: number;
  saveP50: number;
  /** Bot processes (0: the bots ran in the lab's process), and steps the objects ran to catch up after a stall. */
  botProcs: number;
  runtimes: number;
  catchUp: number;
  /** Checks of this round that failed, and the first of them. */
  failed: number;
  firstFailure: string;
}

/** The 1-minute load average (the machine is shared). */
function loadavg(): number {
  try {
    return Number(fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
  } catch {
    return 0;
  }
}

/** One measured round: `cities` cities of `n` bots each for `secs` seconds after a 3 s warm-up. */
async function round(lab: Lab, what: string, mode: Mode, seed: number, cities: number, n: number, secs: number, timing: boolean): Promise<Round> {
  const names = Array.from({ length: cities }, (_, k) => `s${seed}-c${k}-n${n}`);
  log(`${what}: ${mode}, seed ${seed}, ${cities} × ${n} bots, ${secs} s`);
  const f0 = failures.length;
  const all: Bot[][] = [];
  // Every city's bots connect at once (a city's ten at a time): 500 one after another take minutes.
  const c0 = Date.now();
  all.push(...(await Promise.all(names.map((c, k) => lab.bots(mode, c, n, seed, k)))));
  if (cities > 1) log(`  ${cities * n} bots connected in ${((Date.now() - c0) / 1000).toFixed(1)} s`);
  await sleep(timing ? 3000 : 1000);
  const load = loadavg();
  for (const c of names) await lab.lab(mode, c, "reset");
  const pids = workerdPids();
  const w0 = pids.reduce((s, p) => s + cpuNs(p), 0);
  const l0 = selfCpuNs();
  const p0 = lab.proxy.totals();
  const t0 = Date.now();
  // CITY_PROFILE=DIR: a CPU profile of workerd's isolate over the measured window, per round.
  const profileDir = process.env.CITY_PROFILE;
  if (profileDir !== undefined && PROFILE_PORT !== undefined) {
    const profile = await profileWorkerd(PROFILE_PORT, secs * 1000);
    fs.mkdirSync(profileDir, { recursive: true });
    fs.writeFileSync(`${profileDir}/${what}-${mode}-s${seed}.cpuprofile`, JSON.stringify(profile));
    await sleep(Math.max(0, secs * 1000 - (Date.now() - t0)));
  } else await sleep(secs * 1000);
  const p1 = lab.proxy.totals();
  const w1 = pids.reduce((s, p) => s + cpuNs(p), 0);
  const l1 = selfCpuNs();
  const wall = Date.now() - t0;
  const reps: Report[] = [];
  for (const c of names) reps.push(await lab.lab<Report>(mode, c, "report"));
  // Every city checked at once: an overloaded city's checks wait up to 25 s for what is in flight.
  const checks = await Promise.all(names.map((c, k) => check(lab, mode, c, all[k]!, what)));
  const garbage = checks.reduce((n, g) => n + g.garbage, 0);
  const dropped = checks.reduce((n, g) => n + g.dropped, 0);
  const bots = all.flat();
  for (const b of bots) b.close();
  await sleep(300);
  // Characters are saved on disconnect.
  for (const c of names) {
    const after = await lab.lab<Report>(mode, c, "report");
    if (after.saved < n) failures.push(`${what} ${c}: ${after.saved} characters saved after ${n} players left`);
  }
  const slots = reps.reduce((s, r) => s + r.snapshotSlots, 0);
  const ticks = reps.reduce((s, r) => s + r.ticks, 0) / cities;
  const med = (f: (r: Report) => number): number => median(reps.map(f));
  const rtts = bots.flatMap((b) => b.rtts);
  const r: Round = {
    what,
    mode,
    seed,
    cities,
    bots: n,
    secs,
    load,
    tickMean: med((r) => r.tickMs.mean),
    tickP50: med((r) => r.tickMs.p50),
    tickP99: Math.max(...reps.map((r) => r.tickMs.p99)),
    tickMax: Math.max(...reps.map((r) => r.tickMs.max)),
    lateP99: Math.max(...reps.map((r) => r.lateMs.p99)),
    snapPerPlayerTick: reps.reduce((s, r) => s + r.snapBytes, 0) / slots,
    fullPerPlayerTick: med((r) => r.fullBytesMean),
    wirePerPlayerTick: (p1.down - p0.down) / slots,
    upPerPlayerTick: (p1.up - p0.up) / slots,
    inboundPerS: med((r) => r.inboundPerS),
    workerdCpuUsPerTick: (w1 - w0) / 1000 / Math.max(1, ticks),
    labCpuShare: (l1 - l0) / 1e6 / wall,
    mirrorErrors: bots.reduce((s, b) => s + b.mirrorErrors, 0),
    garbage,
    dropped,
    rttP50: median(rtts),
    saveP50: med((r) => r.saveMs.p50),
    botProcs: 0,
    runtimes: 1,
    catchUp: reps.reduce((s, r) => s + r.catchUp, 0),
    failed: failures.length - f0,
    firstFailure: failures[f0] ?? "",
  };
  log(
    `  tick mean ${r.tickMean.toFixed(2)} p50 ${r.tickP50.toFixed(2)} ms p99 ${r.tickP99.toFixed(2)} ms; snapshot ${r.snapPerPlayerTick.toFixed(0)} B, wire ${r.wirePerPlayerTick.toFixed(0)} B, full ${r.fullPerPlayerTick.toFixed(0)} B per player per tick; ` +
      `${r.inboundPerS.toFixed(0)} msgs/s in; workerd ${r.workerdCpuUsPerTick.toFixed(0)} µs CPU per tick; load ${load}`,
  );
  process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
  return r;
}

/**
 * `round` with the bots in a fleet of processes (fleet.ts): city k's bots in process k mod n,
 * connected to workerd directly, bytes counted by each bot's socket; the same checks.
 */
async function fleetRound(labs: Lab[], fleet: Fleet, what: string, mode: Mode, seed: number, cities: number, n: number, secs: number): Promise<Round> {
  const names = Array.from({ length: cities }, (_, k) => `s${seed}-c${k}-n${n}`);
  const procs = fleet.kids.length;
  // City k lives in workerd process k mod labs.length.
  const labOf = (k: number): Lab => labs[k % labs.length]!;
  log(`${what}: ${mode}, seed ${seed}, ${cities} × ${n} bots in ${procs} processes, cities in ${labs.length} workerd processes, ${secs} s`);
  const f0 = failures.length;
  const shares: BotSpec[][] = Array.from({ length: procs }, () => []);
  for (const [k, city] of names.entries()) {
    const lab = labOf(k);
    const base = `ws://127.0.0.1:${lab.rt.url.port}`;
    for (let i = 0; i < n; i++) {
      const name = `${mode === "json" ? "j" : "t"}${String(seed % 100).padStart(2, "0")}${String(k % 100).padStart(2, "0")}${String(i).padStart(4, "0")}`;
      const token = await sign(lab.rt.secret, name, Date.now() + 3_600_000);
      const garbage = i % 10 === 3 || (n < 10 && i === n - 1);
      shares[k % procs]!.push({ name, mode, seed, index: i, garbage, url: `${base}${lab.pathOf(mode, "/ws", city, `&token=${token}`)}` });
    }
  }
  const c0 = Date.now();
  await Promise.all(shares.map((bots, k) => fleet.ask(k, { op: "connect", bots })));
  log(`  ${cities * n} bots connected in ${((Date.now() - c0) / 1000).toFixed(1)} s`);
  await sleep(3000);
  const load = loadavg();
  for (const [k, c] of names.entries()) await labOf(k).lab(mode, c, "reset");
  const pids = workerdPids();
  const w0 = pids.reduce((s, p) => s + cpuNs(p), 0);
  const l0 = selfCpuNs() + fleet.cpuNs();
  const b0 = await fleet.bytes();
  const t0 = Date.now();
  await sleep(secs * 1000);
  const b1 = await fleet.bytes();
  const w1 = pids.reduce((s, p) => s + cpuNs(p), 0);
  const l1 = selfCpuNs() + fleet.cpuNs();
  const wall = Date.now() - t0;
  const reps = await Promise.all(names.map((c, k) => labOf(k).lab<Report>(mode, c, "report")));
  // The checks: stop the bots, wait (up to 15 s) until every object applied every frame sent, then each bot against its player.
  const states = (await fleet.all<BotState[]>({ op: "stop" })).flat();
  const sent = new Map(states.map((b) => [b.name, b]));
  const finals = new Map<string, Report>();
  await Promise.all(
    names.map(async (c, k) => {
      const lab = labOf(k);
      let rep = await lab.lab<Report>(mode, c, "report");
      for (let i = 0; i < 60; i++) {
        if (!Object.entries(rep.players).some(([name, p]) => p.frames < (sent.get(name)?.framesSent ?? 0))) break;
        await sleep(250);
        rep = await lab.lab<Report>(mode, c, "report");
      }
      await sleep(300);
      finals.set(c, await lab.lab<Report>(mode, c, "report"));
    }),
  );
  const reports: Record<string, PlayerReport> = {};
  for (const r of finals.values()) Object.assign(reports, r.players);
  const checked = await fleet.all<Checked>({ op: "check", reports });
  const problems = checked.flatMap((c) => c.problems);
  let garbage = 0;
  let dropped = 0;
  for (const [k, c] of names.entries()) {
    const g = states.filter((b) => b.name.slice(3, 5) === String(k % 100).padStart(2, "0")).reduce((s, b) => s + b.garbageSent, 0);
    const d = Object.values(finals.get(c)!.dropped).reduce((s, x) => s + x, 0);
    garbage += g;
    dropped += d;
    if (g > 0 && g !== d) problems.push(`${c}: bots sent ${g} garbage messages, the object dropped ${d}`);
  }
  const ext = new Set(states.map((b) => b.extensions));
  if (![...ext].every((e) => e.includes("permessage-deflate"))) problems.push(`permessage-deflate not negotiated (${[...ext].join(" | ")})`);
  for (const p of problems.slice(0, 20)) log(`FAIL ${what}: ${p}`);
  if (problems.length > 20) log(`FAIL ${what}: ... ${problems.length - 20} more`);
  failures.push(...problems.map((p) => `${what}: ${p}`));
  await fleet.all({ op: "close" });
  await sleep(300);
  for (const [k, c] of names.entries()) {
    const after = await labOf(k).lab<Report>(mode, c, "report");
    if (after.saved < n) failures.push(`${what} ${c}: ${after.saved} characters saved after ${n} players left`);
  }
  const slots = reps.reduce((s, r) => s + r.snapshotSlots, 0);
  const ticks = reps.reduce((s, r) => s + r.ticks, 0) / cities;
  const med = (f: (r: Report) => number): number => median(reps.map(f));
  const r: Round = {
    what,
    mode,
    seed,
    cities,
    bots: n,
    secs,
    load,
    tickMean: med((r) => r.tickMs.mean),
    tickP50: med((r) => r.tickMs.p50),
    tickP99: Math.max(...reps.map((r) => r.tickMs.p99)),
    tickMax: Math.max(...reps.map((r) => r.tickMs.max)),
    lateP99: Math.max(...reps.map((r) => r.lateMs.p99)),
    snapPerPlayerTick: reps.reduce((s, r) => s + r.snapBytes, 0) / slots,
    fullPerPlayerTick: med((r) => r.fullBytesMean),
    wirePerPlayerTick: (b1.down - b0.down) / slots,
    upPerPlayerTick: (b1.up - b0.up) / slots,
    inboundPerS: med((r) => r.inboundPerS),
    workerdCpuUsPerTick: (w1 - w0) / 1000 / Math.max(1, ticks),
    labCpuShare: (l1 - l0) / 1e6 / wall,
    mirrorErrors: checked.reduce((s, c) => s + c.mirrorErrors, 0),
    garbage,
    dropped,
    rttP50: median(checked.flatMap((c) => c.rtts)),
    saveP50: med((r) => r.saveMs.p50),
    botProcs: procs,
    runtimes: labs.length,
    catchUp: reps.reduce((s, r) => s + r.catchUp, 0),
    failed: failures.length - f0,
    firstFailure: failures[f0] ?? "",
  };
  log(
    `  tick mean ${r.tickMean.toFixed(2)} p50 ${r.tickP50.toFixed(2)} ms p99 ${r.tickP99.toFixed(2)} ms; wire ${r.wirePerPlayerTick.toFixed(0)} B per player per tick; ` +
      `${r.inboundPerS.toFixed(0)} msgs/s in; workerd ${r.workerdCpuUsPerTick.toFixed(0)} µs CPU per tick; bots ${r.labCpuShare.toFixed(2)} cores; catch-up steps ${r.catchUp}; load ${load}`,
  );
  process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
  return r;
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/**
 * Hibernation: two players stop sending, the object's tick stops (`/lab/idle`), and the lab
 * waits for workerd to evict the object. An input then wakes it: the constructor rebuilds the
 * players from their sockets' attachments and the saved characters, with new trackers, and
 * the first snapshot after the wake is a keyframe that heals each client's mirror.
 */
async function hibernation(lab: Lab, waitS: number): Promise<void> {
  const city = "hibernate";
  const bots = await lab.bots("tuplet", city, 2, 9, 0);
  await sleep(1500);
  for (const b of bots) b.stop();
  const before = await lab.lab<Report>("tuplet", city, "report");
  await lab.lab("tuplet", city, "idle", "&after=0.5");
  const kf0 = bots.map((b) => b.keyframes);
  await sleep(1500);
  // Looking wakes nothing that is not awake already: the tick must have stopped by now.
  const idle = await lab.lab<Report>("tuplet", city, "report");
  if (idle.running) {
    log("FAIL hibernation: the tick still runs after 1.5 s without input");
    failures.push("hibernation: the tick still runs after 1.5 s without input");
  }
  await sleep(waitS * 1000);
  // If the object hibernated, it has forgotten its counts: the bots count from here.
  for (const b of bots) b.epoch();
  for (const b of bots) b.resume();
  await sleep(1500);
  const after = await lab.lab<Report>("tuplet", city, "report");
  const woke = after.instance > before.instance;
  const healed = bots.every((b, i) => b.keyframes > kf0[i]!);
  log(`hibernation: object built ${before.instance} time(s) before, ${after.instance} after ${waitS} s idle; a keyframe after the wake: ${healed}`);
  process.stdout.write(`HIBERNATION ${JSON.stringify({ waitS, before: before.instance, after: after.instance, woke, healed })}\n`);
  if (woke && !healed) failures.push("hibernation: the object woke but a client got no keyframe after it");
  if (!woke) {
    log(`FAIL hibernation: workerd did not evict the idle object in ${waitS} s`);
    failures.push(`hibernation: workerd did not evict the idle object in ${waitS} s`);
  }
  await check(lab, "tuplet", city, bots, "hibernation");
  for (const b of bots) b.close();
}

async function sqliteLimit(lab: Lab): Promise<void> {
  const r = await lab.lab<{ refused101: boolean; error: string; saved150: boolean }>("tuplet", "sqlite-probe", "sqlite-limit");
  log(`sqlite: a 101-parameter statement ${r.refused101 ? "is refused" : "is accepted"} (${r.error.slice(0, 80)}); 150 characters in one statement: ${r.saved150}`);
  process.stdout.write(`SQLITE ${JSON.stringify(r)}\n`);
  if (!r.saved150) failures.push("sqlite: the one-parameter save of 150 characters failed");
}

async function main(): Promise<void> {
  const a = args(process.argv.slice(2));
  const cfg = readWrangler("wrangler.toml");
  const maxPlayers = a.smoke ? 50 : Math.max(50, ...a.capacity);
  const rt = await startWorkerd(cfg, cfg.main, maxPlayers, PROFILE_PORT);
  const proxy = await startProxy(Number(rt.url.port));
  const lab = new Lab(rt, proxy);
  log(`workerd on ${rt.url.host} (compatibility date ${cfg.compatibilityDate}), proxy on 127.0.0.1:${proxy.port}`);
  try {
    if (a.smoke) {
      await sqliteLimit(lab);
      await round(lab, "smoke", "tuplet", 1, 1, 5, 3, false);
      await round(lab, "smoke", "json", 1, 1, 5, 3, false);
      await hibernation(lab, Number(process.env.LAB_HIBERNATE_S ?? 15));
    } else {
      await sqliteLimit(lab);
      for (const [i, seed] of a.seeds.entries()) {
        const order: Mode[] = i % 2 === 0 ? ["tuplet", "json"] : ["json", "tuplet"];
        for (const m of order) await round(lab, "main", m, seed, 1, a.bots, a.secs, true);
      }
      for (const n of a.capacity) await round(lab, "capacity", "tuplet", 1, 1, n, 15, true);
      if (a.cities > 0) {
        const procs = a.botProcs >= 0 ? a.botProcs : Math.ceil((a.cities * a.cityBots) / 100);
        if (procs === 0) await round(lab, "cities", "tuplet", 1, a.cities, a.cityBots, 20, true);
        else {
          // The cities in `--runtimes` workerd processes (one isolate thread each; default one per
          // 4 cities), as Cloudflare places each object on its own: one isolate thread cannot run
          // ten cities of 50 here.
          const more = await Promise.all(Array.from({ length: Math.max(0, (a.runtimes >= 1 ? a.runtimes : Math.ceil(a.cities / 4)) - 1) }, () => startWorkerd(cfg, cfg.main, maxPlayers)));
          const fleet = Fleet.start(procs, new URL("./bot_process.mjs", import.meta.url).pathname);
          try {
            await fleetRound([lab, ...more.map((r) => new Lab(r, proxy))], fleet, "cities", "tuplet", 1, a.cities, a.cityBots, 20);
          } finally {
            await fleet.close();
            for (const r of more) await r.mf.dispose();
          }
        }
      }
      await hibernation(lab, 15);
    }
  } finally {
    await proxy.close();
    await rt.mf.dispose();
  }
  if (failures.length > 0) {
    log(`${failures.length} check(s) failed`);
    process.exit(1);
  }
  log("every check passed");
  process.exit(0);
}

main().catch((e: unknown) => {
  log(String(e instanceof Error ? (e.stack ?? e.message) : e));
  process.exit(1);
});

/**
 * The city's storage races, on workerd through miniflare with real WebSockets on loopback:
 * a join before the old close, two tabs, a reload, an abrupt drop (TCP reset), a replaced
 * socket whose close is still pending when the object hibernates, a restart of workerd on
 * persisted storage (clean, and a crash bounded by the periodic save), and many bots
 * reloading at random. Each session's start is read from its first snapshot and compared
 * with where the previous session ended (its own body in its last snapshot, once every input
 * frame it sent was acknowledged).
 *
 *   node build/races.mjs [--bots 20] [--secs 10] [--hibernate 12]
 *
 * `--hibernate S` waits S seconds for workerd to evict the idle object (0 skips that race).
 *
 * Prints `RACES {json}` on stdout; progress and failures on stderr; exit status 1 on any failure.
 */

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import WebSocket from "ws";
import { c2s, createDispatcher, envelope, Mirror, newReader, readInt, s2c, WorldSnapshot$delta, WorldSnapshotCodec, type InputFrame, type NearbyEntity, type WorldSnapshot } from "village-protocol";
import { rng } from "../src/sim.js";
import { sign } from "../src/token.js";
import { readWrangler, startWorkerd, type Runtime } from "./workerd.js";

const log = (s: string): void => void process.stderr.write(s + "\n");
const failures: string[] = [];
const fail = (s: string): void => {
  log(`FAIL ${s}`);
  failures.push(s);
};

/** One wire quantum of a position (cm); saved and sent positions are quantized alike. */
const QUANTUM = 0.01;
/** The city's periodic save, ticks (src/city.ts `SAVE_EVERY`), and its tick rate. */
const SAVE_EVERY = 100;

interface Pos {
  x: number;
  y: number;
  heading: number;
  tick: number;
}

const dist = (a: Pos, b: Pos): number => Math.hypot(a.x - b.x, a.y - b.y);

/** One WebSocket session of a player: its mirror, its own body, its acks. */
class Session {
  readonly ws: WebSocket;
  private readonly mirror = new Mirror<WorldSnapshot>(WorldSnapshot$delta);
  private readonly dispatcher = createDispatcher(s2c, {
    "input:ack": (v) => {
      this.applied = v.applied;
      this.ackTick = v.tick;
    },
  });
  entities: NearbyEntity[] = [];
  /** The body in the first snapshot, and in the latest. */
  first: Pos | undefined;
  me: Pos | undefined;
  /** The body by tick (for the crash bound). */
  readonly history = new Map<number, Pos>();
  tick = -1;
  applied = -1;
  ackTick = -1;
  /** The next input frame's number (each session counts from 0, as a reloaded page does). */
  seq = 0;
  mirrorErrors = 0;
  close: { code: number; reason: string } | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(
    readonly name: string,
    url: string,
  ) {
    const ws = new WebSocket(url, { perMessageDeflate: true, handshakeTimeout: 10_000 });
    ws.binaryType = "nodebuffer";
    this.ws = ws;
    this.opened = new Promise((res, rej) => {
      ws.once("open", () => res());
      ws.once("unexpected-response", (_q, r) => rej(new Error(`${name}: upgrade refused: HTTP ${r.statusCode}`)));
      ws.once("error", rej);
    });
    this.opened.catch(() => undefined);
    this.closed = new Promise((res) => ws.on("close", (code, reason) => res((this.close = { code, reason: reason.toString() }))));
    ws.on("error", () => undefined);
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (!isBinary) return;
      const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      const r = newReader(bytes);
      if (readInt(r, 0, 4294967295) !== WorldSnapshotCodec.id) return void this.dispatcher.onBytes(bytes);
      let v: WorldSnapshot;
      try {
        v = this.mirror.apply(bytes.subarray(r.pos));
      } catch {
        this.mirrorErrors += 1;
        return;
      }
      this.tick = v.tick;
      this.entities = v.entities;
      const e = v.entities.find((x) => x.label === this.name && x.kind === "Npc");
      if (e === undefined) return;
      const p = { x: e.pos[0], y: e.pos[1], heading: e.heading, tick: v.tick };
      this.first ??= p;
      this.me = p;
      this.history.set(v.tick, p);
    });
  }

  /** The code of the close frame received, once one was (before the TCP connection ends). */
  get closeFrameCode(): number | undefined {
    const w = this.ws as unknown as { _closeFrameReceived?: boolean; _closeCode?: number };
    return w._closeFrameReceived ? w._closeCode : undefined;
  }

  get live(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Waits (up to `ms`) for the first snapshot that shows this player. */
  async start(ms = 5000): Promise<Pos> {
    const until = Date.now() + ms;
    while (this.first === undefined && Date.now() < until && this.close === undefined) await sleep(10);
    if (this.first === undefined) throw new Error(`${this.name}: no snapshot with its own body in ${ms} ms (${this.close ? `closed ${this.close.code}` : "open"})`);
    return this.first;
  }

  /** Walks for `ms` (a batch of four 16 ms frames every 66 ms, as the bots send). */
  async walk(rand: () => number, ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until && this.live) {
      const frames: InputFrame[] = [];
      for (let i = 0; i < 4; i++) {
        const b = { forward: rand() < 0.85, back: false, left: false, right: false, jump: false, sprint: rand() < 0.3, interact: false, primary: false, aim: false, brake: false, horn: false };
        frames.push({ dt: 16, buttons: b, look: [Math.round((rand() - 0.5) * 200) / 1000, 0], steer: 0 });
      }
      this.ws.send(envelope(c2s, { name: "input:batch", value: { first: this.seq, frames } }));
      this.seq += frames.length;
      await sleep(66);
    }
  }

  /** Waits until every frame sent was applied and a snapshot after it arrived: where the body rests. */
  async settle(ms = 5000): Promise<Pos> {
    const until = Date.now() + ms;
    while (!(this.applied === this.seq - 1 && this.tick >= this.ackTick && this.me !== undefined && this.me.tick >= this.ackTick) && Date.now() < until) await sleep(10);
    if (this.seq > 0 && this.applied !== this.seq - 1) throw new Error(`${this.name}: frames up to ${this.seq - 1} sent, ${this.applied} acknowledged after ${ms} ms`);
    return this.me!;
  }

  /** Waits (up to `ms`) for the close; undefined while still open. */
  async closedWithin(ms: number): Promise<{ code: number; reason: string } | undefined> {
    return Promise.race([this.closed, sleep(ms).then(() => undefined)]);
  }

  /** Ends the TCP connection with a reset, no close frame. */
  reset(): void {
    const sock = (this.ws as unknown as { _socket?: { resetAndDestroy?: () => void; destroy: () => void } })._socket;
    if (sock?.resetAndDestroy) sock.resetAndDestroy();
    else sock?.destroy();
  }
}

/** The object's report, as far as the races read it. */
interface Report {
  instance: number;
  clients: number;
  saved: number;
  players: Record<string, unknown>;
}

class Lab {
  constructor(public rt: Runtime) {}

  async report(city: string): Promise<Report> {
    const res = await this.rt.mf.dispatchFetch(new URL(`/lab/report?city=${city}&key=${this.rt.labKey}`, this.rt.url));
    if (!res.ok) throw new Error(`/lab/report: HTTP ${res.status}`);
    return (await res.json()) as Report;
  }

  async open(city: string, name: string): Promise<Session> {
    const token = await sign(this.rt.secret, name, Date.now() + 3_600_000);
    const s = new Session(name, `ws://127.0.0.1:${this.rt.url.port}/ws?city=${city}&token=${token}`);
    await s.opened;
    return s;
  }

  /** Waits until the city holds `n` clients (departs run), up to `ms`. */
  async clients(city: string, n: number, ms = 3000): Promise<Report> {
    const until = Date.now() + ms;
    let r = await this.report(city);
    while (r.clients !== n && Date.now() < until) {
      await sleep(20);
      r = await this.report(city);
    }
    return r;
  }
}

/** Every comparison of a session's start with where the previous one ended. */
const starts = { n: 0, lost: 0, maxDiff: 0 };

function same(what: string, ended: Pos, started: Pos): void {
  const d = dist(ended, started);
  starts.n += 1;
  starts.maxDiff = Math.max(starts.maxDiff, d);
  if (d > QUANTUM) {
    starts.lost += 1;
    fail(`${what}: ended at (${ended.x.toFixed(2)}, ${ended.y.toFixed(2)}), the next session started at (${started.x.toFixed(2)}, ${started.y.toFixed(2)}): ${d.toFixed(3)} m apart`);
  }
}

/** A new session of an account that walks somewhere distinct from where it started, and rests. */
async function walked(lab: Lab, city: string, name: string, rand: () => number, ms = 800): Promise<{ s: Session; at: Pos }> {
  const s = await lab.open(city, name);
  const from = await s.start();
  await s.walk(rand, ms);
  const at = await s.settle();
  if (dist(from, at) < 0.5) fail(`${name}: walked ${ms} ms but moved only ${dist(from, at).toFixed(2)} m`);
  return { s, at };
}

async function joinBeforeClose(lab: Lab): Promise<void> {
  const city = "race-join", name = "joinfirst", rand = rng(1);
  const { s: a, at } = await walked(lab, city, name, rand);
  const b = await lab.open(city, name);
  const bStart = await b.start();
  same("join before close", at, bStart);
  const c = await a.closedWithin(2000);
  if (c?.code !== 4001) fail(`join before close: the old socket got ${c ? `close ${c.code}` : "no close"}, not 4001`);
  // The old socket's close has reached the object by now: the new session must be untouched.
  await sleep(200);
  const r = await lab.report(city);
  if (r.clients !== 1 || !(name in r.players)) fail(`join before close: after the old close the city holds ${r.clients} clients (${Object.keys(r.players).join(",")})`);
  await b.walk(rand, 600);
  const bEnd = await b.settle();
  if (dist(bStart, bEnd) < 0.3) fail("join before close: the new session's input does not move it after the old close");
  b.ws.close(1000);
  await lab.clients(city, 0);
  const c2 = await lab.open(city, name);
  same("join before close, then a reload of the new session", bEnd, await c2.start());
  c2.ws.close(1000);
  log(`join before close: old socket closed ${c?.code}; the new session started ${dist(at, bStart).toFixed(3)} m from the old end`);
}

async function twoTabs(lab: Lab, rounds: number): Promise<void> {
  const city = "race-tabs", name = "twotabsxx", rand = rng(2);
  const { s: first, at } = await walked(lab, city, name, rand);
  first.ws.close(1000);
  let ended = at;
  for (let k = 0; k < rounds; k++) {
    const tabs = await Promise.all([lab.open(city, name), lab.open(city, name)]);
    await sleep(300);
    const live = tabs.filter((t) => t.live);
    // The close frame's code: workerd may keep the TCP connection of a socket replaced just
    // after its upgrade open, so `ws` stays CLOSING (close frame received and answered).
    const closes = tabs.filter((t) => !t.live).map((t) => t.close?.code ?? t.closeFrameCode);
    if (live.length !== 1) {
      fail(`two tabs (round ${k}): ${live.length} of 2 sockets live (closes ${closes.join(",")})`);
      for (const t of tabs) t.ws.close(1000);
      continue;
    }
    if (closes[0] !== 4001) fail(`two tabs (round ${k}): the other socket got close ${closes[0]}, not 4001`);
    for (const t of tabs) if (t !== live[0]) t.ws.terminate();
    const t = live[0]!;
    same(`two tabs (round ${k})`, ended, await t.start());
    const r = await lab.report(city);
    const bodies = t.entities.filter((e) => e.label === name).length;
    const cars = t.entities.filter((e) => e.owner === name).length;
    if (r.clients !== 1 || bodies !== 1 || cars !== 1) fail(`two tabs (round ${k}): ${r.clients} clients, ${bodies} bodies and ${cars} cars of the player in the snapshot (1 each expected)`);
    await t.walk(rand, 400);
    ended = await t.settle();
    t.ws.close(1000);
  }
  log(`two tabs: ${rounds} rounds, one live socket each`);
}

async function reload(lab: Lab, rounds: number, how: "close" | "reset" | "reset-wait"): Promise<void> {
  const city = `race-${how}`, name = how === "close" ? "reloadxxx" : how === "reset" ? "resetxxxx" : "resetwait", rand = rng(3);
  let { s, at } = await walked(lab, city, name, rand, 500);
  for (let k = 0; k < rounds; k++) {
    if (how === "close") s.ws.close(1000);
    else s.reset();
    if (how === "reset-wait") await lab.clients(city, 0);
    const n = await lab.open(city, name);
    same(`${how} (round ${k})`, at, await n.start());
    await n.walk(rand, 300);
    at = await n.settle();
    s = n;
  }
  s.ws.close(1000);
  const r = await lab.clients(city, 0);
  if (r.clients !== 0) fail(`${how}: ${r.clients} clients left after the last close`);
  log(`${how}: ${rounds} reloads`);
}

/** Persisted storage across workerd restarts: a clean stop, then a crash (SIGKILL) with the player walking. */
async function restart(lab: Lab, dir: string, start: () => Promise<Runtime>): Promise<{ crashLossTicks: number; crashSavedAtEnd: boolean }> {
  const city = "race-restart", name = "restartxx", rand = rng(4);
  const { s, at } = await walked(lab, city, name, rand);
  s.ws.close(1000);
  await lab.clients(city, 0);
  await lab.rt.mf.dispose();
  lab.rt = await start();
  const back = await lab.open(city, name);
  same("restart after a clean close", at, await back.start());
  const inst = (await lab.report(city)).instance;
  if (inst < 2) fail(`restart: the object's instance count is ${inst}: its storage did not persist in ${dir}`);
  // A crash: the player walks past at least one periodic save, then workerd is killed.
  await back.walk(rand, 6500);
  const last = back.me!;
  await lab.rt.mf.dispose();
  lab.rt = await start();
  const again = await lab.open(city, name);
  const got = await again.start();
  let match: Pos | undefined;
  for (const p of back.history.values()) if (dist(p, got) <= QUANTUM && (match === undefined || p.tick > match.tick)) match = p;
  again.ws.close(1000);
  if (match === undefined) {
    fail(`restart after a crash: the player came back at (${got.x.toFixed(2)}, ${got.y.toFixed(2)}), where its last session never was`);
    return { crashLossTicks: -1, crashSavedAtEnd: false };
  }
  const loss = last.tick - match.tick;
  // The save runs on the tick after a multiple of SAVE_EVERY is passed; a tick may still be
  // in flight when the process dies.
  if (loss > SAVE_EVERY + 2) fail(`restart after a crash: ${loss} ticks of walking lost (bound ${SAVE_EVERY})`);
  log(`restart: clean stop kept the position; crash lost ${loss} ticks (the periodic save at tick ${match.tick}, the last snapshot at ${last.tick})`);
  return { crashLossTicks: loss, crashSavedAtEnd: loss <= 1 };
}

/**
 * A replaced socket whose client never answers the close (its TCP reads paused) while the
 * object hibernates: the woken object rebuilds its clients from `getWebSockets()`, and the
 * late close of the old socket must not end the new session.
 */
async function hibernation(lab: Lab, waitS: number): Promise<void> {
  const city = "race-hibernate", name = "hibernate", rand = rng(5);
  const { s: a, at } = await walked(lab, city, name, rand);
  (a.ws as unknown as { _socket: { pause: () => void } })._socket.pause();
  const b = await lab.open(city, name);
  same("hibernation: join before close", at, await b.start());
  const before = (await lab.report(city)).instance;
  const idle = await lab.rt.mf.dispatchFetch(new URL(`/lab/idle?city=${city}&key=${lab.rt.labKey}&after=0.5`, lab.rt.url));
  if (!idle.ok) throw new Error(`/lab/idle: HTTP ${idle.status}`);
  await sleep(waitS * 1000);
  await b.walk(rand, 600);
  const woke = (await lab.report(city)).instance;
  (a.ws as unknown as { _socket: { resume: () => void } })._socket.resume();
  const c = await a.closedWithin(3000);
  await sleep(300);
  const r = await lab.report(city);
  await b.walk(rand, 600);
  const end = await b.settle().catch((e: unknown) => (fail(`hibernation: ${String(e)}`), b.me!));
  if (woke <= before) fail(`hibernation: workerd did not evict the idle object in ${waitS} s`);
  if (r.clients !== 1 || !(name in r.players)) fail(`hibernation: after the old socket's late close the city holds ${r.clients} clients`);
  b.ws.close(1000);
  await lab.clients(city, 0);
  const n = await lab.open(city, name);
  same("hibernation: reload after the late close", end, await n.start());
  n.ws.close(1000);
  log(`hibernation: object built ${before} then ${woke} time(s); the old socket closed ${c?.code ?? a.closeFrameCode}; ${r.clients} client(s) after its late close`);
}

/** N players reloading at random in one city, each kind of reload in turn. */
async function manyReloads(lab: Lab, bots: number, secs: number): Promise<Record<string, number>> {
  const city = "race-many";
  const kinds = { close: 0, joinFirst: 0, reset: 0, tabs: 0 };
  const until = Date.now() + secs * 1000;
  const one = async (i: number): Promise<void> => {
    const name = `many${String(i).padStart(5, "0")}`;
    const rand = rng(100 + i);
    let s = await lab.open(city, name);
    await s.start();
    while (Date.now() < until) {
      await s.walk(rand, 100 + rand() * 500);
      const at = await s.settle();
      const k = Math.floor(rand() * 4);
      let n: Session;
      if (k === 0) {
        kinds.close += 1;
        s.ws.close(1000);
        n = await lab.open(city, name);
      } else if (k === 1) {
        kinds.joinFirst += 1;
        n = await lab.open(city, name);
        const c = await s.closedWithin(3000);
        if (c?.code !== 4001) fail(`${name}: replaced socket closed ${c?.code}, not 4001`);
      } else if (k === 2) {
        kinds.reset += 1;
        s.reset();
        n = await lab.open(city, name);
      } else {
        kinds.tabs += 1;
        s.ws.close(1000);
        const tabs = await Promise.all([lab.open(city, name), lab.open(city, name)]);
        await sleep(200);
        const live = tabs.filter((t) => t.live);
        if (live.length !== 1) fail(`${name}: two tabs left ${live.length} live sockets`);
        for (const t of tabs.filter((t) => t !== live[0])) t.ws.close(1000);
        n = live[0] ?? tabs[1]!;
      }
      same(`many reloads (${name})`, at, await n.start());
      s = n;
    }
    await s.settle();
  };
  const sessions = await Promise.all(Array.from({ length: bots }, (_, i) => one(i)));
  void sessions;
  const r = await lab.clients(city, bots);
  if (r.clients !== bots) fail(`many reloads: ${r.clients} clients in the city for ${bots} players`);
  return kinds;
}

async function main(): Promise<void> {
  let bots = 20;
  let secs = 10;
  let hibernate = 12;
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--bots") bots = Number(argv[++i]);
    else if (argv[i] === "--secs") secs = Number(argv[++i]);
    else if (argv[i] === "--hibernate") hibernate = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}; see the header of lab/races.ts`);
  }
  const t0 = Date.now();
  const cfg = readWrangler("wrangler.toml");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "city-races-"));
  const start = (): Promise<Runtime> => startWorkerd(cfg, cfg.main, 50, undefined, { persist: dir });
  const lab = new Lab(await start());
  let restarted = { crashLossTicks: -1, crashSavedAtEnd: false };
  let kinds: Record<string, number> = {};
  try {
    await joinBeforeClose(lab);
    await twoTabs(lab, 5);
    await reload(lab, 5, "close");
    await reload(lab, 5, "reset");
    await reload(lab, 3, "reset-wait");
    if (hibernate > 0) await hibernation(lab, hibernate);
    restarted = await restart(lab, dir, start);
    const before = starts.n;
    kinds = await manyReloads(lab, bots, secs);
    log(`many reloads: ${bots} players for ${secs} s, ${starts.n - before} reloads (${JSON.stringify(kinds)})`);
  } catch (e) {
    fail(String(e instanceof Error ? (e.stack ?? e.message) : e));
  } finally {
    await lab.rt.mf.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const out = { starts: starts.n, lost: starts.lost, maxDiffM: starts.maxDiff, ...restarted, manyReloads: kinds, secs: (Date.now() - t0) / 1000, failures: failures.length };
  process.stdout.write(`RACES ${JSON.stringify(out)}\n`);
  if (failures.length > 0) {
    log(`${failures.length} failure(s)`);
    process.exit(1);
  }
  log(`all races passed: ${starts.n} session starts, ${starts.lost} positions lost, largest difference ${starts.maxDiff.toFixed(4)} m`);
  process.exit(0);
}

void main();

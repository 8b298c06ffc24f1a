/**
 * The city as the lab runs it: the city of src/ with meters on its hooks, `/lab/*` requests
 * (reset, report, sqlite-limit, idle), and its JSON twin (`LabCityJson`, the same city
 * sending JSON deltas). The lab's Worker (worker.ts) exports these under the class names
 * wrangler.toml binds.
 */

import type { ServerStats } from "village-protocol";
import { City, type Client, type Env, RATE } from "../../src/city.js";
import type { Stream } from "../../src/streams.js";
import { Counts, Window } from "./meters.js";
import { JsonStream, LabTupletStream, type LabStream } from "./streams.js";

/** What the lab's Worker binds beyond the city's own. */
export interface LabEnv extends Env {
  /** The JSON twin's objects. */
  CITY_JSON: DurableObjectNamespace;
  /** Enables `/lab/*` when set (the lab sets it; production has no lab Worker). */
  LAB_KEY?: string;
}

/** What the lab counts per client: valid messages, and bytes sent. */
interface PerClient {
  valid: number;
  sent: number;
}

/** The city with the lab's meters and `/lab/*`; its clients get tuplet snapshots. */
export class LabCity extends City {
  /** Meters since the last `/lab/reset`. */
  private readonly dropped = new Counts(60);
  private readonly ignored = new Counts(60);
  private readonly tickMs = new Window(6000);
  private readonly saveMs = new Window(600);
  private readonly late = new Window(6000);
  private readonly perClient = new WeakMap<Client, PerClient>();
  private readonly started = Date.now();
  private inbound = 0;
  private accepted = 0;
  private ticks = 0;
  /** Steps run beyond one per timer callback (catching up after a stall). */
  private catchUp = 0;
  private sentBytes = 0;
  private sentMsgs = 0;
  private snapBytes = 0;
  private snapshotSlots = 0;
  private fullSum = 0;
  private fullCount = 0;
  private measuredSince = Date.now();
  /** `dropped.total` when the frame being handled arrived (to tell an ignored message). */
  private droppedBefore = 0;
  /** How many times this object's memory was built (1 + wakes from hibernation or eviction). */
  private readonly instance: number;

  constructor(ctx: DurableObjectState, env: LabEnv) {
    super(ctx, env);
    this.instance = Number(this.store.meta("instances") ?? 0) + 1;
    this.store.setMeta("instances", String(this.instance));
  }

  protected override stream(): Stream {
    return new LabTupletStream();
  }

  override async fetch(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (!url.pathname.startsWith("/lab/")) return super.fetch(req);
    this.named(req);
    return this.lab(url);
  }

  private of(c: Client): PerClient {
    let m = this.perClient.get(c);
    if (m === undefined) this.perClient.set(c, (m = { valid: 0, sent: 0 }));
    return m;
  }

  protected override onFrame(): void {
    this.inbound += 1;
    this.droppedBefore = this.dropped.total;
  }

  protected override onDropped(why: string): void {
    this.dropped.add(why);
  }

  protected override onDispatched(c: Client, handled: boolean): void {
    if (handled) {
      this.accepted += 1;
      this.of(c).valid += 1;
    } else if (this.dropped.total === this.droppedBefore) this.ignored.add("(no handler)");
  }

  protected override onSent(c: Client, bytes: number, snapshot: boolean): void {
    if (snapshot) this.snapshotSlots += 1;
    if (bytes === 0) return;
    this.of(c).sent += bytes;
    if (snapshot) this.snapBytes += bytes;
    this.sentBytes += bytes;
    this.sentMsgs += 1;
  }

  protected override onTimer(lateMs: number): void {
    this.late.push(lateMs);
  }

  protected override advance(steps: number): void {
    const t0 = performance.now();
    super.advance(steps);
    this.catchUp += steps - 1;
    this.tickMs.push(performance.now() - t0);
    this.ticks += 1;
    // Outside the measured tick: a reference size now and then.
    const tick = this.sim.tick;
    if (tick % RATE < steps) {
      for (const c of this.clients.values()) {
        this.fullSum += (c.stream as LabStream).fullBytes(tick, this.sim.view(c.player));
        this.fullCount += 1;
      }
    }
  }

  protected override checkpoint(): void {
    const s0 = performance.now();
    super.checkpoint();
    this.saveMs.push(performance.now() - s0);
  }

  protected override stats(): ServerStats {
    const secs = Math.max(0.001, (Date.now() - this.measuredSince) / 1000);
    return {
      loop_lag_ms: this.late.quantile(0.5),
      move_cost_ms: this.tickMs.quantile(0.5),
      move_cost_peak_ms: this.tickMs.max(),
      rss: 0,
      heap_used: 0,
      moves_per_s: Math.min(65535, Math.round(this.accepted / secs)),
      uptime_s: Math.floor((Date.now() - this.started) / 1000),
      accepted: this.accepted,
      dropped: this.dropped.map(),
    };
  }

  /** The lab's view of the city (the lab's Worker checks `LAB_KEY`). */
  private lab(url: URL): Response {
    const what = url.pathname.slice("/lab/".length);
    if (what === "reset") {
      this.tickMs.clear();
      this.late.clear();
      this.saveMs.clear();
      this.inbound = this.accepted = this.ticks = this.catchUp = this.sentBytes = this.sentMsgs = this.snapBytes = this.snapshotSlots = 0;
      this.fullSum = this.fullCount = 0;
      this.measuredSince = Date.now();
      return Response.json({ ok: true });
    }
    if (what === "report") return Response.json(this.report());
    if (what === "sqlite-limit") return Response.json(this.sqliteLimit());
    if (what === "idle") {
      // Lets this instance's tick stop after that many seconds without input (memory only).
      this.idleAfterMs = Number(url.searchParams.get("after") ?? 0) * 1000;
      return Response.json({ ok: true });
    }
    return new Response("unknown lab request\n", { status: 404 });
  }

  /** `/lab/report`: the meters since the last reset, and each player's counts and last snapshot. */
  private report(): Record<string, unknown> {
    const secs = (Date.now() - this.measuredSince) / 1000;
    const players: Record<string, unknown> = {};
    for (const c of this.clients.values()) {
      const p = c.player;
      const m = this.of(c);
      players[p.name] = { frames: p.frames, gaps: p.gaps, valid: m.valid, sent: m.sent, driving: p.driving, snapshot: (c.stream as LabStream).report() };
    }
    return {
      instance: this.instance,
      tick: this.sim.tick,
      clients: this.clients.size,
      secs,
      ticks: this.ticks,
      catchUp: this.catchUp,
      tickMs: this.tickMs.summary(),
      lateMs: this.late.summary(),
      saveMs: this.saveMs.summary(),
      inbound: this.inbound,
      inboundPerS: this.inbound / Math.max(secs, 0.001),
      accepted: this.accepted,
      dropped: this.dropped.toJSON(),
      ignored: this.ignored.toJSON(),
      snapBytes: this.snapBytes,
      sentBytes: this.sentBytes,
      sentMsgs: this.sentMsgs,
      snapshotSlots: this.snapshotSlots,
      fullBytesMean: this.fullCount === 0 ? 0 : this.fullSum / this.fullCount,
      saved: this.store.count(),
      rowsWritten: this.store.rowsWritten,
      statements: this.store.statements,
      running: this.running,
      players,
    };
  }

  /**
   * Whether this SQLite refuses a statement with 101 bound parameters (as Cloudflare's limits
   * say it does), and whether the one-parameter save takes 150 characters.
   */
  private sqliteLimit(): { refused101: boolean; error: string; saved150: boolean } {
    const sql = this.ctx.storage.sql;
    let refused101 = false;
    let error = "";
    try {
      const ps = Array.from({ length: 101 }, (_, i) => `n${i}`);
      sql.exec(`SELECT count(*) FROM characters WHERE name IN (${ps.map(() => "?").join(",")})`, ...ps).toArray();
    } catch (e) {
      refused101 = true;
      error = String(e);
    }
    const rows = Array.from({ length: 150 }, (_, i) => ({ name: `zz${String(i).padStart(7, "0")}`, x: i, y: -i, heading: 0 }));
    this.store.save(rows, Date.now());
    const back = this.store.load(rows.map((r) => r.name));
    sql.exec("DELETE FROM characters WHERE name IN (SELECT json_extract(value, '$.name') FROM json_each(?))", JSON.stringify(rows));
    return { refused101, error, saved150: back.size === 150 };
  }
}

/** The same city sending the JSON twin's delta snapshots (for comparison). */
export class LabCityJson extends LabCity {
  protected override stream(): Stream {
    return new JsonStream();
  }
}

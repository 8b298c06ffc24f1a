/**
 * The city Worker on workerd through miniflare, configured from wrangler.toml (the same
 * compatibility date, flags, bindings and classes `wrangler deploy` would use) and wrapped
 * with the lab's meters, routes and JSON twin (lab/worker/), plus what the lab reads of the
 * workerd process.
 */

import fs from "node:fs";
import { Miniflare } from "miniflare";

/** What the lab takes from wrangler.toml, with the lab's Worker in place of `main`. */
export interface WranglerConfig {
  /** The lab's bundle (build/lab_worker.js): the deployed Worker wrapped by lab/worker/. */
  main: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
  /** Binding name -> class name. */
  objects: Record<string, string>;
  /** Classes the migrations create with SQLite storage. */
  sqliteClasses: string[];
}

/** The lab's bundle of the Worker (lab/build.mjs), run in place of wrangler.toml's `main`. */
const LAB_MAIN = "build/lab_worker.js";

/**
 * Reads the few keys the lab needs from wrangler.toml (a flat file: no TOML library needed),
 * and adds the lab's: its bundle, and the JSON twin's class (`CITY_JSON`, SQLite storage).
 */
export function readWrangler(path: string): WranglerConfig {
  const text = fs.readFileSync(path, "utf8");
  const one = (re: RegExp, what: string): string => {
    const m = re.exec(text);
    if (!m?.[1]) throw new Error(`${path}: no ${what}`);
    return m[1];
  };
  const list = (re: RegExp): string[] => [...(re.exec(text)?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  const objects: Record<string, string> = {};
  for (const m of text.matchAll(/\{\s*name\s*=\s*"([^"]+)"\s*,\s*class_name\s*=\s*"([^"]+)"\s*\}/g)) objects[m[1]!] = m[2]!;
  if (one(/^main\s*=\s*"([^"]+)"/m, "main") !== "build/worker.js") throw new Error(`${path}: the lab wraps build/worker.js`);
  objects["CITY_JSON"] = "CityJson";
  return {
    main: LAB_MAIN,
    compatibilityDate: one(/^compatibility_date\s*=\s*"([^"]+)"/m, "compatibility_date"),
    compatibilityFlags: list(/^compatibility_flags\s*=\s*\[([^\]]*)\]/m),
    objects,
    sqliteClasses: [...list(/new_sqlite_classes\s*=\s*\[([^\]]*)\]/m), "CityJson"],
  };
}

/** A running workerd with the city Worker. */
export interface Runtime {
  readonly mf: Miniflare;
  readonly url: URL;
  readonly labKey: string;
  readonly secret: string;
}

/**
 * Starts workerd on 127.0.0.1 with the lab's bundle (`script`: build/lab_worker.js) and its bindings.
 * With `persist`, the objects' storage lives in that directory and outlives the process.
 */
export async function startWorkerd(cfg: WranglerConfig, script: string, maxPlayers: number, inspectorPort?: number, opts: { persist?: string } = {}): Promise<Runtime> {
  const labKey = "lab-" + Math.random().toString(36).slice(2);
  const secret = "lab-secret-" + Math.random().toString(36).slice(2);
  const durableObjects: Record<string, { className: string; useSQLite: boolean }> = {};
  for (const [binding, className] of Object.entries(cfg.objects)) {
    durableObjects[binding] = { className, useSQLite: cfg.sqliteClasses.includes(className) };
  }
  const mf = new Miniflare({
    scriptPath: script,
    modules: true,
    modulesRules: [{ type: "ESModule", include: ["**/*.js"] }],
    compatibilityDate: cfg.compatibilityDate,
    compatibilityFlags: cfg.compatibilityFlags,
    durableObjects,
    bindings: { TOKEN_SECRET: secret, LAB_KEY: labKey, MAX_PLAYERS: String(maxPlayers) },
    host: "127.0.0.1",
    port: 0,
    ...(inspectorPort === undefined ? {} : { inspectorPort }),
    ...(opts.persist === undefined ? {} : { durableObjectsPersist: opts.persist }),
  });
  const url = await mf.ready;
  return { mf, url, labKey, secret };
}

/** The pids of workerd processes started by this process. */
export function workerdPids(): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (comm.startsWith("workerd") && ppid === process.pid) out.push(Number(d));
    } catch {
      // the process ended
    }
  }
  return out;
}

/** CPU time used so far by a process's threads, ns (the scheduler's own count). */
export function cpuNs(pid: number): number {
  let sum = 0;
  try {
    for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        sum += Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // the thread ended
      }
    }
  } catch {
    return 0;
  }
  return sum;
}

/** CPU time of this Node process so far, ns (the bots and the proxy). */
export function selfCpuNs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

/**
 * A V8 CPU profile of the Worker's isolate over `ms` (workerd's inspector, which miniflare
 * opens with `inspectorPort`): what the object's code costs inside workerd, against what the
 * process spends outside JavaScript (framing, compression, I/O).
 */
export async function profileWorkerd(inspectorPort: number, ms: number): Promise<unknown> {
  const { default: WebSocket } = await import("ws");
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as { webSocketDebuggerUrl: string; title?: string }[];
  const target = targets.find((t) => (t.title ?? "").includes("core:user")) ?? targets[0];
  if (target === undefined) throw new Error("workerd's inspector lists no isolate");
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((res, rej) => (ws.once("open", res), ws.once("error", rej)));
  let id = 0;
  const call = (method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> =>
    new Promise((res, rej) => {
      const my = ++id;
      const on = (data: Buffer): void => {
        const m = JSON.parse(data.toString()) as { id?: number; result?: Record<string, unknown>; error?: unknown };
        if (m.id !== my) return;
        ws.off("message", on);
        if (m.error !== undefined) rej(new Error(JSON.stringify(m.error)));
        else res(m.result ?? {});
      };
      ws.on("message", on);
      ws.send(JSON.stringify({ id: my, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 200 });
  await call("Profiler.start");
  await new Promise((r) => setTimeout(r, ms));
  const { profile } = await call("Profiler.stop");
  ws.close();
  return profile;
}

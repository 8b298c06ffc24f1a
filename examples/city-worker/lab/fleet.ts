/**
 * Bots in several Node processes (bot_process.ts), for rounds one process cannot drive: the
 * parent forks the processes, hands each its share of the bots, and asks them all at once
 * (connect, count bytes, stop, check, close). The bots connect to workerd directly, and each
 * counts its own socket's bytes, which is what the lab's proxy counts for the in-process bots
 * (TCP payload both ways, the upgrade included), without a second hop through the parent.
 */

import { fork, type ChildProcess } from "node:child_process";
import os from "node:os";
import { cpuNs } from "./workerd.js";
import type { Mode } from "./bots.js";

/** One bot as the parent describes it to a bot process. */
export interface BotSpec {
  name: string;
  mode: Mode;
  seed: number;
  index: number;
  garbage: boolean;
  url: string;
}

/** A bot's counters after `stop`. */
export interface BotState {
  name: string;
  framesSent: number;
  garbageSent: number;
  extensions: string;
}

/** A request to a bot process (its `id` matches the answer). */
export type Request =
  | { id: number; op: "connect"; bots: BotSpec[] }
  | { id: number; op: "bytes" | "stop" | "close" }
  | { id: number; op: "check"; reports: Record<string, unknown> };

type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** What one process's `check` found. */
export interface Checked {
  problems: string[];
  mirrorErrors: number;
  rtts: number[];
}

export class Fleet {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(readonly kids: ChildProcess[]) {
    for (const k of kids) {
      k.on("message", (a: Answer) => {
        const w = this.waiting.get(a.id);
        if (w === undefined) return;
        this.waiting.delete(a.id);
        if (a.ok) w.resolve(a.value);
        else w.reject(new Error(a.error));
      });
      k.on("exit", (code) => {
        if (code !== 0 && code !== null) for (const w of this.waiting.values()) w.reject(new Error(`a bot process exited with ${code}`));
      });
    }
  }

  /**
   * Forks `n` bot processes running `script` (build/bot_process.mjs), `nice` steps below this
   * process: workerd (this process's priority) is served first and the bots get what it leaves,
   * so on a machine with fewer cores than the round needs the bots slow down (they send less)
   * rather than workerd stalling behind them.
   */
  static start(n: number, script: string, nice = 10): Fleet {
    const kids = Array.from({ length: n }, () => fork(script, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] }));
    for (const k of kids) if (k.pid !== undefined) os.setPriority(k.pid, Math.min(19, os.getPriority() + nice));
    return new Fleet(kids);
  }

  /** Asks process `k`. */
  ask<T>(k: number, req: Omit<Request, "id"> & Record<string, unknown>): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.kids[k]!.send({ ...req, id });
    });
  }

  /** Asks every process the same. */
  all<T>(req: Omit<Request, "id"> & Record<string, unknown>): Promise<T[]> {
    return Promise.all(this.kids.map((_, k) => this.ask<T>(k, req)));
  }

  /** Bytes all the bots' sockets have read and written so far. */
  async bytes(): Promise<{ down: number; up: number }> {
    const xs = await this.all<{ down: number; up: number }>({ op: "bytes" });
    return xs.reduce((t, x) => ({ down: t.down + x.down, up: t.up + x.up }), { down: 0, up: 0 });
  }

  /** CPU time the bot processes have used so far, ns. */
  cpuNs(): number {
    return this.kids.reduce((s, k) => s + (k.pid === undefined ? 0 : cpuNs(k.pid)), 0);
  }

  /** Ends the processes. */
  async close(): Promise<void> {
    await this.all({ op: "close" }).catch(() => undefined);
    for (const k of this.kids) k.disconnect();
  }
}

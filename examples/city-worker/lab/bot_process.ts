/**
 * One bot process of a fleet (fleet.ts): the lab's parent process forks several of these when
 * one Node process cannot drive all the bots of a round (ten cities of 50). Each holds the
 * `Bot`s it is given and answers the parent's requests over IPC: connect them, count their
 * sockets' bytes, stop them, report their counters, run their end-of-round checks against the
 * objects' reports, close them.
 */

import { setTimeout as sleep } from "node:timers/promises";
import { Bot, type PlayerReport } from "./bots.js";
import type { BotSpec, BotState, Request } from "./fleet.js";

const bots: Bot[] = [];

async function handle(m: Request): Promise<unknown> {
  switch (m.op) {
    case "connect": {
      const fresh = m.bots.map((s: BotSpec) => new Bot(s.name, s.mode, s.seed, s.index, s.garbage));
      // Ten at a time, each group's handshakes in parallel (as the in-process lab connects).
      for (let g = 0; g < fresh.length; g += 10) {
        await Promise.all(fresh.slice(g, g + 10).map((b, i) => b.connect(m.bots[g + i]!.url)));
        await sleep(20);
      }
      bots.push(...fresh);
      return bots.length;
    }
    case "bytes":
      return bots.reduce((t, b) => ({ down: t.down + b.socketBytes.down, up: t.up + b.socketBytes.up }), { down: 0, up: 0 });
    case "stop":
      for (const b of bots) b.stop();
      return bots.map((b): BotState => ({ name: b.name, framesSent: b.framesSent - b.framesBefore, garbageSent: b.garbageSent - b.garbageBefore, extensions: b.extensions }));
    case "check": {
      const reports = m.reports as Record<string, PlayerReport>;
      await Promise.all(bots.map((b) => b.reached(reports[b.name]?.snapshot?.tick ?? 0, 10_000)));
      const problems = bots.flatMap((b) => b.check(reports[b.name]));
      return { problems, mirrorErrors: bots.reduce((n, b) => n + b.mirrorErrors, 0), rtts: bots.flatMap((b) => b.rtts) };
    }
    case "close":
      for (const b of bots) b.close();
      bots.length = 0;
      return true;
  }
}

process.on("message", (m: Request) => {
  handle(m).then(
    (value) => process.send!({ id: m.id, ok: true, value }),
    (e: unknown) => process.send!({ id: m.id, ok: false, error: String(e instanceof Error ? (e.stack ?? e.message) : e) }),
  );
});
process.on("disconnect", () => process.exit(0));

// A Vite vanilla-ts page on whole directions (`createDispatcher(s2c, …)`, `send(c2s, …)`; page.ts
// is the same kind of page naming its messages): the generated package as a dependency
// ("village-protocol"), a browser WebSocket, a dispatcher of the messages the page draws, and
// moves sent back. bundle-size.mjs bundles it beside page.ts. Type-checked (never run) under Vite's template flags plus the strictest
// ones a team may add, by TypeScript 7 and 5.9 (tsconfig.json here; `npm run typecheck:strict`).

import { c2s, createDispatcher, s2c, send, type Issue, type PlayerMove } from "village-protocol";

const ws = new WebSocket("ws://localhost:2567/village");
ws.binaryType = "arraybuffer";

const drawn: string[] = [];
const d = createDispatcher(
  s2c,
  {
    "player:move": (m) => drawn.push(`${m.s} ${m.p[0]}`),
    "player:correction": (c) => drawn.push(`back to ${c.pos[0]}`),
    "world:snapshot": (snap) => drawn.push(`tick ${snap.tick}`),
  },
  {
    onInvalid: (name: string, issues: readonly Issue[]) => {
      console.warn(name, issues);
      if (name === "world:snapshot") send(c2s, ws, { name: "world:keyframe", value: { last_tick: 0 } });
    },
  },
);
ws.onmessage = (e: MessageEvent<ArrayBuffer>) => d.onBytes(e.data);

let seq = 0;
export function move(x: number, z: number): void {
  const m: PlayerMove = { p: [x, 0, z], r: 0.5, t: Date.now(), seq: seq++ };
  send(c2s, ws, { name: "player:move", value: m });
}

// The page of docs/frontend.md in its "only these messages" form: it names the 14 messages it
// sends (6 c2s) and reads (8 s2c), so a bundler keeps those codecs and drops the other 291.
// Type-checked under Vite's template and the strictest flags by TypeScript 7 and 5.9
// (tsconfig.json here); bundled by esbuild in scripts/bundle-size.mjs, which checks that no
// other message's codec is in the bundle.

import {
  ChatLineCodec,
  ChatSayCodec,
  DiagPingCodec,
  DiagPongCodec,
  PlayerCorrectionCodec,
  PlayerHeartbeatCodec,
  PlayerJoinedCodec,
  PlayerLeftCodec,
  PlayerMoveCodec,
  PlayerMoveRelayedCodec,
  SessionHelloCodec,
  SessionWelcomeCodec,
  WorldKeyframeRequestCodec,
  WorldSnapshotCodec,
  c2sOnly,
  createDispatcher,
  s2cOnly,
  send,
  PROTOCOL_VERSION,
} from "village-protocol";

/** What this page sends. */
const out = c2sOnly([SessionHelloCodec, PlayerMoveCodec, PlayerHeartbeatCodec, WorldKeyframeRequestCodec, DiagPingCodec, ChatSayCodec]);

/** What this page reads; the server's other messages are ignored and counted (`d.ignored`). */
const reads = s2cOnly([
  SessionWelcomeCodec,
  PlayerJoinedCodec,
  PlayerLeftCodec,
  PlayerMoveRelayedCodec,
  PlayerCorrectionCodec,
  WorldSnapshotCodec,
  DiagPongCodec,
  ChatLineCodec,
]);

/** Joins the room at `url` and draws what it hears into `log`. */
export function join(url: string, log: string[]): WebSocket {
  const ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  const d = createDispatcher(
    reads,
    {
      "session:welcome": (w) => log.push(`welcome ${w.s}`),
      "player:joined": (j) => log.push(`+ ${j.name}`),
      "player:left": (l) => log.push(`- ${l.s} ${l.reason}`),
      "player:move": (m) => log.push(`${m.s} at ${m.p.join(",")}`),
      "player:correction": (c) => log.push(`back to ${c.pos.join(",")}`),
      "world:snapshot": (snap) => log.push(`tick ${snap.tick}: ${snap.entities.length} entities`),
      "diag:pong": (p) => log.push(`rtt ${Date.now() - p.sent} ms`),
      "chat:message": (c) => log.push(`${c.name}: ${c.text}`),
    },
    {
      others: "ignore",
      onInvalid: (name, issues) => {
        log.push(`dropped ${name}: ${issues.map((i) => `${i.code} at ${i.path}`).join(", ")}`);
        if (name === "world:snapshot") send(out, ws, { name: "world:keyframe", value: { last_tick: 0 } });
      },
    },
  );
  ws.onmessage = (e: MessageEvent<ArrayBuffer>) => d.onBytes(e.data);
  ws.onopen = () => {
    send(out, ws, { name: "session:hello", value: { protocol: PROTOCOL_VERSION, build: "page", locale: "en" } });
    send(out, ws, { name: "player:heartbeat", value: { t: Date.now(), visible: true } });
    send(out, ws, { name: "diag:ping", value: { nonce: 1, sent: Date.now(), want_stats: false } });
    send(out, ws, { name: "chat:message", value: { text: "hello", channel: "Local" } });
  };
  return ws;
}

let seq = 0;

/** Sends one move. */
export function move(ws: WebSocket, x: number, z: number): void {
  send(out, ws, { name: "player:move", value: { p: [x, 0, z], r: 0, t: Date.now(), seq: seq++ } });
}

// The same client in Node with `ws` (its own WebSocket type): `send` and `onBytes` accept
// what `ws` sends and receives.

import WebSocket from "ws";
import { c2s, createDispatcher, s2c, send } from "village-protocol";

export function connect(url: string): WebSocket {
  const socket = new WebSocket(url);
  const d = createDispatcher(s2c, { "session:welcome": (w) => console.log(w.s) });
  socket.on("message", (data: WebSocket.RawData) => {
    if (!Array.isArray(data)) d.onBytes(data);
  });
  socket.on("open", () => send(c2s, socket, { name: "player:heartbeat", value: { t: Date.now(), visible: true } }));
  return socket;
}

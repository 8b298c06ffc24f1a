// The generated package in a real Colyseus 0.16 room: the `colyseus` server (0.16, its
// WebSocket transport) and the `colyseus.js` client (0.16), pinned in package.json, on
// 127.0.0.1 in one node process (Node 20). The checks are checks.mjs's, shared with the 0.18
// room on Node 22 (tests/colyseus-018).
//
//   cd tests/colyseus && npm ci && npm test     (scripts/test runs it)
//
// `npm test` runs node --test with --test-force-exit: after `gracefullyShutdown` Colyseus's
// matchmaker still holds timers (seat reservations) that would keep node alive ~10 s.

import { Room, Server } from "colyseus";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { Client } from "colyseus.js";

import { colyseusChecks } from "./checks.mjs";

colyseusChecks({
  Room,
  Server,
  WebSocketTransport,
  Client,
  target: "node20",
  // 0.16's validating form: a function as the third argument, throwing on bad input.
  strict(room, codec, handler) {
    room.onMessage("player:move", handler, (payload) => {
      const r = codec.fromWire(payload);
      if (!r.ok) throw new Error(`${r.issues[0].code}: ${r.issues[0].message}`);
      return r.value;
    });
  },
  leftWithError: false,
});

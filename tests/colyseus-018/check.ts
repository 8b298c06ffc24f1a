// Type-check fixture against @colyseus/core 0.18's real `Room` (compiled by tests/ts's pinned
// TypeScript, `npm run typecheck`; never run): `attachServer(this, c2s, handlers)` takes the
// room as a `ServerRoomLike` and hands each handler the room's `Client` and the natural type;
// the generated codec constants are the Standard Schemas `onMessage(type, schema, handler)`
// takes in 0.17+, the handler then receiving the natural type (not `any`); and the server
// dispatcher over any socket (`createServerDispatcher`) types its client from the handlers,
// or from `Dispatcher`-style annotations (`SocketDispatcher<C2sMessages, Client>`).

import { Room, type Client } from "@colyseus/core";
import {
  ChatSayCodec,
  PlayerMoveCodec,
  type PlayerMove,
  type ChatSay,
  attachServer,
  c2s,
  s2c,
  createServerDispatcher,
  type C2sMessages,
  type S2cMessages,
  type Dispatcher,
  type ServerDispatcher,
  type SocketDispatcher,
  type StandardSchemaV1,
  type WorldSnapshot,
} from "../../generated/ts/src/index.js";

// The codec is typed StandardSchemaV1<T, T>.
const schema: StandardSchemaV1<PlayerMove, PlayerMove> = PlayerMoveCodec;
void schema;

export class VillageRoom extends Room {
  village: ServerDispatcher<C2sMessages, Client> | undefined;
  onCreate(): void {
    this.village = attachServer(this, c2s, {
      "player:move": (client, msg) => {
        const sid: string = client.sessionId;
        const move: PlayerMove = msg;
        // @ts-expect-error the message is a PlayerMove, not a string (so not `any` either)
        const wrong: string = msg;
        void [sid, move, wrong];
      },
    });
    // 0.17+'s validating form: the codec as the Standard Schema (Colyseus closes the sender on bad input).
    this.onMessage("player:move", PlayerMoveCodec, (client: Client, msg) => {
      const x: number = msg.p[0];
      // @ts-expect-error the message is a PlayerMove, not a string
      const wrong: string = msg;
      void [client, x, wrong];
    });
    this.onMessage(ChatSayCodec.name, ChatSayCodec, (_client, msg) => {
      const say: ChatSay = msg;
      void say;
    });
  }
}

/** A server's own record of a player on a plain socket. */
interface Player {
  readonly name: string;
  readonly ws: { send(data: Uint8Array): void };
}

// The dispatcher's type, to keep it in a field; the client type comes from the annotation.
export const players: SocketDispatcher<C2sMessages, Player, S2cMessages> = createServerDispatcher(
  c2s,
  {
    "player:move": (p: Player, m) => {
      const name: string = p.name;
      const move: PlayerMove = m;
      // @ts-expect-error the client is a Player, not a number
      const n: number = p;
      void [name, move, n];
    },
    // @ts-expect-error not a c2s message
    "no:such": () => {},
  },
  { out: s2c, socketOf: (p) => p.ws },
);
const snapshot: WorldSnapshot = { tick: 1, keyframe: false, entities: [], gone: [] };
players.send({ name: "a", ws: { send: () => {} } }, { name: "world:snapshot", value: snapshot });
// @ts-expect-error a c2s message is not sent by the server
players.send({ name: "a", ws: { send: () => {} } }, { name: "player:move", value: { p: [0, 0, 0], r: 0, t: 0, seq: 0 } });
// A client-side dispatcher's type.
export const client: Dispatcher<S2cMessages> | undefined = undefined;

// Type-check fixture, against @colyseus/core 0.17's real `Room`:
// `attachServer(this, c2s, handlers)` accepts the room as a `ServerRoomLike` (its plain
// `onMessage(type, (client, message) => ...)`) and hands each handler the room's `Client` and
// the natural type; and the generated codec constants are Standard Schemas that
// `onMessage(type, schema, handler)` accepts, the handler then receiving the natural type (not
// `any`); that face is typed, but Colyseus disconnects a sender whose input fails it, so the
// dispatch of untrusted input is `attachServer`'s. Compiled with
// `tsc -p colyseus/tsconfig.json --noEmit` (skipLibCheck: Colyseus's own declarations are not
// ours to check). Never run.

import { Room, type Client } from "@colyseus/core-017";
import {
  ChatSayCodec,
  PlayerMoveCodec,
  type ChatSay,
  type PlayerMove,
  attachServer,
  c2s,
  type Issue,
  type ServerDispatcher,
  type ServerRoomLike,
  type StandardSchemaV1,
  type C2sMessages,
} from "../../../generated/ts/src/index.js";

// The codec is typed StandardSchemaV1<T, T>.
const schema: StandardSchemaV1<PlayerMove, PlayerMove> = PlayerMoveCodec;
void schema;

// The real Room is a ServerRoomLike of its Client.
const asServerRoom = (room: Room): ServerRoomLike<Client> => room;
void asServerRoom;

export class ServerDispatchRoom extends Room {
  village: ServerDispatcher<C2sMessages, Client> | undefined;
  onCreate(): void {
    this.village = attachServer(
      this,
      c2s,
      {
        "player:move": (client, msg) => {
          const c: Client = client;
          // @ts-expect-error the client is the room's Client, not a number (so not `any` either)
          const notClient: number = client;
          void notClient;
          const move: PlayerMove = msg;
          // @ts-expect-error the message is a PlayerMove, not a string (so not `any` either)
          const wrong: string = msg;
          void c;
          void move;
          void wrong;
        },
        "chat:message": (client, msg, name) => {
          const sid: string = client.sessionId;
          const n: "chat:message" = name;
          void sid;
          void n;
          void msg;
        },
        // @ts-expect-error not a c2s message
        "no:such": () => {},
      },
      { onInvalid: (name: string, issues: readonly Issue[], client: Client) => void [name, issues, client] },
    );
    const dropped: number | undefined = this.village.dropped["player:move"];
    void dropped;
  }
}

export class VillageRoom extends Room {
  onCreate(): void {
    this.onMessage("player:move", PlayerMoveCodec, (client: Client, msg) => {
      const move: PlayerMove = msg;
      const x: number = msg.p[0];
      const seq: number | undefined = msg.seq;
      // @ts-expect-error the message is a PlayerMove, not a string (so not `any` either)
      const wrong: string = msg;
      void client;
      void move;
      void x;
      void seq;
      void wrong;
    });
    this.onMessage(ChatSayCodec.name, ChatSayCodec, (_client, msg) => {
      const say: ChatSay = msg;
      void say;
    });
  }
}

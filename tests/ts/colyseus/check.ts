// Type-check fixture (issue 7, item 3): the generated codec constants are Standard Schemas
// that @colyseus/core 0.17's `onMessage(type, schema, handler)` accepts, and the handler then
// receives the natural type (not `any`). Compiled with `tsc -p colyseus/tsconfig.json --noEmit`
// (skipLibCheck: Colyseus's own declarations are not ours to check). Never run.

import { Room, type Client } from "@colyseus/core-017";
import {
  ChatSayCodec,
  PlayerMoveCodec,
  type ChatSay,
  type PlayerMove,
  type StandardSchemaV1,
} from "../../../generated/ts/src/index.js";

// The codec is typed StandardSchemaV1<T, T>.
const schema: StandardSchemaV1<PlayerMove, PlayerMove> = PlayerMoveCodec;
void schema;

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

// Unit enums in the generated package: the constant bearing a type's name holds values of
// that type (`Channel.Trade === "Trade"`), so the natural code type-checks and encodes; the
// wire numbers are `X$numbers`. The numbers are checked against `tuplet.lock.json`, which the
// Rust schema loader writes from the declarations (not the TypeScript emitter).

import assert from "node:assert/strict";
import { test } from "node:test";
import * as pkg from "../../../generated/ts/src/index.js";
import { Channel, Channel$numbers, ChatSayCodec, type ChatSay } from "../../../generated/ts/src/index.js";
import { toHex as hex } from "./generated_support.js";
import { readRepoFile as readText } from "./support.js";

interface LockVariant {
  name: string;
  number: number;
  shape: string;
}
interface LockType {
  kind: string;
  data?: boolean;
  variants?: LockVariant[];
}

const lock = JSON.parse(readText("tuplet.lock.json")) as { types: Record<string, LockType> };
const exported = pkg as unknown as Record<string, unknown>;

test("a unit enum constant used as a value type-checks and encodes", () => {
  // This line is the point: with the constant holding wire numbers, tsc rejected it
  // (`Type '3' is not assignable to type 'Channel'`).
  const say: ChatSay = { text: "hi", channel: Channel.Trade };
  assert.equal(Channel.Trade, "Trade");
  assert.equal(Channel$numbers.Trade, 3);
  // [text, channel]: fixarray(2), fixstr "hi", the number 3 (chat.rs: `Trade = 3`).
  assert.equal(hex(ChatSayCodec.encode(say)), "92a2686903");
  const back = ChatSayCodec.decode(ChatSayCodec.encode(say));
  assert.ok(back.ok);
  assert.equal(back.value.channel, Channel.Trade);
  // The named shape writes the name, which is the constant's value.
  const named = ChatSayCodec.toWire(say, { shape: "named" }) as Map<string, unknown> | Record<string, unknown>;
  const channel = named instanceof Map ? named.get("channel") : named["channel"];
  assert.equal(channel, Channel.Trade);
  assert.ok(ChatSayCodec.validate(say).ok);
});

test("every unit enum exports names as values and its numbers as X$numbers, as the lock says", () => {
  let checked = 0;
  for (const [path, t] of Object.entries(lock.types)) {
    if (t.kind !== "enum" || t.data !== false || t.variants === undefined) continue;
    const ident = path.split("::").pop()!;
    const names = exported[ident] as Record<string, unknown> | undefined;
    const numbers = exported[`${ident}$numbers`] as Record<string, unknown> | undefined;
    assert.ok(names !== undefined && numbers !== undefined, `${path}: ${ident} and ${ident}$numbers exported`);
    assert.deepEqual(Object.keys(names), t.variants.map((v) => v.name), path);
    assert.deepEqual(Object.keys(numbers), t.variants.map((v) => v.name), path);
    for (const v of t.variants) {
      assert.equal(names[v.name], v.name, `${ident}.${v.name}`);
      assert.equal(numbers[v.name], v.number, `${ident}$numbers.${v.name}`);
    }
    checked++;
  }
  assert.ok(checked >= 30, `checked ${checked} unit enums`);
  // No stray `$numbers` without its enum in the lock.
  const withNumbers = Object.keys(exported).filter((k) => k.endsWith("$numbers"));
  assert.equal(withNumbers.length, checked);
});

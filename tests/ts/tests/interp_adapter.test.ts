// The generated interpolation adapters (ATTRIBUTES.md "Interpolation"): each drawn value goes
// into the channels the schema's plan assigns and comes back unchanged; `feed` and
// `EntityFeed` put decoded values into an `InterpolatedSet`, entities entering and leaving.

import assert from "node:assert/strict";
import { test } from "node:test";
import { EntityFeed, InterpolatedSet, feed } from "../../../generated/ts/src/runtime/index.js";
import { HorseGaitShown$interp } from "../../../generated/ts/src/horse.js";
import { PlayerMoveRelayed$interp } from "../../../generated/ts/src/player.js";
import { VehicleMoved$interp } from "../../../generated/ts/src/vehicle.js";
import { NearbyEntity$interp, WorldSnapshot$interp } from "../../../generated/ts/src/world.js";
import type { HorseGaitShown, NearbyEntity, PlayerMoveRelayed, VehicleMoved } from "../../../generated/ts/src/index.js";

function roundTrip<T>(a: { layout: { linear: number; angle: number; hold: number }; write(v: T, c: Float64Array): void; read(c: ArrayLike<number>, o: T): void }, v: T, blank: T): Float64Array {
  const c = new Float64Array(a.layout.linear + a.layout.angle + a.layout.hold).fill(-12345);
  a.write(v, c);
  assert.ok(!c.includes(-12345), "every channel is written");
  a.read(c, blank);
  assert.deepEqual(blank, v);
  return c;
}

const move: PlayerMoveRelayed = {
  s: "abcdefghi",
  p: [1.5, -2.25, 30],
  r: -3.1,
  t: 123456,
  seq: 7,
  flags: { running: true, jumping: false, crouching: false, swimming: false, mounted: true, sitting: false, carrying: true },
};

test("player:move relayed: linear p, angle r, hold flags; channels in the plan's order", () => {
  assert.deepEqual(PlayerMoveRelayed$interp.layout, { linear: 3, angle: 1, hold: 1 });
  assert.equal(PlayerMoveRelayed$interp.key(move), "abcdefghi");
  assert.equal(PlayerMoveRelayed$interp.time(move), 123456);
  const blank: PlayerMoveRelayed = { s: "abcdefghi", p: [0, 0, 0], r: 0, t: 123456, seq: 7 };
  const c = roundTrip(PlayerMoveRelayed$interp, move, blank);
  assert.deepEqual([...c], [1.5, -2.25, 30, -3.1, 1 + 16 + 128]);
  // An absent option is NaN, and reads back absent.
  const { flags: _, ...still } = move;
  const c2 = new Float64Array(5);
  PlayerMoveRelayed$interp.write(still, c2);
  assert.ok(Number.isNaN(c2[4]));
  const out = structuredClone(move);
  PlayerMoveRelayed$interp.read(c2, out);
  assert.equal("flags" in out, false);
});

test("vehicle:move, horse:gait and an entity round-trip through their channels", () => {
  const car: VehicleMoved = { vehicle: 4, p: [10, 0, -5], yaw: 1, v: 12.5, t: 99, wheel: -20 };
  roundTrip(VehicleMoved$interp, car, { vehicle: 4, p: [0, 0, 0], yaw: 0, v: 0, t: 99 } as VehicleMoved);
  const horse: HorseGaitShown = { horse: 2, gait: "Canter", stamina: 0.5 };
  const hc = roundTrip(HorseGaitShown$interp, horse, { horse: 2, gait: "Halt", stamina: 0 });
  assert.deepEqual([...hc], [0.5, 3]);
  assert.equal(HorseGaitShown$interp.clock, "arrival");
  const e: NearbyEntity = { id: 9, kind: "Horse", pos: [1, 2, 3], heading: 0.5, speed: 3, anim: 4 };
  const ec = roundTrip(NearbyEntity$interp, e, { id: 9, kind: "Npc", pos: [0, 0, 0], heading: 0, speed: 0, anim: 0 });
  assert.deepEqual([...ec], [1, 2, 3, 3, 0.5, 5, 4]);
  assert.equal(WorldSnapshot$interp.time({ tick: 40, keyframe: false, entities: [], gone: [] }), 2000);
});

test("feed stamps on the sender's clock; EntityFeed enters, pushes and lets go", () => {
  const players = new InterpolatedSet<string>(PlayerMoveRelayed$interp.layout);
  for (let i = 0; i < 4; i++) {
    feed(players, PlayerMoveRelayed$interp, { ...move, p: [i, 0, 0], t: 1000 + i * 100 }, 5000 + i * 100);
  }
  assert.equal(players.size, 1);
  assert.equal(players.get("abcdefghi")!.length, 4);

  const npcs = new EntityFeed(new InterpolatedSet<number>(NearbyEntity$interp.layout), NearbyEntity$interp);
  const ent = (id: number, x: number): NearbyEntity => ({ id, kind: "Npc", pos: [x, 0, 0], heading: 0, speed: 1, anim: 0 });
  npcs.update(1000, [ent(1, 0), ent(2, 0), ent(3, 0)], 1100);
  npcs.update(1050, [ent(1, 1), ent(3, 1)], 1150);
  assert.equal(npcs.set.size, 2);
  assert.equal(npcs.set.get(2), undefined);
  assert.equal(npcs.set.get(1)!.length, 2);
  npcs.update(1100, [ent(4, 0), ent(3, 2)], 1200);
  assert.deepEqual([0, 1].map((i) => npcs.set.keyAt(i)).sort(), [3, 4]);
  assert.equal(npcs.set.get(4)!.length, 1, "an entity entering reuses a pooled, reset interpolator");
});

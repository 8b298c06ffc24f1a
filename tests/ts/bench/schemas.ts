// Zod 4 schemas of the three benchmark messages, as a team without tuplet would write them:
// the natural value (an object of doubles, enums as names) with the same constraints as the
// tuplet declarations (ranges in natural units, string byte lengths of ASCII ids, list lengths).

import { z } from "zod";

const int = (min: number, max: number) => z.number().int().min(min).max(max);
const pos = z.tuple([z.number().min(-5000).max(5000), z.number().min(-5000).max(5000), z.number().min(-5000).max(5000)]);
const heading = z.number().min(-3.1416).max(3.1416);

/** The relayed `player:move`. */
export const PlayerMoveRelayed = z.object({
  s: z.string().length(9),
  p: pos,
  r: heading,
  t: int(0, Number.MAX_SAFE_INTEGER),
  seq: int(0, 4294967295).optional(),
  flags: z
    .object({
      running: z.boolean(),
      jumping: z.boolean(),
      crouching: z.boolean(),
      swimming: z.boolean(),
      mounted: z.boolean(),
      sitting: z.boolean(),
      carrying: z.boolean(),
    })
    .optional(),
});

const Bird = z.object({
  id: int(0, 65535),
  species: z.union([z.enum(["Sparrow", "Robin", "Pigeon", "Gull", "Crow", "Heron", "Owl", "Kingfisher"]), z.number().int()]),
  x: z.number().min(-5000).max(5000),
  y: z.number().min(-100).max(1000),
  z: z.number().min(-5000).max(5000),
  yaw: heading,
  pitch: z.number().min(-1.5708).max(1.5708),
  state: z.enum(["Perched", "Hopping", "Flying", "Gliding", "Landing", "Fleeing"]),
  flap: z.number().min(0).max(1),
  scale: z.number().min(0.5).max(2),
});

/** `birds:stream`. */
export const BirdStream = z.object({ b: z.array(Bird).max(80) });

const NearbyEntity = z.object({
  id: int(0, 4294967295),
  kind: z.enum(["Npc", "Pet", "Vehicle", "Boat", "Horse", "Ferry"]),
  pos,
  heading,
  speed: z.number().min(0).max(60),
  anim: int(0, 255),
  owner: z.string().length(9).optional(),
  label: z.string().max(24).optional(),
});

/** `world:snapshot`. */
export const WorldSnapshot = z.object({
  tick: int(0, 4294967295),
  keyframe: z.boolean(),
  entities: z.array(NearbyEntity).max(50),
  gone: z.array(int(0, 4294967295)).max(64),
});

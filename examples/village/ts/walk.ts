// The village's walking body and its step: the TypeScript twin of the Rust
// `village::walk::step` (examples/village/src/walk.rs), which the room servers run on every
// `input:batch` frame. A page predicts its own avatar with it (`walker` is a `Predictor` for
// the runtime's `Reconciler`) and reconciles on `input:ack`'s `p` and `r`. The arithmetic is
// the Rust function's in 32-bit floats (`Math.fround` after every operation), so both sides
// agree on the shared traces in tests/fixtures/walk_traces.json to within a last-bit
// difference of `cos` and `sin`.

import type { Predictor } from "../../../codegen/ts-runtime/index.js";
import type { Buttons, InputFrame } from "../../../generated/ts/src/index.js";

const f = Math.fround;
const PI = f(Math.PI);
const TAU = f(2 * Math.PI);

/** Walking speed, metres a second (forward held). */
export const WALK = f(1.6);
/** Sprinting speed, metres a second (forward and sprint held). */
export const SPRINT = 5;
/** The map's half-width, metres: a body stays within ±MAP on x and z. */
export const MAP = 5000;

/** A walking body: where it stands and which way it faces. */
export interface Body {
  /** Position, metres (x, y, z; walking never changes y). */
  pos: [number, number, number];
  /** Heading, radians in [−π, π): 0 faces +x, π/2 faces +z. */
  heading: number;
}

/** Rust's `f32::rem_euclid`. */
function remEuclid(x: number, m: number): number {
  const r = f(x % m);
  return r < 0 ? f(r + m) : r;
}

function clampMap(x: number): number {
  return Math.min(MAP, Math.max(-MAP, x));
}

/**
 * Steps `body` in place by one input frame: turn by the look yaw (`look[0]`), then walk
 * forward in the horizontal plane at WALK, or SPRINT with sprint held, for `dt` ms, within
 * the map. Every other button and `steer` do nothing to a walker.
 */
export function step(body: Body, frame: InputFrame): void {
  const dt = f(frame.dt / 1000);
  body.heading = f(remEuclid(f(f(f(body.heading) + f(frame.look[0])) + PI), TAU) - PI);
  const v = frame.buttons.forward ? (frame.buttons.sprint ? SPRINT : WALK) : 0;
  const cos = f(Math.cos(body.heading));
  const sin = f(Math.sin(body.heading));
  body.pos[0] = clampMap(f(body.pos[0] + f(f(cos * v) * dt)));
  body.pos[2] = clampMap(f(body.pos[2] + f(f(sin * v) * dt)));
}

/** The walker for the runtime's `Reconciler`: x and z drawn, then the heading. */
export const walker: Predictor<Body, InputFrame> = {
  linear: 2,
  angle: 1,
  step,
  channels(b, out) {
    out[0] = b.pos[0];
    out[1] = b.pos[2];
    out[2] = b.heading;
  },
  copy(from, to) {
    to.pos[0] = from.pos[0];
    to.pos[1] = from.pos[1];
    to.pos[2] = from.pos[2];
    to.heading = from.heading;
  },
};

const BUTTONS: readonly (keyof Buttons)[] = ["forward", "back", "left", "right", "jump", "sprint", "interact", "primary", "aim", "brake", "horn"];

/** All eleven buttons from the pressed ones alone: `buttons({ forward: true, sprint: true })`. */
export function buttons(pressed: Partial<Buttons>): Buttons {
  const out = {} as Record<keyof Buttons, boolean>;
  for (const name of BUTTONS) out[name] = pressed[name] === true;
  return out;
}

/**
 * An input frame from the pressed buttons alone: `inputFrame({ forward: true, sprint: true })`
 * is one 16 ms frame with no look and no steer (the Rust side writes
 * `Buttons { forward: true, sprint: true, ..Buttons::default() }`).
 */
export function inputFrame(pressed: Partial<Buttons>, dt = 16, yaw = 0): InputFrame {
  return { dt, buttons: buttons(pressed), look: [yaw, 0], steer: 0 };
}

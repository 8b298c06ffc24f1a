//! The village's walking body and its step, the code client and server share: the server
//! plays a player's `input:batch` frames through [`step`], and a predicting client runs the
//! same function on the same frames (the TypeScript twin is `examples/village/ts/walk.ts`).
//! No messages here.

use std::f32::consts::{PI, TAU};

use crate::input::InputFrame;

/// Walking speed, metres a second (forward held).
pub const WALK: f32 = 1.6;
/// Sprinting speed, metres a second (forward and sprint held).
pub const SPRINT: f32 = 5.0;
/// The map's half-width, metres: a body stays within ±`MAP` on x and z (the wire's range).
pub const MAP: f32 = 5000.0;

/// A walking body: where it stands and which way it faces.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Body {
    /// Position, metres (x, y, z; y is never changed by walking).
    pub pos: [f32; 3],
    /// Heading, radians in [−π, π): 0 faces +x, π/2 faces +z.
    pub heading: f32,
}

/// Steps `body` by one input frame: turn by the look yaw (`look[0]`), then walk forward in
/// the horizontal plane at [`WALK`], or [`SPRINT`] with sprint held, for `dt` ms, within
/// the map. Every other button and `steer` do nothing to a walker.
pub fn step(body: &mut Body, f: &InputFrame) {
    let dt = f32::from(f.dt) / 1000.0;
    body.heading = (body.heading + f.look[0] + PI).rem_euclid(TAU) - PI;
    let v = match (f.buttons.forward, f.buttons.sprint) {
        (true, true) => SPRINT,
        (true, false) => WALK,
        _ => 0.0,
    };
    body.pos[0] = (body.pos[0] + body.heading.cos() * v * dt).clamp(-MAP, MAP);
    body.pos[2] = (body.pos[2] + body.heading.sin() * v * dt).clamp(-MAP, MAP);
}

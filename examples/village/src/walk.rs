//! The village's walking body and its step, the code client and server share: the server
//! plays a player's `input:batch` frames through [`step`], and a predicting client runs the
//! same function on the same frames (the TypeScript twin is `examples/village/ts/walk.ts`),
//! and input frames built from the pressed buttons alone ([`InputFrame::pressed`], the twin
//! of `inputFrame`). No messages here.

use std::f32::consts::{PI, TAU};

use crate::input::{Buttons, InputFrame};

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

/// One button of [`Buttons`], to build a frame from the pressed buttons alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Button {
    /// `forward`: walk, accelerate.
    Forward,
    /// `back`: reverse.
    Back,
    /// `left`: strafe or steer left.
    Left,
    /// `right`: strafe or steer right.
    Right,
    /// `jump`.
    Jump,
    /// `sprint`: sprint, boost.
    Sprint,
    /// `interact` (E).
    Interact,
    /// `primary`: use the held item.
    Primary,
    /// `aim`.
    Aim,
    /// `brake`: handbrake.
    Brake,
    /// `horn`: horn, bell.
    Horn,
}

impl Button {
    /// Every button, in [`Buttons`]' bit order.
    pub const ALL: [Button; 11] = [
        Button::Forward,
        Button::Back,
        Button::Left,
        Button::Right,
        Button::Jump,
        Button::Sprint,
        Button::Interact,
        Button::Primary,
        Button::Aim,
        Button::Brake,
        Button::Horn,
    ];
}

impl Buttons {
    /// All eleven buttons from the pressed ones alone: `Buttons::pressed(&[Button::Forward])`
    /// (TypeScript: `buttons({ forward: true })`).
    pub fn pressed(pressed: &[Button]) -> Buttons {
        let mut b = Buttons::default();
        for p in pressed {
            let held = match p {
                Button::Forward => &mut b.forward,
                Button::Back => &mut b.back,
                Button::Left => &mut b.left,
                Button::Right => &mut b.right,
                Button::Jump => &mut b.jump,
                Button::Sprint => &mut b.sprint,
                Button::Interact => &mut b.interact,
                Button::Primary => &mut b.primary,
                Button::Aim => &mut b.aim,
                Button::Brake => &mut b.brake,
                Button::Horn => &mut b.horn,
            };
            *held = true;
        }
        b
    }
}

impl InputFrame {
    /// A 16 ms frame with these buttons held, no look, no steer, no view stamp:
    /// `InputFrame::pressed(&[Button::Forward, Button::Sprint])` (TypeScript:
    /// `inputFrame({ forward: true, sprint: true })`). Chain [`InputFrame::dt`] and
    /// [`InputFrame::yaw`] for the rest.
    pub fn pressed(pressed: &[Button]) -> InputFrame {
        InputFrame {
            dt: 16,
            buttons: Buttons::pressed(pressed),
            look: [0.0, 0.0],
            steer: 0,
            view: None,
            ahead: None,
        }
    }

    /// The frame with its length set, ms (1 to 100).
    #[must_use]
    pub fn dt(mut self, ms: u8) -> InputFrame {
        self.dt = ms;
        self
    }

    /// The frame with its look yaw set, radians this frame.
    #[must_use]
    pub fn yaw(mut self, radians: f32) -> InputFrame {
        self.look[0] = radians;
        self
    }
}

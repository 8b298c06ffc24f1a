//! Drawing one time from an interpolator's ring: the curve between two samples, holding at a
//! real sample (past the newest, before the first, before a teleport), the opt-in bounded
//! extrapolation, the teleport snap, and how a jump of the render time is drawn
//! ([`resync_by`]). The twin of TypeScript's `interp_draw.ts`.

use super::curves::{monotone_hermite, ramp_share, wrap_angle};
use super::interp_ring::SampleRing;
use super::settings::NetcodeSettings;

/// What the last frame drew (TypeScript's `InterpState`, same numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum InterpState {
    /// No sample yet.
    Empty = 0,
    /// Between two samples.
    Interpolating = 1,
    /// Past the newest sample and enough missed intervals: positions move on (opt-in, bounded).
    Extrapolating = 2,
    /// At a real sample, not between two: past the newest, before the first, before a teleport.
    Holding = 3,
    /// Jumped: a teleport reached the drawn time, or a long frame gap resynced.
    Snapped = 4,
}

/// How a frame draws a jump of its render time ([`resync_by`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resync {
    /// No jump: the render time moved on as usual.
    None,
    /// From what the last frame drew to the new time's curve, eased out within `recover_ms`.
    Ease,
    /// At once: no blending, no catching up.
    Snap,
}

/// How a frame draws a render time that `jumped` (a resync): after a dry spell (`dry`: the
/// last frame held at the newest sample; a stall ended) it eases over, so recovery converges
/// within about one send interval without a visible jump; after a `frame_gap` (a hidden tab)
/// or with samples coming all along it snaps.
pub fn resync_by(jumped: bool, frame_gap: bool, dry: bool) -> Resync {
    if !jumped {
        Resync::None
    } else if dry && !frame_gap {
        Resync::Ease
    } else {
        Resync::Snap
    }
}

/// How a segment is drawn: a monotone cubic, or a constant acceleration over a share of it at
/// its moving end (into a stop at its end, out of rest at its start).
#[derive(Clone, Copy)]
enum Ramp {
    None,
    IntoStop(f64),
    OutOfRest(f64),
}

/// Draws render time `r` from `ring` into `out` (no recovery offset) and returns the state;
/// `iv` is the sender's average interval (extrapolation waits `extrapolate_after` of them).
pub(super) fn eval_into(
    ring: &SampleRing,
    s: &NetcodeSettings,
    iv: f64,
    r: f64,
    out: &mut [f64],
) -> InterpState {
    if ring.count == 0 {
        return InterpState::Empty;
    }
    let n = ring.n;
    let lin = ring.layout.linear;
    let mv = ring.moving;
    let Some(j) = ring.segment_at(r) else {
        let o = ring.slot(0);
        out.copy_from_slice(&ring.values[o * n..o * n + n]);
        return InterpState::Holding;
    };
    let a = ring.slot(j);
    out.copy_from_slice(&ring.values[a * n..a * n + n]);
    let ta = ring.times[a];
    if j + 1 >= ring.count {
        // past the newest sample: hold, or (opt-in) move positions on after missed intervals
        if !(s.extrapolate_ms > 0.0) || iv.is_nan() {
            return InterpState::Holding;
        }
        let ex = r - ta - s.extrapolate_after * iv;
        if !(ex > 0.0) || ex > s.extrapolate_ms {
            return InterpState::Holding;
        }
        for (c, o) in out.iter_mut().enumerate().take(lin) {
            *o += ring.tangents[a * mv + c] * ex;
        }
        return InterpState::Extrapolating;
    }
    let b = ring.slot(j + 1);
    if ring.cuts[b] {
        return InterpState::Holding; // a teleport next: wait at this side of it
    }
    let h = ring.times[b] - ta;
    let u = (r - ta) / h;
    // Into a stop or out of rest faster than a monotone cubic follows (the slope at the moving
    // end over twice the segment's mean, along the position): a constant acceleration over the
    // share `ramp_share` of the segment at that end, standing still over the rest.
    let (mut dd, mut along0, mut along1, mut still0, mut still1) = (0.0, 0.0, 0.0, true, true);
    for c in 0..s.teleport_channels.min(lin) {
        let d = ring.values[b * n + c] - ring.values[a * n + c];
        let m0 = ring.tangents[a * mv + c];
        let m1 = ring.tangents[b * mv + c];
        dd += d * d;
        along0 += m0 * d;
        along1 += m1 * d;
        still0 &= m0 == 0.0;
        still1 &= m1 == 0.0;
    }
    let ramp = if still1 && !still0 {
        Ramp::IntoStop(ramp_share(along0, dd, h))
    } else if still0 && !still1 {
        Ramp::OutOfRest(ramp_share(along1, dd, h))
    } else {
        Ramp::None
    };
    for (c, o) in out.iter_mut().enumerate().take(mv) {
        let p0 = ring.values[a * n + c];
        let mut d = ring.values[b * n + c] - p0;
        if c >= lin {
            d = wrap_angle(d);
        }
        let v = match ramp {
            Ramp::IntoStop(share) if share < 1.0 => {
                let v = if u < share { u / share } else { 1.0 };
                p0 + d * v * (2.0 - v)
            }
            Ramp::OutOfRest(share) if share < 1.0 => {
                let v = if u > 1.0 - share {
                    (u - 1.0 + share) / share
                } else {
                    0.0
                };
                p0 + d * v * v
            }
            _ => {
                let m0 = ring.tangents[a * mv + c];
                let m1 = ring.tangents[b * mv + c];
                monotone_hermite(p0, d, m0, m1, h, u)
            }
        };
        *o = if c >= lin { wrap_angle(v) } else { v };
    }
    InterpState::Interpolating
}

/// True when a teleport at or before `r` is newer than `cut_done`, the newest one drawn so
/// far (then it becomes `cut_done`).
pub(super) fn teleport_reached(ring: &SampleRing, r: f64, cut_done: &mut f64) -> bool {
    let Some(j) = ring.segment_at(r) else {
        return false;
    };
    let Some(k) = (0..=j).rev().map(|j| ring.slot(j)).find(|&k| ring.cuts[k]) else {
        return false;
    };
    let newest = ring.times[k];
    if !cut_done.is_nan() && newest <= *cut_done {
        return false;
    }
    *cut_done = newest;
    true
}

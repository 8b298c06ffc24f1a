//! Silence when nothing changed, with a forced first report.
//!
//! A player standing still should not keep broadcasting the same pose ten times a second.
//! [`Silence`] compares each report with the last one by [`Wire::wire_eq`] (equal after
//! quantization: a centimetre or a milliradian is the smallest change the wire can carry)
//! and says whether to relay it. The one subtlety: the first unchanged report after
//! movement is [`Report::FirstUnchanged`], which the caller sends to every viewer,
//! bypassing any distance throttling, so nobody is left holding a stale final position.
//!
//! Compare only what viewers draw: take out fields that change on every report (a sample
//! time, a sequence number) before calling [`Silence::observe`].
//!
//! ```
//! use tuplet::silence::{Report, Silence};
//!
//! #[derive(Debug, Clone, PartialEq, tuplet::Record)]
//! struct Pose {
//!     #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
//!     p: [f32; 3],
//! }
//!
//! let mut s = Silence::new();
//! let at = |x: f32| Pose { p: [x, 0.0, 0.0] };
//! assert_eq!(s.observe(&at(1.0)), Report::Changed);
//! assert_eq!(s.observe(&at(1.5)), Report::Changed);
//! assert_eq!(s.observe(&at(1.501)), Report::FirstUnchanged); // same centimetre
//! assert_eq!(s.observe(&at(1.5)), Report::Unchanged);
//! assert_eq!(s.observe(&at(2.0)), Report::Changed);
//! ```

use crate::codec::Wire;

/// What to do with one report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// It differs from the last report (or is the first): relay it as usual.
    Changed,
    /// The first report equal to the last after a change: relay it to every viewer,
    /// whatever its distance throttling says.
    FirstUnchanged,
    /// Equal to the last, and that was already relayed to everyone: stay silent.
    Unchanged,
}

impl Report {
    /// Whether the report is relayed at all.
    pub fn relay(self) -> bool {
        self != Report::Unchanged
    }

    /// Whether it must bypass throttling and reach every viewer.
    pub fn forced(self) -> bool {
        self == Report::FirstUnchanged
    }
}

/// The last report of one stream, and whether it already came to rest.
#[derive(Debug, Clone, PartialEq)]
pub struct Silence<T> {
    last: Option<T>,
    resting: bool,
}

impl<T> Default for Silence<T> {
    fn default() -> Self {
        Silence {
            last: None,
            resting: false,
        }
    }
}

impl<T: Wire + Clone> Silence<T> {
    /// A stream that has reported nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Classifies `value` against the last report and remembers it.
    pub fn observe(&mut self, value: &T) -> Report {
        match &mut self.last {
            Some(last) if last.wire_eq(value) => {
                if self.resting {
                    Report::Unchanged
                } else {
                    self.resting = true;
                    Report::FirstUnchanged
                }
            }
            Some(last) => {
                last.clone_from(value);
                self.resting = false;
                Report::Changed
            }
            None => {
                self.last = Some(value.clone());
                Report::Changed
            }
        }
    }

    /// The last report, if any.
    pub fn last(&self) -> Option<&T> {
        self.last.as_ref()
    }

    /// Whether the stream is at rest (its final pose was already forced to everyone).
    pub fn is_resting(&self) -> bool {
        self.resting
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, tuplet::Record)]
    struct Pose {
        #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
        p: [f32; 3],
        #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
        r: f32,
    }

    fn pose(x: f32, r: f32) -> Pose {
        Pose {
            p: [x, 0.0, 0.0],
            r,
        }
    }

    #[test]
    fn first_report_is_a_change() {
        let mut s = Silence::new();
        assert_eq!(s.observe(&pose(0.0, 0.0)), Report::Changed);
        assert!(!s.is_resting());
    }

    #[test]
    fn only_the_first_unchanged_report_is_forced() {
        let mut s = Silence::new();
        s.observe(&pose(0.0, 0.0));
        let got: Vec<Report> = (0..4).map(|_| s.observe(&pose(0.0, 0.0))).collect();
        assert_eq!(
            got,
            [
                Report::FirstUnchanged,
                Report::Unchanged,
                Report::Unchanged,
                Report::Unchanged
            ]
        );
        assert!(got[0].relay() && got[0].forced());
        assert!(!got[1].relay());
        assert!(s.is_resting());
    }

    #[test]
    fn equality_is_after_quantization() {
        let mut s = Silence::new();
        s.observe(&pose(1.0, 0.5));
        assert_eq!(s.observe(&pose(1.004, 0.5004)), Report::FirstUnchanged);
        assert_eq!(s.observe(&pose(1.006, 0.5)), Report::Changed);
    }

    #[test]
    fn moving_again_rearms_the_forced_report() {
        let mut s = Silence::new();
        s.observe(&pose(0.0, 0.0));
        s.observe(&pose(0.0, 0.0));
        s.observe(&pose(0.0, 0.0));
        assert_eq!(s.observe(&pose(1.0, 0.0)), Report::Changed);
        assert_eq!(s.observe(&pose(1.0, 0.0)), Report::FirstUnchanged);
        assert_eq!(s.last(), Some(&pose(1.0, 0.0)));
    }
}

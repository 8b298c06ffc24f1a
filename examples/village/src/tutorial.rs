//! The tutorial: steps, hints, skipping. Ids 770–789.

/// Sent by a client completing a tutorial step.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "tutorial:step", id = 770, dir = "c2s")]
pub struct TutorialStep {
    /// Step completed.
    #[tuplet(range(0, 31))]
    pub step: u8,
    /// Seconds it took.
    pub took_s: u16,
}

/// The next step to show, with where to point the arrow.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "tutorial:next", id = 770, dir = "s2c")]
pub struct TutorialNext {
    /// Step to show; absent when the tutorial is finished.
    #[tuplet(range(0, 31))]
    pub step: Option<u8>,
    /// Translation key of the hint.
    #[tuplet(len(min = 1, max = 48))]
    pub hint: String,
    /// Arrow target, if the step has one.
    pub target: Option<crate::common::WorldPos>,
}

/// Sent by a client skipping the tutorial (guests may replay it later).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "tutorial:skip", id = 771, dir = "c2s")]
pub struct TutorialSkip {
    /// Steps already seen.
    #[tuplet(range(0, 32))]
    pub seen: u8,
}

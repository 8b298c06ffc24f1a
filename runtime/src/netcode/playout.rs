//! Input playout: a per-player jitter buffer on the server.
//!
//! A client sends its input frames in batches (`input:batch`: the sequence number of the
//! first frame, then the frames), about every 66 ms. The network delivers those batches
//! unevenly; applied as they arrive, the player moves 0, 4 or 8 frames in one server tick
//! and stutters on everyone else's screen. A [`Playout`] queues the frames by sequence
//! number and hands out exactly one per world step:
//!
//! - the queue starts (and restarts after running dry) only once it holds the *target
//!   depth*, or when no frame came for [`PlayoutSettings::idle_flush_steps`] steps; an underrun grows the target by [`PlayoutSettings::grow`], and a second of
//!   slack ([`PlayoutSettings::slack_steps`] steps in which the queue never fell below
//!   [`PlayoutSettings::shrink_slack`]) shrinks it by one, applying one extra frame on that
//!   step so the queue really gets shorter;
//! - a frame already applied, skipped or held (a resent or overlapping batch) is counted
//!   and ignored, so every frame is applied at most once and in order;
//! - a missing frame with later ones queued (a gap) is waited for at most
//!   [`PlayoutSettings::gap_wait_steps`] steps, and not at all once the frames queued
//!   behind it exceed the target depth (waiting would only add delay), then skipped and
//!   counted;
//! - the queue is a fixed ring of [`PlayoutSettings::capacity`] frames covering sequence
//!   numbers `next .. next + capacity`: a frame beyond it drops the oldest queued frames
//!   (counted), so a client cannot make the server hold more, however far ahead it numbers.
//!
//! The ring is allocated once, in [`Playout::new`]; pushing and stepping allocate nothing.
//! The TypeScript runtime's `playout.ts` is the same algorithm; shared traces
//! (`tests/fixtures/playout_traces.json`) hold both to the same applied frames and counters.

/// The playout's constants. [`PLAYOUT_DEFAULTS`] suits 60 Hz input frames sent four to a
/// batch (the village protocol's `input:batch`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayoutSettings {
    /// Frames the ring holds (a power of two): the hard cap on what a client can make the
    /// server keep. 32 is the `queued` range of `input:ack`.
    pub capacity: u32,
    /// Target depth at the start, frames: one batch.
    pub initial_target: u32,
    /// The target never shrinks below this, frames.
    pub min_target: u32,
    /// The target never grows past this, frames (below `capacity`).
    pub max_target: u32,
    /// Frames added to the target on each underrun.
    pub grow: u32,
    /// Steps of slack before the target shrinks by one: a second of 60 Hz steps.
    pub slack_steps: u32,
    /// The queue must have held at least this many frames after every step of the slack
    /// window for the target to shrink.
    pub shrink_slack: u32,
    /// Steps to wait for a missing frame while later ones are queued, before skipping it
    /// (100 ms at 60 Hz: a WebSocket never reorders, so a gap there is a client that
    /// skipped numbers; the wait ends early once the queue exceeds the target).
    pub gap_wait_steps: u32,
    /// Steps without a new frame after which a priming queue starts below the target (a
    /// client that stopped sending gets its last frames applied instead of held forever).
    pub idle_flush_steps: u32,
}

/// The default settings (see each field).
pub const PLAYOUT_DEFAULTS: PlayoutSettings = PlayoutSettings {
    capacity: 32,
    initial_target: 4,
    min_target: 2,
    max_target: 24,
    grow: 2,
    slack_steps: 60,
    shrink_slack: 2,
    gap_wait_steps: 6,
    idle_flush_steps: 12,
};

/// What one [`Playout::step`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepState {
    /// Nothing was ever pushed.
    Idle,
    /// Filling up to the target depth before (re)starting; nothing applied.
    Priming,
    /// One frame applied (two when the target just shrank: [`Step::applied`]).
    Applied,
    /// The next frame is missing but later ones are queued; waiting for it, nothing applied.
    GapWait,
    /// The queue ran dry: nothing applied, the target grew, priming again.
    Underrun,
}

/// The outcome of one world step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// What happened.
    pub state: StepState,
    /// Frames applied on this step: 0, 1, or 2 (a catch-up after the target shrank).
    pub applied: u32,
}

/// Counters of one player's playout since it was created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    /// Frames pushed (every frame of every batch, accepted or not).
    pub received: u64,
    /// Frames applied.
    pub applied: u64,
    /// Frames already queued when pushed again (a resent or overlapping batch).
    pub duplicates: u64,
    /// Frames older than the next one to apply (already applied or skipped, or numbered far
    /// behind): ignored.
    pub stale: u64,
    /// Sequence numbers skipped without ever being applied (gaps, and room made by the cap).
    pub skipped: u64,
    /// Queued frames dropped to make room for a frame beyond the ring (the hard cap).
    pub dropped: u64,
    /// Times the queue ran dry while playing.
    pub underruns: u64,
    /// Times the target shrank (each with a catch-up frame when one was queued).
    pub shrinks: u64,
    /// Steps with two frames applied (catch-ups).
    pub catchups: u64,
}

/// One player's input jitter buffer (see the module docs). `F` is the game's input frame.
#[derive(Debug, Clone)]
pub struct Playout<F> {
    settings: PlayoutSettings,
    slots: Box<[Option<F>]>,
    mask: u32,
    started: bool,
    playing: bool,
    next: u32,
    held: u32,
    target: u32,
    gap_wait: u32,
    since_push: u32,
    window_steps: u32,
    window_min: u32,
    last_applied: Option<u32>,
    stats: PlayoutStats,
}

impl<F> Playout<F> {
    /// A playout with [`PLAYOUT_DEFAULTS`].
    pub fn new() -> Self {
        Self::with_settings(PLAYOUT_DEFAULTS)
    }

    /// A playout with these settings; the only allocation it makes.
    ///
    /// # Panics
    /// If `capacity` is not a power of two, or the targets are not
    /// `1 <= min_target <= initial_target <= max_target < capacity`.
    pub fn with_settings(settings: PlayoutSettings) -> Self {
        let s = settings;
        assert!(
            s.capacity.is_power_of_two(),
            "playout capacity must be a power of two"
        );
        assert!(
            1 <= s.min_target
                && s.min_target <= s.initial_target
                && s.initial_target <= s.max_target
                && s.max_target < s.capacity,
            "playout targets must satisfy 1 <= min <= initial <= max < capacity"
        );
        Playout {
            settings,
            slots: (0..s.capacity).map(|_| None).collect(),
            mask: s.capacity - 1,
            started: false,
            playing: false,
            next: 0,
            held: 0,
            target: s.initial_target,
            gap_wait: 0,
            since_push: 0,
            window_steps: 0,
            window_min: u32::MAX,
            last_applied: None,
            stats: PlayoutStats::default(),
        }
    }

    /// The settings it runs with.
    pub fn settings(&self) -> &PlayoutSettings {
        &self.settings
    }

    /// Frames queued now.
    pub fn held(&self) -> u32 {
        self.held
    }

    /// The current target depth, frames (what `input:buffer` announces).
    pub fn target(&self) -> u32 {
        self.target
    }

    /// The sequence number of the last frame applied (what `input:ack` sends), if any.
    pub fn last_applied(&self) -> Option<u32> {
        self.last_applied
    }

    /// The sequence number the next applied frame must have (meaningful once a frame arrived).
    pub fn next_seq(&self) -> u32 {
        self.next
    }

    /// The counters.
    pub fn stats(&self) -> &PlayoutStats {
        &self.stats
    }

    fn slot(&self, seq: u32) -> usize {
        (seq & self.mask) as usize
    }

    /// Queues one frame numbered `seq`.
    pub fn push_one(&mut self, seq: u32, frame: F) {
        self.stats.received += 1;
        if !self.started {
            self.started = true;
            self.next = seq;
        }
        let ahead = seq.wrapping_sub(self.next) as i32;
        if ahead < 0 {
            self.stats.stale += 1;
            return;
        }
        if ahead as u32 >= self.settings.capacity {
            // Beyond the ring: drop the oldest so that `seq` is its last slot.
            self.advance_to(seq.wrapping_sub(self.settings.capacity - 1));
        }
        let i = self.slot(seq);
        if self.slots[i].is_some() {
            self.stats.duplicates += 1;
            return;
        }
        self.slots[i] = Some(frame);
        self.held += 1;
        self.since_push = 0;
    }

    /// Queues a batch: `frames[k]` is numbered `first + k` (wrapping).
    pub fn push(&mut self, first: u32, frames: &[F])
    where
        F: Clone,
    {
        for (k, f) in frames.iter().enumerate() {
            self.push_one(first.wrapping_add(k as u32), f.clone());
        }
    }

    /// Moves `next` forward to `to`, dropping queued frames before it (the cap) and counting
    /// the numbers passed over. At most `capacity` slots are visited, however far `to` is.
    fn advance_to(&mut self, to: u32) {
        let span = to.wrapping_sub(self.next);
        let mut dropped = 0u32;
        if span >= self.settings.capacity {
            for s in self.slots.iter_mut() {
                if s.take().is_some() {
                    dropped += 1;
                }
            }
        } else {
            for k in 0..span {
                let i = self.slot(self.next.wrapping_add(k));
                if self.slots[i].take().is_some() {
                    dropped += 1;
                }
            }
        }
        self.held -= dropped;
        self.stats.dropped += u64::from(dropped);
        self.stats.skipped += u64::from(span - dropped);
        self.next = to;
        self.gap_wait = 0;
    }

    /// One world step: applies at most one queued frame (two on a catch-up) through `apply`,
    /// which gets each frame's sequence number and the frame, in order.
    pub fn step(&mut self, mut apply: impl FnMut(u32, F)) -> Step {
        let none = |state| Step { state, applied: 0 };
        if !self.started {
            return none(StepState::Idle);
        }
        if !self.playing {
            self.since_push = self.since_push.saturating_add(1);
            let flush = self.held > 0 && self.since_push > self.settings.idle_flush_steps;
            if self.held < self.target && !flush {
                return none(StepState::Priming);
            }
            self.playing = true;
            self.window_steps = 0;
            self.window_min = u32::MAX;
        }
        let i = self.slot(self.next);
        if self.slots[i].is_none() {
            if self.held == 0 {
                self.stats.underruns += 1;
                self.target = (self.target + self.settings.grow).min(self.settings.max_target);
                self.playing = false;
                self.gap_wait = 0;
                return none(StepState::Underrun);
            }
            self.gap_wait += 1;
            if self.gap_wait <= self.settings.gap_wait_steps && self.held <= self.target {
                return none(StepState::GapWait);
            }
            // Skip to the oldest queued frame (one exists: held > 0).
            let mut k = 1;
            while self.slots[self.slot(self.next.wrapping_add(k))].is_none() {
                k += 1;
            }
            self.advance_to(self.next.wrapping_add(k));
        }
        let mut applied = self.apply_next(&mut apply);
        self.window_min = self.window_min.min(self.held);
        self.window_steps += 1;
        if self.window_steps >= self.settings.slack_steps {
            if self.window_min >= self.settings.shrink_slack
                && self.target > self.settings.min_target
            {
                self.target -= 1;
                self.stats.shrinks += 1;
                if self.slots[self.slot(self.next)].is_some() {
                    applied += self.apply_next(&mut apply);
                    self.stats.catchups += 1;
                }
            }
            self.window_steps = 0;
            self.window_min = u32::MAX;
        }
        Step {
            state: StepState::Applied,
            applied,
        }
    }

    /// Applies the frame at `next` (present).
    fn apply_next(&mut self, apply: &mut impl FnMut(u32, F)) -> u32 {
        let i = self.slot(self.next);
        let Some(frame) = self.slots[i].take() else {
            return 0;
        };
        self.held -= 1;
        self.gap_wait = 0;
        let seq = self.next;
        self.next = seq.wrapping_add(1);
        self.last_applied = Some(seq);
        self.stats.applied += 1;
        apply(seq, frame);
        1
    }
}

impl<F> Default for Playout<F> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn applied_seqs(p: &mut Playout<u32>, steps: usize) -> Vec<u32> {
        let mut out = Vec::new();
        for _ in 0..steps {
            p.step(|seq, f| {
                assert_eq!(seq, f, "frame applied under another number");
                out.push(seq);
            });
        }
        out
    }

    fn batch(first: u32, n: u32) -> Vec<u32> {
        (first..first + n).collect()
    }

    #[test]
    fn primes_to_the_target_then_applies_one_frame_per_step() {
        let mut p = Playout::new();
        assert_eq!(p.step(|_, _| ()).state, StepState::Idle);
        p.push(10, &batch(10, 3));
        assert_eq!(p.step(|_, _| ()).state, StepState::Priming);
        p.push(13, &batch(13, 4));
        assert_eq!(applied_seqs(&mut p, 3), vec![10, 11, 12]);
        assert_eq!(p.last_applied(), Some(12));
        assert_eq!(p.held(), 4);
    }

    #[test]
    fn a_resent_or_overlapping_batch_is_applied_once() {
        let mut p = Playout::new();
        p.push(0, &batch(0, 4));
        p.push(0, &batch(0, 4));
        p.push(2, &batch(2, 4));
        let got = applied_seqs(&mut p, 6);
        assert_eq!(got, vec![0, 1, 2, 3, 4, 5]);
        p.push(1, &batch(1, 4));
        assert_eq!(p.stats().duplicates, 6);
        assert_eq!(p.stats().stale, 4);
        assert_eq!(p.stats().applied, 6);
    }

    #[test]
    fn a_sender_that_stops_gets_its_last_frames_applied() {
        let mut p = Playout::new();
        p.push(0, &batch(0, 2));
        let mut steps = 0;
        while p.stats().applied < 2 {
            p.step(|_, _| ());
            steps += 1;
        }
        assert_eq!(steps, PLAYOUT_DEFAULTS.idle_flush_steps + 2);
    }

    #[test]
    fn an_underrun_grows_the_target_and_primes_again() {
        let mut p = Playout::new();
        p.push(0, &batch(0, 4));
        assert_eq!(applied_seqs(&mut p, 4), vec![0, 1, 2, 3]);
        assert_eq!(p.step(|_, _| ()).state, StepState::Underrun);
        assert_eq!(
            p.target(),
            PLAYOUT_DEFAULTS.initial_target + PLAYOUT_DEFAULTS.grow
        );
        p.push(4, &batch(4, 4));
        assert_eq!(
            p.step(|_, _| ()).state,
            StepState::Priming,
            "4 < the grown target of 6"
        );
        p.push(8, &batch(8, 4));
        assert_eq!(applied_seqs(&mut p, 2), vec![4, 5]);
        assert_eq!(p.stats().underruns, 1);
    }

    #[test]
    fn a_second_of_slack_shrinks_the_target_with_one_catch_up_frame() {
        let s = PLAYOUT_DEFAULTS;
        let mut p = Playout::new();
        // Keep 6+ frames queued for a whole slack window.
        let mut seq = 0;
        p.push(seq, &batch(seq, 8));
        seq += 8;
        let mut applied = Vec::new();
        for step in 0..s.slack_steps {
            if p.held() < 8 {
                p.push(seq, &batch(seq, 1));
                seq += 1;
            }
            let r = p.step(|q, _| applied.push(q));
            let want = if step + 1 == s.slack_steps { 2 } else { 1 };
            assert_eq!(r.applied, want, "step {step}");
        }
        assert_eq!(p.target(), s.initial_target - 1);
        assert_eq!(p.stats().catchups, 1);
        assert!(
            applied.windows(2).all(|w| w[1] == w[0] + 1),
            "in order, none missed"
        );
    }

    #[test]
    fn a_gap_is_waited_for_then_skipped_and_counted() {
        let mut p = Playout::new();
        p.push(0, &batch(0, 4));
        p.push(6, &batch(6, 4));
        assert_eq!(applied_seqs(&mut p, 4), vec![0, 1, 2, 3]);
        for _ in 0..PLAYOUT_DEFAULTS.gap_wait_steps {
            assert_eq!(p.step(|_, _| ()).state, StepState::GapWait);
        }
        assert_eq!(applied_seqs(&mut p, 1), vec![6]);
        assert_eq!(p.stats().skipped, 2);
        // A late frame of the gap is stale now.
        p.push(4, &batch(4, 2));
        assert_eq!(p.stats().stale, 2);
        assert_eq!(applied_seqs(&mut p, 3), vec![7, 8, 9]);
    }

    #[test]
    fn a_frame_far_ahead_drops_the_oldest_and_holds_no_more_than_the_cap() {
        let cap = PLAYOUT_DEFAULTS.capacity;
        let mut p = Playout::new();
        p.push(0, &batch(0, 8));
        p.push_one(1_000_000, 1_000_000);
        assert_eq!(p.held(), 1);
        assert_eq!(p.stats().dropped, 8);
        assert_eq!(p.next_seq(), 1_000_000 - (cap - 1));
        // Ten times the rate: held stays at the cap.
        let mut seq = 1_000_001;
        for _ in 0..100 {
            p.push(seq, &batch(seq, 8));
            seq += 8;
            assert!(p.held() <= cap);
        }
        assert_eq!(p.held(), cap);
        // Sequence numbers wrap.
        let mut w = Playout::new();
        w.push(u32::MAX - 1, &[u32::MAX - 1, u32::MAX, 0, 1]);
        assert_eq!(applied_seqs(&mut w, 4), vec![u32::MAX - 1, u32::MAX, 0, 1]);
    }
}

//! Deterministic sample values for tests, fuzzers and benchmarks.
//!
//! The derive emits `Wire::sample` for every type; it draws from this generator so a seed
//! gives the same value on every machine.

/// Which corner of the value space `sample` aims at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SampleMode {
    /// Every number at its minimum, every list and string at its shortest, options absent.
    Min,
    /// Every number at its maximum, every list and string at its longest, options present.
    Max,
    /// Options absent, everything else random.
    Absent,
    /// Options present, everything else random.
    Present,
    /// Everything random within its constraints.
    Random,
}

impl SampleMode {
    /// Every mode, for tests that cover them all.
    pub const ALL: [SampleMode; 5] = [
        SampleMode::Min,
        SampleMode::Max,
        SampleMode::Absent,
        SampleMode::Present,
        SampleMode::Random,
    ];
}

/// A small deterministic generator (SplitMix64): no dependency, same numbers everywhere.
#[derive(Debug, Clone)]
pub struct SampleRng(u64);

impl SampleRng {
    /// A generator for this seed.
    pub fn new(seed: u64) -> SampleRng {
        SampleRng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `min..=max` (`min <= max`).
    pub fn int_in(&mut self, min: i128, max: i128) -> i128 {
        let span = (max - min) as u128 + 1;
        let r = ((self.next_u64() as u128) << 64) | self.next_u64() as u128;
        if span == 0 {
            min + r as i128
        } else {
            min + (r % span) as i128
        }
    }

    /// A uniform float in `min..=max`.
    pub fn float_in(&mut self, min: f64, max: f64) -> f64 {
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        (min + (max - min) * unit).clamp(min, max)
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// A value in `0..n` (`n > 0`), for picking a variant.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

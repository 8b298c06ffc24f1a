//! A small deterministic PRNG: every random draw of the emulator comes from a seed.

/// mulberry32, the generator of the netcode and city labs, so a seed means the same kind of
/// stream in the labs and on the emulated link.
#[derive(Clone, Debug)]
pub struct Rng {
    s: u32,
}

impl Rng {
    /// A generator from `seed` (mixed like the labs' `new Rng(seed)`).
    pub fn new(seed: u32) -> Self {
        Rng {
            s: seed.wrapping_mul(0x9e37_79b9),
        }
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        self.s = self.s.wrapping_add(0x6d2b_79f5);
        let mut t = self.s;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        f64::from(t ^ (t >> 14)) / 4_294_967_296.0
    }

    /// Uniform in [a, b).
    pub fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.next_f64()
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The labs' TypeScript `new Rng(1)` draws these first values (mulberry32 over
    /// `seed * 0x9e3779b9`); computed by examples/netcode-lab/src/rng.ts.
    #[test]
    fn draws_what_the_labs_rng_draws() {
        let mut r = Rng::new(1);
        let got: Vec<f64> = (0..3).map(|_| r.next_f64()).collect();
        let want = LAB_RNG_SEED1;
        assert_eq!(got, want);
    }

    const LAB_RNG_SEED1: [f64; 3] = [0.3588899802416563, 0.10590326134115458, 0.675290479324758];

    #[test]
    fn uniform_mean_is_a_half() {
        let mut r = Rng::new(7);
        let n = 100_000;
        let mean = (0..n).map(|_| r.next_f64()).sum::<f64>() / f64::from(n);
        assert!((mean - 0.5).abs() < 0.005, "{mean}");
    }
}

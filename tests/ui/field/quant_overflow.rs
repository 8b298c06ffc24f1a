#[derive(tuplet::Record)]
pub struct Clock {
    // 10^13 s in microseconds: |q| = 10^19 > 2^53 - 1.
    #[tuplet(scale = 1000000, range(0.0, 1e13))]
    pub t: f64,
}

fn main() {}

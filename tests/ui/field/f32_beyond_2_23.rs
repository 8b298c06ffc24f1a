#[derive(tuplet::Record)]
pub struct Pose {
    // 10 km in millimetres: |q| = 10^7 > 2^23.
    #[tuplet(quant = "mm", range(-10000.0, 10000.0))]
    pub x: f32,
}

fn main() {}

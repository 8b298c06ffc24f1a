#[derive(tuplet::Record)]
pub struct Pose {
    #[tuplet(quant = "inch", range(0.0, 100.0))]
    pub x: f32,
}

fn main() {}

#[derive(tuplet::Record)]
pub struct Pose {
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y"])]
    pub p: [f32; 3],
}

fn main() {}

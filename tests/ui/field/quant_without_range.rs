#[derive(tuplet::Record)]
pub struct Pose {
    #[tuplet(quant = "cm")]
    pub x: f32,
}

fn main() {}

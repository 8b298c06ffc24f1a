#[derive(tuplet::Record)]
pub struct Pose {
    #[tuplet(quant = "mrda", range(-3.2, 3.2))]
    pub r: f32,
}

fn main() {}

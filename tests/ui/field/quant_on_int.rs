#[derive(tuplet::Record)]
pub struct Pose {
    #[tuplet(quant = "cm", range(0, 100))]
    pub x: i32,
}

fn main() {}

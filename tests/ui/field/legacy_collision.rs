#[derive(tuplet::Record)]
pub struct Pose {
    #[tuplet(legacy = "y")]
    pub height: f64,
    pub y: f64,
}

fn main() {}

#[derive(tuplet::Record)]
pub struct Pose {
    #[tuplet(rnage(-1.0, 1.0))]
    pub r: f64,
}

fn main() {}

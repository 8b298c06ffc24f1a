#[derive(tuplet::Record)]
pub struct Sign {
    #[tuplet(range(0, 32))]
    pub text: String,
}

fn main() {}

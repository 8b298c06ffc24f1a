#[derive(tuplet::Record)]
pub struct Sign {
    #[tuplet(len(16))]
    pub text: String,
}

fn main() {}

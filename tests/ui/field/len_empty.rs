#[derive(tuplet::Record)]
pub struct Sign {
    #[tuplet(len())]
    pub text: String,
}

fn main() {}

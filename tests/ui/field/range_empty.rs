#[derive(tuplet::Record)]
pub struct Dial {
    #[tuplet(range())]
    pub level: u8,
}

fn main() {}

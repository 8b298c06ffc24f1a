#[derive(tuplet::Record)]
pub struct Health {
    #[tuplet(range(100, 0))]
    pub hp: u8,
}

fn main() {}

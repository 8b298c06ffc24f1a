#[derive(tuplet::Record)]
pub struct Health {
    #[tuplet(range(0, 300))]
    pub hp: u8,
}

fn main() {}

#[derive(tuplet::Record)]
#[tuplet(entity())]
pub struct Kart {
    pub kart_id: u32,
    pub lap: u8,
}

fn main() {}

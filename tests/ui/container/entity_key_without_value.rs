#[derive(tuplet::Record)]
#[tuplet(entity(key))]
pub struct Kart {
    pub kart_id: u32,
    pub lap: u8,
}

fn main() {}

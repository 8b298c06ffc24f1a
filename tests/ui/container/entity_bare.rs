#[derive(tuplet::Record)]
#[tuplet(entity)]
pub struct Kart {
    pub kart_id: u32,
    pub lap: u8,
    #[tuplet(len(max = 16))]
    pub driver: String,
}

fn main() {}

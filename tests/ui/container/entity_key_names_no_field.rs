#[derive(tuplet::Record)]
#[tuplet(entity(key = "kart_id"))]
pub struct Kart {
    pub id: u32,
    pub lap: u8,
    #[tuplet(len(max = 16))]
    pub driver: String,
}

fn main() {}

#[derive(tuplet::Record)]
pub struct BoatState {
    pub speed: u8,
}

#[derive(tuplet::Enum)]
pub enum Held {
    #[tuplet(tag = 0)]
    Nothing,
    Boat(BoatState),
}

fn main() {}

#[derive(tuplet::Enum)]
pub enum Held {
    #[tuplet(tag = 0)]
    Nothing,
    #[tuplet(tag = 1)]
    Fish { weight: u16 },
    #[tuplet(tag = 1)]
    Parcel { to: String },
}

fn main() {}

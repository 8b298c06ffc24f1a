#[derive(tuplet::Enum)]
pub enum Species {
    Sparrow = 1,
    Crow = 2,
    Owl = 7,
}

/// What a hand holds.
#[derive(tuplet::Enum)]
pub enum Held {
    #[tuplet(tag = 0)]
    Nothing,
    #[tuplet(tag = 1)]
    Tool(u16),
    #[tuplet(tag = 2)]
    Bird { species: Species, tame: bool },
}

#[derive(tuplet::Flags)]
pub struct Mood {
    #[tuplet(bit = 0)]
    pub happy: bool,
    #[tuplet(bit = 3)]
    pub sleepy: bool,
}

#[derive(tuplet::Message)]
#[tuplet(name = "bird:seen", id = 9, dir = "s2c")]
pub struct BirdSeen {
    pub species: Species,
    pub held: Held,
    pub mood: Option<Mood>,
}

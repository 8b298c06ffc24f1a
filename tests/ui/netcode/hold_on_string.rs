// `hold` channels are numbers: a string is taken from the latest sample without `draw`.
#[derive(tuplet::Record)]
#[tuplet(entity(key = "id"), interp)]
pub struct Npc {
    pub id: u32,
    #[tuplet(draw = "hold", len(max = 24))]
    pub label: String,
}

fn main() {}

// `angle` draws radians on the shortest arc: it needs a float.
#[derive(tuplet::Message)]
#[tuplet(name = "npc:move", id = 1, dir = "s2c", interp(key = "id", sent = "t"))]
pub struct NpcMove {
    pub id: u32,
    pub t: u64,
    #[tuplet(draw = "angle")]
    pub heading: u8,
}

fn main() {}

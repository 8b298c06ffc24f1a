// The key names a field of the item.
#[derive(tuplet::Message)]
#[tuplet(name = "npc:move", id = 1, dir = "s2c", interp(key = "sid", sent = "t"))]
pub struct NpcMove {
    #[tuplet(len = 9)]
    pub s: String,
    pub t: u64,
    #[tuplet(draw = "linear")]
    pub x: f32,
}

fn main() {}

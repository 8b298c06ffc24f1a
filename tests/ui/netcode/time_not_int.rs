// The sample time is an int (the sender's ms, or a tick).
#[derive(tuplet::Message)]
#[tuplet(name = "npc:move", id = 1, dir = "s2c", interp(key = "id", sent = "t"))]
pub struct NpcMove {
    pub id: u32,
    pub t: f64,
    #[tuplet(draw = "linear")]
    pub x: f32,
}

fn main() {}

// A message's samples need a clock: `sent`, `tick` + `rate`, or `arrival`.
#[derive(tuplet::Message)]
#[tuplet(name = "npc:move", id = 1, dir = "s2c", interp(key = "id"))]
pub struct NpcMove {
    pub id: u32,
    #[tuplet(draw = "linear")]
    pub x: f32,
}

fn main() {}

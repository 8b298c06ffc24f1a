// `draw` needs `interp` on the struct.
#[derive(tuplet::Record)]
pub struct Npc {
    pub id: u32,
    #[tuplet(draw = "linear")]
    pub x: f32,
}

fn main() {}

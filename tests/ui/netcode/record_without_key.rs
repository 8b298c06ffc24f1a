// A record drawn by an interpolator needs its key: `interp(key = ...)` or `entity(key = ...)`.
#[derive(tuplet::Record)]
#[tuplet(interp)]
pub struct Npc {
    pub id: u32,
    #[tuplet(draw = "linear")]
    pub x: f32,
}

fn main() {}

// An unknown way to draw suggests the nearest one.
#[derive(tuplet::Record)]
#[tuplet(interp(key = "id"))]
pub struct Npc {
    pub id: u32,
    #[tuplet(draw = "lerp")]
    pub x: f32,
    #[tuplet(draw = "angel")]
    pub yaw: f32,
}

fn main() {}

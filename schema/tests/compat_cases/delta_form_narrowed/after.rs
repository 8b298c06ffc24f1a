#[derive(tuplet::Record)]
#[tuplet(entity(key = "id"))]
pub struct Unit {
    pub id: u32,
    pub anim: u8,
    #[tuplet(quant = "cm", range(-1000.0, 1000.0))]
    pub x: f32,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:snap", id = 1, dir = "s2c", delta)]
pub struct Snap {
    pub tick: u32,
    pub keyframe: bool,
    #[tuplet(len(max = 64))]
    pub units: Vec<Unit>,
    #[tuplet(len(max = 64))]
    pub gone: Vec<u32>,
}

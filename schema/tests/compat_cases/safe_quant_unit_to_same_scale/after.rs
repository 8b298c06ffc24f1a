#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    #[tuplet(scale = 100, range(-100.0, 100.0))]
    pub x: f32,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    #[tuplet(quant = "cm", range(-100.0, 100.0))]
    pub x: f32,
}

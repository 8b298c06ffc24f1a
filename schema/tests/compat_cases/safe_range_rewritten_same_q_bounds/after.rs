#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    #[tuplet(quant = "mrad", range(-3.14159, 3.14159))]
    pub r: f32,
}

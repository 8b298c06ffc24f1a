#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    #[tuplet(quant = "mrad", range(0.0, 6.2832))]
    pub r: f32,
}

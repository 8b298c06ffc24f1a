#[derive(tuplet::Message)]
#[tuplet(name = "m:down", id = 1, dir = "s2c")]
pub struct Down {
    #[tuplet(legacy = "f")]
    pub g: u8,
}

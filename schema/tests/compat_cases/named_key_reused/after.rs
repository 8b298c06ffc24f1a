#[derive(tuplet::Message)]
#[tuplet(name = "m:down", id = 1, dir = "s2c")]
pub struct Down {
    pub g: u8,
    pub f: Option<u8>,
}

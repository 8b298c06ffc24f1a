#[derive(tuplet::Message)]
#[tuplet(name = "m:down", id = 1, dir = "s2c")]
pub struct Down {
    #[tuplet(legacy = "hitPoints")]
    pub hp: u8,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:down", id = 1, dir = "s2c")]
pub struct Down {
    #[tuplet(range(0, 100))]
    pub hp: u8,
}

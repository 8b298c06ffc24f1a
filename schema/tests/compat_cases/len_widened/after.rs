#[derive(tuplet::Message)]
#[tuplet(name = "m:down", id = 1, dir = "s2c")]
pub struct Down {
    #[tuplet(len(max = 8), item_len(max = 48))]
    pub tags: Vec<String>,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:down", id = 1, dir = "s2c")]
pub struct Down {
    #[tuplet(len(max = 8), key_len(min = 1, max = 24))]
    pub counts: std::collections::BTreeMap<String, u32>,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    #[tuplet(len(max = 8))]
    pub counts: std::collections::BTreeMap<String, u32>,
}

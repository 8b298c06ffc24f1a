use std::collections::BTreeMap;

#[derive(tuplet::Message)]
#[tuplet(name = "inventory:state", id = 3, dir = "s2c")]
pub struct InventoryState {
    #[tuplet(len(max = 40))]
    pub slots: Vec<u32>,
    #[tuplet(len(max = 16))]
    pub counts: BTreeMap<String, u16>,
    pub by_id: BTreeMap<u32, bool>,
    #[tuplet(len(max = 64))]
    pub blob: Vec<u8>,
}

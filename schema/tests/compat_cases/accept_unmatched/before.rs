#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    #[tuplet(range(0, 100))]
    pub hp: u8,
}

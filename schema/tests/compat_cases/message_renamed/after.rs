#[derive(tuplet::Message)]
#[tuplet(name = "m:upward", id = 1, dir = "c2s")]
pub struct Up {
    pub a: u32,
}

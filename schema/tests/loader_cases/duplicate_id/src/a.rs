#[derive(tuplet::Message)]
#[tuplet(name = "a:one", id = 7, dir = "c2s")]
pub struct One {
    pub x: u8,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub a: u32,
    #[tuplet(reserved = "b: folded into c")]
    pub _b: tuplet::Reserved,
    pub c: Option<u8>,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub f: Bits,
}

#[derive(tuplet::Flags)]
#[tuplet(int = "u8")]
pub struct Bits {
    #[tuplet(bit = 0)]
    pub a: bool,
    #[tuplet(bit = 1)]
    pub b: bool,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:down", id = 1, dir = "s2c")]
pub struct Down {
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

//! A field whose type is a message.

#[derive(tuplet::Message)]
#[tuplet(name = "inner", id = 1, dir = "s2c")]
pub struct Inner {
    pub x: u8,
}

#[derive(tuplet::Message)]
#[tuplet(name = "outer", id = 2, dir = "s2c")]
pub struct Outer {
    pub inner: Option<Inner>,
}

//! A client message that no client dispatch enum lists.

#[derive(tuplet::Message)]
#[tuplet(name = "a", id = 1, dir = "c2s")]
pub struct A {
    pub x: u8,
}

#[derive(tuplet::Message)]
#[tuplet(name = "b", id = 2, dir = "c2s")]
pub struct B {
    pub x: u8,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s")]
pub enum ClientMessage {
    A(A),
}

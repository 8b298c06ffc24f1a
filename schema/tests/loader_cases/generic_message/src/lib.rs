//! A generic message: its wire form would not be fixed.

#[derive(tuplet::Message)]
#[tuplet(name = "m", id = 1, dir = "c2s")]
pub struct Moved<T> {
    pub a: T,
}

//! A field names a type declared nowhere.

#[derive(tuplet::Message)]
#[tuplet(name = "m", id = 1, dir = "c2s")]
pub struct Moved {
    pub a: u8,
    pub b: Vec<Missing>,
}

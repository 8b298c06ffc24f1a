#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub k: Kind,
}

#[derive(tuplet::Enum)]
#[tuplet(open)]
#[repr(i64)]
pub enum Kind {
    A = 1,
    B = 2,
    #[tuplet(unknown)]
    Unknown(i64),
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:down", id = 1, dir = "s2c")]
pub struct Down {
    pub k: Kind,
}

#[derive(tuplet::Enum)]
#[tuplet(open)]
#[repr(i64)]
pub enum Kind {
    A = 1,
    #[tuplet(unknown)]
    Unknown(i64),
}

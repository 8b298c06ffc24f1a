//! A record made by a macro, then referenced: invisible to the loader.

macro_rules! record {
    ($name:ident) => {
        #[derive(tuplet::Record)]
        pub struct $name {
            pub a: u8,
        }
    };
}

record!(Pos);

#[derive(tuplet::Message)]
#[tuplet(name = "m", id = 1, dir = "c2s")]
pub struct Moved {
    pub p: Pos,
}

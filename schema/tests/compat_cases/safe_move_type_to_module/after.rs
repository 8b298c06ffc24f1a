#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub p: geo::Pos,
}

pub mod geo {

    #[derive(tuplet::Record)]
    pub struct Pos {
        pub x: i16,
    }
}

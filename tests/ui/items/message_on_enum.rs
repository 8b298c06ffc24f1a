#[derive(tuplet::Message)]
#[tuplet(name = "a", id = 1, dir = "c2s")]
pub enum NotAStruct {
    A,
}

fn main() {}

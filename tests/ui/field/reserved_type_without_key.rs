#[derive(tuplet::Record)]
pub struct Profile {
    pub _colour: tuplet::Reserved,
}

fn main() {}

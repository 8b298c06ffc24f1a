#[derive(tuplet::Record)]
pub struct Profile {
    #[tuplet(reserved = "colour: moved to player:join in 1.4")]
    pub colour: u32,
}

fn main() {}

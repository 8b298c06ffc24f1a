#[derive(tuplet::Flags)]
pub struct MoveFlags {
    #[tuplet(bit = 0)]
    pub running: bool,
    #[tuplet(bit = 0)]
    pub jumping: bool,
}

fn main() {}

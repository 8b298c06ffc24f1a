#[derive(tuplet::Flags)]
#[tuplet(int = "u8")]
pub struct MoveFlags {
    #[tuplet(bit = 0)]
    pub running: bool,
    #[tuplet(bit = 8)]
    pub jumping: bool,
}

fn main() {}

/// The suggested discriminant is one no variant (or reserved number) has.
#[derive(tuplet::Enum)]
#[tuplet(reserved = [2])]
pub enum Channel {
    Team = 1,
    Whisper,
    All = 3,
}

fn main() {}

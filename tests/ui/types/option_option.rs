#[derive(tuplet::Record)]
pub struct Patch {
    pub nickname: Option<Option<String>>,
}

fn main() {}

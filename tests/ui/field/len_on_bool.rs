#[derive(tuplet::Record)]
pub struct Door {
    #[tuplet(len(max = 1))]
    pub open: bool,
}

fn main() {}

#[derive(tuplet::Record)]
pub struct Inventory {
    pub count: usize,
}

fn main() {}

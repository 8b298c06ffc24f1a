#[derive(tuplet::Record)]
pub struct Boxed<T> {
    pub value: T,
}

fn main() {}

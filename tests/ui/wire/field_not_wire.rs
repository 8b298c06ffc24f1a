// A plain struct without a tuplet derive, used as a field type.
pub struct Colour {
    pub rgb: u32,
}

#[derive(tuplet::Record)]
pub struct Profile {
    pub colour: Colour,
}

fn main() {}

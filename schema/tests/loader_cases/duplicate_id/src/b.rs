/// Sent both ways, so it clashes with `a::One` in c2s.
#[derive(tuplet::Message)]
#[tuplet(name = "b:two", id = 7, dir = "both")]
pub struct Two {
    pub y: u8,
}

/// Moves the player up.
#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    /// The amount.
    pub a: u32,
}

/// Sent both ways: one schema per direction.
#[derive(tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "both")]
pub struct PlayerMove {
    /// Position, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
    pub p: [f32; 3],
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), legacy = "rotationY")]
    pub r: f32,
    pub seq: Option<u32>,
    #[tuplet(reserved = "colour moved to player:join")]
    pub _colour: tuplet::Reserved,
    pub raw: Option<f64>,
}

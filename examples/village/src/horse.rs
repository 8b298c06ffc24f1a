//! Horses at the stables: renting, mounting, gaits, grooming. Ids 190–209.

/// A horse's gait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Gait {
    /// Standing.
    Halt = 0,
    /// Walk.
    Walk = 1,
    /// Trot.
    Trot = 2,
    /// Canter.
    Canter = 3,
    /// Gallop (drains stamina).
    Gallop = 4,
}

/// Sent by a client at the stable to rent a horse for the session.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "horse:rent", id = 190, dir = "c2s")]
pub struct HorseRent {
    /// Stall number.
    #[tuplet(range(1, 16))]
    pub stall: u8,
    /// Name the player gives it.
    #[tuplet(len(min = 1, max = 16))]
    pub name: String,
}

/// Sent to the renter with the horse's stats.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "horse:rented", id = 190, dir = "s2c")]
pub struct HorseRented {
    /// Entity id of the horse.
    pub horse: u32,
    /// Coat colour, 0xRRGGBB.
    #[tuplet(range(0, 0xFFFFFF))]
    pub coat: u32,
    /// Top speed at gallop, m/s.
    #[tuplet(quant = "dm", range(4.0, 20.0))]
    pub top_speed: f32,
    /// Stamina, seconds of gallop.
    #[tuplet(range(5, 120))]
    pub stamina_s: u8,
    /// Rental ends at, ms.
    pub until: u64,
}

/// Sent by the rider when changing gait (not a move stream: position goes in `player:move`
/// with the mounted flag).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "horse:gait", id = 191, dir = "c2s")]
pub struct HorseGaitChange {
    /// The horse.
    pub horse: u32,
    /// New gait.
    pub gait: Gait,
}

/// Relayed to nearby viewers so hooves and animation match the gait.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "horse:gait", id = 191, dir = "s2c")]
#[tuplet(interp(key = "horse", arrival))]
pub struct HorseGaitShown {
    /// The horse.
    pub horse: u32,
    /// New gait.
    #[tuplet(draw = "hold")]
    pub gait: Gait,
    /// Stamina left, as a fraction.
    #[tuplet(quant = "percent", range(0.0, 1.0), draw = "linear")]
    pub stamina: f32,
}

/// Sent by a client brushing or feeding its horse at the stable.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "horse:groom", id = 192, dir = "c2s")]
pub struct HorseGroom {
    /// The horse.
    pub horse: u32,
    /// Apple, carrot or brush item key.
    #[tuplet(len(min = 1, max = 32))]
    pub with: String,
}

/// Sent to the rider when the horse refuses a jump or bucks them off.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "horse:refused", id = 193, dir = "s2c")]
pub struct HorseRefused {
    /// The horse.
    pub horse: u32,
    /// Whether the rider was thrown off.
    pub thrown: bool,
    /// Obstacle height, metres.
    #[tuplet(quant = "cm", range(0.0, 3.0))]
    pub obstacle: f32,
}

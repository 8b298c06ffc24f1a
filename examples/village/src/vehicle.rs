//! Cars, carts and bicycles: entering and leaving seats, the driver's move stream and its
//! relay, horns, fuel. Ids 150–169.

/// Which seat of a vehicle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Seat {
    /// The driver.
    Driver = 0,
    /// Front passenger.
    Front = 1,
    /// Rear left.
    RearLeft = 2,
    /// Rear right.
    RearRight = 3,
    /// The open back of the pickup.
    Bed = 4,
}

/// Sent by a client when its player presses E next to a vehicle.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "vehicle:enter", id = 150, dir = "c2s")]
pub struct VehicleEnter {
    /// The vehicle.
    pub vehicle: u32,
    /// Wanted seat; absent takes the first free one.
    pub seat: Option<Seat>,
}

/// Broadcast when someone takes or leaves a seat.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "vehicle:seat", id = 150, dir = "s2c")]
pub struct VehicleSeat {
    /// The vehicle.
    pub vehicle: u32,
    /// The seat.
    pub seat: Seat,
    /// Who sits there now; absent when it was vacated.
    #[tuplet(len = 9)]
    pub occupant: Option<String>,
}

/// Sent by a client leaving its seat.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "vehicle:exit", id = 151, dir = "c2s")]
pub struct VehicleExit {
    /// The vehicle being left.
    pub vehicle: u32,
    /// Bail out while moving (ragdoll).
    pub bail: bool,
}

/// Sent by the driver 10 times a second while the vehicle moves.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "vehicle:move", id = 152, dir = "c2s", budget = 48, unreliable)]
pub struct VehicleDrive {
    /// The vehicle driven.
    pub vehicle: u32,
    /// Body position, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
    pub p: [f32; 3],
    /// Yaw, radians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    pub yaw: f32,
    /// Signed speed along the body, m/s.
    #[tuplet(quant = "cm", range(-30.0, 60.0))]
    pub v: f32,
    /// Front wheel angle, degrees.
    #[tuplet(quant = "ddeg", range(-40.0, 40.0))]
    pub wheel: f32,
    /// Driver's clock, ms.
    pub t: u64,
}

/// A vehicle's move relayed to viewers (same interest rules as `player:move`).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "vehicle:move", id = 152, dir = "s2c", budget = 48, unreliable)]
#[tuplet(interp(key = "vehicle", sent = "t"))]
pub struct VehicleMoved {
    /// The vehicle.
    pub vehicle: u32,
    /// Body position, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
    #[tuplet(draw = "linear")]
    pub p: [f32; 3],
    /// Yaw, radians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), draw = "angle")]
    pub yaw: f32,
    /// Speed, m/s.
    #[tuplet(quant = "cm", range(-30.0, 60.0), draw = "linear")]
    pub v: f32,
    /// Driver's clock, ms, passed through.
    pub t: u64,
    /// Slot of the old driver name, sent on every move until 1.6.
    #[tuplet(reserved = "driver: name moved to vehicle:seat in 1.6")]
    pub _driver: tuplet::Reserved,
    /// Front wheel angle, degrees, after the removed driver slot.
    #[tuplet(quant = "ddeg", range(-40.0, 40.0), draw = "linear")]
    pub wheel: Option<f32>,
}

/// Sent by a driver pressing the horn (rate-limited to 2 a second); relayed nearby.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "vehicle:horn", id = 153, dir = "both")]
pub struct VehicleHorn {
    /// The vehicle.
    pub vehicle: u32,
    /// Held duration, ms; short taps are 150.
    #[tuplet(range(50, 3000))]
    pub held_ms: u16,
}

/// Sent to the occupants when fuel or damage changes by a visible step.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "vehicle:status", id = 154, dir = "s2c")]
pub struct VehicleStatus {
    /// The vehicle.
    pub vehicle: u32,
    /// Fuel left, as a fraction of the tank.
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    pub fuel: f32,
    /// Body damage, as a fraction.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub damage: f32,
    /// Odometer, km, in tenths.
    #[tuplet(quant = "dm")]
    pub odometer_km: f64,
}

/// Sent by the owner to lock, unlock, or call a parked vehicle back to the garage.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "vehicle:command", id = 155, dir = "c2s")]
pub struct VehicleCommand {
    /// The vehicle.
    pub vehicle: u32,
    /// What to do.
    pub action: VehicleAction,
}

/// What an owner can do to a parked vehicle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum VehicleAction {
    /// Lock the doors.
    Lock = 1,
    /// Unlock the doors.
    Unlock = 2,
    /// Return to the garage (costs 5 coins).
    Recall = 3,
    /// Flash the lights to find it.
    Locate = 4,
}

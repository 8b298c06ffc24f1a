//! Weather. The current weather also lives in the synced room state for late joiners;
//! these messages cover forecasts, transitions and admin control. Ids 290–309.

/// Kinds of weather.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(reserved = [5])]
pub enum WeatherKind {
    /// Clear sky.
    Clear = 0,
    /// Cloudy.
    Cloudy = 1,
    /// Rain.
    Rain = 2,
    /// Thunderstorm.
    Storm = 3,
    /// Fog rolling in from the sea.
    Fog = 4,
    /// Snow (winter events).
    Snow = 6,
}

/// Broadcast when the weather starts changing; clients blend over `blend_s`.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "weather:change", id = 290, dir = "s2c")]
pub struct WeatherChange {
    /// Target weather.
    pub kind: WeatherKind,
    /// Target intensity, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub intensity: f32,
    /// Wind direction, degrees from north.
    #[tuplet(quant = "ddeg", range(0.0, 360.0))]
    pub wind_dir: f32,
    /// Wind speed, m/s.
    #[tuplet(quant = "dm", range(0.0, 40.0))]
    pub wind: f32,
    /// Blend time, seconds.
    #[tuplet(range(0, 600))]
    pub blend_s: u16,
}

/// Sent by an admin client to start weather now.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "weather:set", id = 291, dir = "c2s")]
pub struct WeatherSet {
    /// Weather to start.
    pub kind: WeatherKind,
    /// Intensity, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub intensity: f32,
    /// How long before returning to the schedule, minutes; absent keeps it.
    #[tuplet(range(1, 1440))]
    pub minutes: Option<u16>,
}

/// One forecast slot.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct ForecastSlot {
    /// Game hour the slot starts.
    #[tuplet(range(0, 23))]
    pub hour: u8,
    /// Expected weather.
    pub kind: WeatherKind,
    /// Chance, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub chance: f32,
    /// Temperature, °C.
    #[tuplet(range(-30, 45))]
    pub temp_c: i8,
}

/// The forecast board at the post office, sent when opened.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "weather:forecast", id = 292, dir = "s2c")]
pub struct WeatherForecast {
    /// Next 24 game hours in 3-hour slots.
    #[tuplet(len(max = 8))]
    pub slots: Vec<ForecastSlot>,
}

/// Sent by a client opening the forecast board.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "weather:forecast", id = 292, dir = "c2s")]
pub struct WeatherForecastOpen {
    /// Board prop id.
    pub board: u32,
}

/// The room's current weather, one shared record for every client, sent as a delta: each
/// client's tracker (over the same value) gives a late joiner the whole record in its first
/// payload (a keyframe) and everyone else only the fields that changed, nothing when nothing
/// did (WIRE.md, "Delta snapshots"; no entity list, no key).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "weather:state", id = 294, dir = "s2c", delta)]
pub struct WeatherState {
    /// Current weather.
    pub kind: WeatherKind,
    /// Intensity, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub intensity: f32,
    /// Wind direction, degrees from north.
    #[tuplet(quant = "ddeg", range(0.0, 360.0))]
    pub wind_dir: f32,
    /// Wind speed, m/s.
    #[tuplet(quant = "dm", range(0.0, 40.0))]
    pub wind: f32,
    /// Cloud cover, percent.
    #[tuplet(range(0, 100))]
    pub clouds: u8,
    /// Visibility in fog, metres (none: clear).
    #[tuplet(range(0, 5000))]
    pub fog_m: Option<u16>,
}

/// Broadcast at each lightning strike during a storm (thunder delay is computed client-side
/// from distance).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "weather:lightning", id = 293, dir = "s2c")]
pub struct WeatherLightning {
    /// Strike point (x, z), metres.
    #[tuplet(quant = "dm", range(-5000.0, 5000.0))]
    pub at: [f32; 2],
    /// Random seed for the bolt shape.
    pub seed: u32,
}

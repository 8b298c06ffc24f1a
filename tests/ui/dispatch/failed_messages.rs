/// Two messages whose own derives fail: their errors are the only ones, not an id or
/// direction clash of the stubs they leave behind.
#[derive(tuplet::Message)]
#[tuplet(name = "weather:set", id = 3, dir = "s2c")]
pub struct WeatherSet {
    #[tuplet(len(max = 4))]
    pub kind: u8,
}

#[derive(tuplet::Message)]
#[tuplet(name = "weather:clear", id = 4, dir = "s2c")]
pub struct WeatherClear {
    pub at: usize,
}

#[derive(tuplet::Message)]
#[tuplet(name = "tick", id = 0, dir = "c2s")]
pub struct Tick {
    pub n: u32,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "s2c")]
pub enum ServerMessage {
    WeatherSet(WeatherSet),
    WeatherClear(WeatherClear),
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s")]
pub enum ClientMessage {
    Tick(Tick),
    WeatherSet(WeatherSet),
}

fn main() {}

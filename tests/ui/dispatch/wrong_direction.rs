/// A server message placed in the client's dispatch enum.
#[derive(tuplet::Message)]
#[tuplet(name = "weather:set", id = 3, dir = "s2c")]
pub struct WeatherSet {
    pub kind: u8,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s")]
pub enum ClientMessage {
    WeatherSet(WeatherSet),
}

fn main() {}

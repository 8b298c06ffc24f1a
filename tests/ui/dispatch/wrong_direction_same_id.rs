/// A server message in the client's dispatch enum that shares its id with a client
/// message (legal across directions): the error is the direction, not an id clash.
#[derive(tuplet::Message)]
#[tuplet(name = "chat:send", id = 3, dir = "c2s")]
pub struct ChatSend {
    pub text: String,
}

#[derive(tuplet::Message)]
#[tuplet(name = "weather:set", id = 3, dir = "s2c")]
pub struct WeatherSet {
    pub kind: u8,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s")]
pub enum ClientMessage {
    ChatSend(ChatSend),
    WeatherSet(WeatherSet),
}

fn main() {}

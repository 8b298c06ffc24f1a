/// A chat line.
#[derive(tuplet::Message)]
#[tuplet(name = "chat:send", id = 1, dir = "c2s")]
pub struct ChatSend {
    /// The text, 1 to 280 bytes.
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
    pub loud: bool,
    #[tuplet(range(0, 100))]
    pub volume: u8,
    pub at: i64,
}

/// Two client messages that were both given id 7.
#[derive(tuplet::Message)]
#[tuplet(name = "chat:send", id = 7, dir = "c2s")]
pub struct ChatSend {
    pub text: String,
}

#[derive(tuplet::Message)]
#[tuplet(name = "shop:buy", id = 7, dir = "c2s")]
pub struct ShopBuy {
    pub item: u16,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s")]
pub enum ClientMessage {
    ChatSend(ChatSend),
    ShopBuy(ShopBuy),
}

fn main() {}

#[derive(tuplet::Enum)]
#[tuplet(open)]
pub enum Held {
    #[tuplet(tag = 0)]
    unknown { id: u8 },
    #[tuplet(tag = 1)]
    Tool(u16),
    #[tuplet(unknown)]
    Other(u32),
}

/// An open enum with data whose variant is named like the catch-all's TypeScript `kind`.
#[allow(non_camel_case_types)]
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

/// Closed, a variant named `unknown` is just a variant.
#[allow(non_camel_case_types)]
#[derive(tuplet::Enum)]
pub enum Closed {
    #[tuplet(tag = 0)]
    unknown { id: u8 },
    #[tuplet(tag = 1)]
    Tool(u16),
}

fn main() {}

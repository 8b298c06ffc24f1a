#[derive(tuplet::Record)]
pub struct Wallet {
    #[tuplet(bigint)]
    pub coins: u32,
}

fn main() {}

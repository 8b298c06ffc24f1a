#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    #[tuplet(range(0, 50), accept(rule = "range-narrowed", was = "0..=100", now = "0..=50", reason = "no client ever sent more than 40"))]
    pub hp: u8,
}

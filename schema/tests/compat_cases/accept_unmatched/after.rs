#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    #[tuplet(range(0, 100), accept(rule = "range-narrowed", was = "0..=100", now = "0..=50", reason = "typo: the range did not change"))]
    pub hp: u8,
}

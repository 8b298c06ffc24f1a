#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    #[tuplet(legacy = ["px", "py", "pz"])]
    pub p: [i32; 3],
}

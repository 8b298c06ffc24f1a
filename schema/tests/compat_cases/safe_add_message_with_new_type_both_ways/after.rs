#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub a: u32,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:chat", id = 2, dir = "both")]
pub struct Chat {
    #[tuplet(len(max = 200))]
    pub text: String,
}

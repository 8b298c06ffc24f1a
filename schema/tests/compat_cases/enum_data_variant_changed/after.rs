#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub h: Held,
}

#[derive(tuplet::Enum)]
pub enum Held {
    #[tuplet(tag = 0)]
    Nothing,
    #[tuplet(tag = 1)]
    Pet {
        #[tuplet(len(max = 8))]
        name: String,
    },
}

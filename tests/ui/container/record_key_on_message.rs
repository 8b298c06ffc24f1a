#[derive(tuplet::Message)]
#[tuplet(name = "world:snapshot", id = 40, dir = "s2c", entity(key = "id"))]
pub struct Snapshot {
    pub id: u32,
}

fn main() {}

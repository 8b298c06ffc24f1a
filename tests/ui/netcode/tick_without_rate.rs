// A server tick becomes milliseconds through its rate.
#[derive(tuplet::Message)]
#[tuplet(name = "world:tick", id = 1, dir = "s2c", interp(tick = "tick"))]
pub struct Tick {
    pub tick: u32,
}

fn main() {}

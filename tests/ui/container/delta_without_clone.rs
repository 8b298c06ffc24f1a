// A delta message must implement `Clone` (a Tracker keeps a copy of what it sent): the one
// error names the requirement and the fix.
#[derive(Debug, PartialEq, tuplet::Message)]
#[tuplet(name = "world:snapshot", id = 40, dir = "s2c", delta)]
pub struct Snapshot {
    pub tick: u32,
}

fn main() {}

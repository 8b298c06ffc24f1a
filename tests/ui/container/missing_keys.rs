// The stub impls keep `to_vec` compiling: the one error is the missing keys.
#[derive(tuplet::Message)]
#[tuplet(name = "player:move")]
pub struct PlayerMove {
    pub t: u64,
}

fn main() {
    let _ = tuplet::to_vec(&PlayerMove { t: 1 });
    let _ = <PlayerMove as tuplet::Message>::ID;
}

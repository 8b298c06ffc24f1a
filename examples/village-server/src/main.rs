//! `cargo run -p village-server [-- --addr 127.0.0.1:7878]`: serves village rooms on
//! loopback until stopped. `ws://ADDR/` is the room `village`; `ws://ADDR/NAME` the room
//! NAME (created on first use, up to 40 players each). Tests place players with `--spawn
//! X,Y,Z` (repeated: by join order) and shorten the keyframe cadence with
//! `--keyframe-every TICKS`; with port 0 the first line printed names the port chosen.
//! `--threads N` sets the runtime's worker threads (1: a single thread, 0: one per core,
//! the default); `--flush now` writes every frame as soon as it is handled instead of
//! gathering a client's frames for one write per tick (`Config::flush_per_tick`).

use std::net::SocketAddr;

fn main() {
    let mut config = village_server::Config::default();
    let mut threads = 0;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--addr", Some(addr)) => match addr.parse::<SocketAddr>() {
                Ok(addr) => config.addr = addr,
                Err(e) => fail(&format!("--addr {addr}: {e}")),
            },
            ("--capacity", Some(n)) => match n.parse() {
                Ok(n) if n > 0 => config.room_capacity = n,
                _ => fail(&format!("--capacity {n}: expected a positive number")),
            },
            ("--spawn", Some(xyz)) => {
                let v: Vec<f32> = xyz
                    .split(',')
                    .filter_map(|c| c.trim().parse().ok())
                    .collect();
                match v.as_slice() {
                    &[x, y, z] => config.spawns.push([x, y, z]),
                    _ => fail(&format!("--spawn {xyz}: expected X,Y,Z")),
                }
            }
            ("--keyframe-every", Some(n)) => match n.parse() {
                Ok(n) if n > 0 => config.keyframe_every = n,
                _ => fail(&format!("--keyframe-every {n}: expected a positive number")),
            },
            ("--threads", Some(n)) => match n.parse() {
                Ok(n) => threads = n,
                _ => fail(&format!("--threads {n}: expected a number")),
            },
            ("--flush", Some(when)) => match when.as_str() {
                "tick" => config.flush_per_tick = true,
                "now" => config.flush_per_tick = false,
                _ => fail(&format!("--flush {when}: expected tick or now")),
            },
            _ => fail(&format!("unknown argument {arg}")),
        }
    }
    let rt = runtime(threads);
    rt.block_on(async {
        match village_server::start(config).await {
            Ok(server) => {
                println!("village-server: listening on {}", server.url(""));
                server.wait().await;
            }
            Err(e) => fail(&format!("cannot listen: {e}")),
        }
    });
}

/// `threads` 1: one thread for everything (no cross-thread wake-ups); 0: a worker thread
/// per core; otherwise that many worker threads.
fn runtime(threads: usize) -> tokio::runtime::Runtime {
    let mut b = if threads == 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut b = tokio::runtime::Builder::new_multi_thread();
        if threads > 1 {
            b.worker_threads(threads);
        }
        b
    };
    b.enable_all().build().expect("tokio runtime")
}

fn fail(msg: &str) -> ! {
    eprintln!("village-server: {msg}\nusage: village-server [--addr IP:PORT] [--capacity N] [--spawn X,Y,Z]... [--keyframe-every TICKS] [--threads N] [--flush tick|now]");
    std::process::exit(2);
}

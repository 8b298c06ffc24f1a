//! `cargo run -p village-server [-- --addr 127.0.0.1:7878]`: serves village rooms on
//! loopback until stopped. `ws://ADDR/` is the room `village`; `ws://ADDR/NAME` the room
//! NAME (created on first use, up to 40 players each).

use std::net::SocketAddr;

fn main() {
    let mut config = village_server::Config::default();
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
            _ => fail(&format!("unknown argument {arg}")),
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
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

fn fail(msg: &str) -> ! {
    eprintln!("village-server: {msg}\nusage: village-server [--addr IP:PORT] [--capacity N]");
    std::process::exit(2);
}

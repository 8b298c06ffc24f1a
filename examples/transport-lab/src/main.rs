//! transport-lab: the village over the emulated link (`tools/linkemu`), WebSocket against
//! WebTransport. The real `village-server` runs in the server's namespace; a handful of
//! bots walking circles and one watcher run in the client's, over one transport. The
//! watcher draws every bot through tuplet's interpolator and judges each frame against
//! the speed the bot really walks.
//!
//! ```sh
//! cargo build --release -p village-server -p transport-lab
//! sudo target/release/transport-lab bench                       # the table (about 10 min)
//! sudo target/release/transport-lab bench --smoke               # one link, a few seconds
//! ```
//!
//! `bench` options: `--links A,B` (the loss links and `wifi-burst`), `--seeds N` (1),
//! `--key-seeds N` (3: seeds of `loss2-rtt100`, where the checks look), `--fixed-delay MS,MS`
//! (120,200: also run the key link with the interpolation delay fixed at each; 120 ms is
//! the default floor, 200 ms is 80 ms more),
//! `--transports ws,wt`, `--bots N` (5), `--warmup S` (3), `--secs S` (10),
//! `--server PATH` (the `village-server` beside this binary), `--smoke`.
//! It exits 1 when a check fails.

mod bench;
mod clients;
mod conn;
mod report;
mod table;
mod watch;
mod wt;

use std::path::PathBuf;

use conn::Transport;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("clients") => clients_main(&args[1..]),
        Some("bench") => bench_main(&args[1..]),
        _ => {
            eprintln!("usage: transport-lab bench [OPTIONS] | transport-lab clients OPTIONS");
            2
        }
    };
    std::process::exit(code);
}

/// `--name VALUE` from `args`.
fn opt<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn num<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> Result<T, String> {
    match opt(args, name) {
        Some(v) => v.parse().map_err(|_| format!("{name}: not a number: {v}")),
        None => Ok(default),
    }
}

fn clients_main(args: &[String]) -> i32 {
    let plan = (|| -> Result<clients::Plan, String> {
        Ok(clients::Plan {
            transport: opt(args, "--transport")
                .and_then(Transport::parse)
                .ok_or("--transport ws|wt")?,
            addr: opt(args, "--addr").ok_or("--addr HOST:PORT")?.into(),
            room: opt(args, "--room").unwrap_or("lab-1").into(),
            bots: num(args, "--bots", 5)?,
            warmup: num(args, "--warmup", 3.0)?,
            secs: num(args, "--secs", 10.0)?,
            fixed_delay: opt(args, "--fixed-delay")
                .map(|v| v.parse().map_err(|_| "--fixed-delay MS"))
                .transpose()?,
        })
    })();
    let plan = match plan {
        Ok(p) => p,
        Err(e) => {
            eprintln!("transport-lab clients: {e}");
            return 2;
        }
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    match rt.block_on(clients::run(plan)) {
        Ok(report) => {
            println!("{}", serde_json::to_string(&report).expect("a report"));
            0
        }
        Err(e) => {
            eprintln!("transport-lab clients: {e}");
            1
        }
    }
}

fn bench_main(args: &[String]) -> i32 {
    match bench_all(args) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            eprintln!("transport-lab bench: {e}");
            2
        }
    }
}

const KEY_LINK: &str = "loss2-rtt100";

fn bench_all(args: &[String]) -> Result<bool, String> {
    let smoke = args.iter().any(|a| a == "--smoke");
    let setup = bench::Setup {
        server: opt(args, "--server").map_or_else(bench::default_server, PathBuf::from),
        bots: num(args, "--bots", 5)?,
        warmup: num(args, "--warmup", if smoke { 2.0 } else { 3.0 })?,
        secs: num(args, "--secs", if smoke { 3.0 } else { 10.0 })?,
    };
    let transports: Vec<Transport> = opt(args, "--transports")
        .unwrap_or("ws,wt")
        .split(',')
        .map(|t| Transport::parse(t).ok_or(format!("no transport {t}")))
        .collect::<Result<_, _>>()?;
    let default_links = if smoke {
        KEY_LINK.to_string()
    } else {
        let mut l: Vec<String> = Vec::new();
        for rtt in linkemu::link::ROUND_TRIPS {
            for loss in linkemu::link::LOSS_LEVELS {
                l.push(format!("loss{loss}-rtt{rtt}"));
            }
        }
        l.push("wifi-burst".into());
        l.join(",")
    };
    let links: Vec<String> = opt(args, "--links")
        .unwrap_or(&default_links)
        .split(',')
        .map(String::from)
        .collect();
    let seeds: u32 = num(args, "--seeds", 1)?;
    let key_seeds: u32 = num(args, "--key-seeds", if smoke { 1 } else { 3 })?;
    let fixed: Vec<f64> = if smoke {
        Vec::new()
    } else {
        opt(args, "--fixed-delay")
            .unwrap_or("120,200")
            .split(',')
            .map(|d| {
                d.parse()
                    .map_err(|_| format!("--fixed-delay: not a number: {d}"))
            })
            .collect::<Result<_, _>>()?
    };
    let mut rows = Vec::new();
    let mut settings: Vec<(String, Option<f64>, u32)> = links
        .iter()
        .map(|l| {
            (
                l.clone(),
                None,
                if l == KEY_LINK { key_seeds } else { seeds },
            )
        })
        .collect();
    if links.iter().any(|l| l == KEY_LINK) {
        for d in fixed {
            settings.push((KEY_LINK.into(), Some(d), key_seeds));
        }
    }
    for (link, delay, n) in settings {
        for &transport in &transports {
            let mut row = table::Row {
                link: link.clone(),
                transport,
                fixed_delay: delay,
                runs: Vec::new(),
            };
            for seed in 1..=n {
                eprintln!("transport-lab: {link} seed {seed} {}", transport.name());
                row.runs
                    .push(bench::run(&setup, &link, seed, transport, delay)?);
            }
            rows.push(row);
        }
    }
    if !smoke {
        println!("{}", table::HEADER);
        for r in &rows {
            println!("{}", table::line(r));
        }
        println!();
    }
    let mut ok = true;
    for (held, what) in table::checks(&rows, KEY_LINK) {
        // A few seconds of one seed say nothing about smoothness: the smoke run shows it.
        let timing = what.contains(" smoothness:");
        let mark = match (held, smoke && timing) {
            (_, true) => "info",
            (true, false) => "ok  ",
            (false, false) => "FAIL",
        };
        println!("{mark} {what}");
        ok &= held || (smoke && timing);
    }
    if smoke {
        for r in &rows {
            let s = r.sums();
            let watched = s.frames.frames > 0 && !s.move_delays.is_empty();
            let datagrams = r.transport == Transport::WebSocket || s.datagrams > 0.0;
            println!(
                "{} {} {}: {} frames judged, {} relayed moves, {:.0}% of bytes as datagrams",
                if watched && datagrams { "ok  " } else { "FAIL" },
                r.link,
                r.transport.name(),
                s.frames.frames,
                s.move_delays.len(),
                100.0 * s.datagrams
            );
            ok &= watched && datagrams;
        }
    }
    Ok(ok)
}

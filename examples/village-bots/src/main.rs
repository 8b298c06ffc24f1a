//! village-bots: scripted village players that load a running `village-server`, then
//! report what it cost. Bounded in time.
//!
//! ```sh
//! cargo run --release -p village-server &
//! cargo run --release -p village-bots -- --bots 40 --rooms 1 --secs 20
//! ```
//!
//! Every bot walks at 10 Hz (out from the square and back, standing still for a while on
//! each lap, so silence and the forced first report are exercised), heartbeats at 2 Hz,
//! pings every 2 s, chats, emotes and sprays now and then. One in four signed-in bots
//! subscribes to birds, one in ten is a guest, one in ten announces the old (named) shape,
//! and one in twenty also sends a garbage frame every second. After a warm-up the bots reset
//! the room's percentiles; at the end they stop, drain, and read the room's numbers.
//!
//! Signed-in bots mint their join tokens with the server's key (`--token-key`, or
//! `VILLAGE_TOKEN_KEY` as the server reads it); the leader's token has the admin claim.
//! Rooms are named `TAG-N` (`run<pid>-0` by default): start the server with
//! `--room-prefix run` (or `--room-prefix` your `--tag`).

mod args;
mod bot;
mod floor;
mod report;
mod wire;

use std::time::Duration;

use args::Args;
use bot::{BotPlan, Totals};

fn main() {
    let args = args::parse();
    // One thread by default: the bots need no parallelism, and a single thread has no
    // cross-thread wake-ups (a fifth less CPU per move than two workers, measured).
    let rt = if args.threads <= 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(args.threads)
            .enable_all()
            .build()
    }
    .expect("tokio runtime");
    let floor = floor::start(
        Duration::from_secs_f64(args.warmup),
        Duration::from_secs_f64(args.secs),
    );
    match rt.block_on(run(&args)) {
        Ok((totals, wire)) => {
            report::print(&args, &totals, &floor.join().unwrap_or_default(), wire)
        }
        Err(e) => {
            eprintln!("village-bots: {e}");
            std::process::exit(1);
        }
    }
}

/// Runs the bots; with `--wire-count`, also the bytes the proxy saw during the measured
/// window (down, up).
async fn run(args: &Args) -> Result<(Totals, Option<(u64, u64)>), String> {
    let mut base = args.url.clone();
    let mut window = None;
    if args.wire_count {
        let server = base
            .strip_prefix("ws://")
            .ok_or("--wire-count needs a ws:// URL")?
            .to_string();
        let (proxy, counts) = wire::start(server).await.map_err(|e| e.to_string())?;
        base = format!("ws://{proxy}");
        let (warmup, secs) = (args.warmup, args.secs);
        window = Some(tokio::spawn(async move {
            use std::sync::atomic::Ordering::Relaxed;
            tokio::time::sleep(Duration::from_secs_f64(warmup)).await;
            let (d0, u0) = (counts.down.load(Relaxed), counts.up.load(Relaxed));
            tokio::time::sleep(Duration::from_secs_f64(secs)).await;
            (counts.down.load(Relaxed) - d0, counts.up.load(Relaxed) - u0)
        }));
    }
    // A fresh room name per run, so the room's counts are this run's alone.
    let urls: Vec<String> = (0..args.rooms)
        .map(|r| format!("{base}/{}-{r}", args.tag))
        .collect();
    let clock = bot::Clock::new(
        Duration::from_secs_f64(args.warmup),
        Duration::from_secs_f64(args.secs),
    );
    let mut tasks = Vec::new();
    for (r, url) in urls.iter().enumerate() {
        for i in 0..args.bots {
            let mut plan = BotPlan::new(i, url.clone(), i == 0, r, args.key.as_deref());
            plan.deflate = args.deflate;
            tasks.push(tokio::spawn(bot::run(plan, clock.clone())));
            // Stagger the joins a little, as real arrivals are.
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
    let mut totals = Totals::default();
    for t in tasks {
        let one = t.await.map_err(|e| e.to_string())??;
        totals.add(one);
    }
    let wire = match window {
        Some(w) => Some(w.await.map_err(|e| e.to_string())?),
        None => None,
    };
    Ok((totals, wire))
}

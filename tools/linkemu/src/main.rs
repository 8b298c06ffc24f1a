//! The `linkemu` command: list the links, check the privilege, run a server and clients over
//! an emulated link. See docs/link-emulator.md.

use std::process::{Child, ExitCode};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};
use linkemu::{by_name, named, Emulator, GilbertElliott, Link, Loss, Side, Stats};

#[derive(Parser)]
#[command(
    name = "linkemu",
    about = "An emulated network link between two namespaces (needs root or `unshare -Urn`)"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// List the named links.
    Links,
    /// Check that this process may make namespaces and TUN devices, and that a packet crosses.
    Check,
    /// Run a server in the server namespace and clients in the client namespace:
    /// `linkemu run --link wifi --seed 3 -- SERVER ARGS ::: CLIENT ARGS ::: CLIENT ARGS`.
    Run(Run),
}

#[derive(Args)]
struct Run {
    /// A named link (`linkemu links`); the options below change it.
    #[arg(long, default_value = "none")]
    link: String,
    /// The seed of every draw.
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// One-way base delay, ms.
    #[arg(long)]
    delay: Option<f64>,
    /// Uniform jitter on top, ms.
    #[arg(long)]
    jitter: Option<f64>,
    /// Loss per packet and direction, percent.
    #[arg(long)]
    loss: Option<f64>,
    /// Make the loss bursty (Gilbert–Elliott) with this mean burst length, packets.
    #[arg(long)]
    burst: Option<f64>,
    /// Share of packets held back out of order, percent.
    #[arg(long)]
    reorder: Option<f64>,
    /// Share of packets delivered twice, percent.
    #[arg(long)]
    duplicate: Option<f64>,
    /// Let jittered packets pass each other (the named links deliver in order).
    #[arg(long)]
    unordered: bool,
    /// Kill everything after this many seconds (exit code 124).
    #[arg(long, default_value_t = 300.0)]
    timeout: f64,
    /// Wait this long after starting the server before starting the clients, ms.
    #[arg(long, default_value_t = 300)]
    settle: u64,
    /// Write what each direction did as JSON to this file.
    #[arg(long)]
    stats: Option<std::path::PathBuf>,
    /// The server's command, then `:::` and each client's command.
    #[arg(last = true, required = true)]
    commands: Vec<String>,
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

fn main() -> ExitCode {
    match Cli::parse().cmd {
        Cmd::Links => {
            for l in named() {
                println!("{:<16} {}", l.name, l.about);
            }
            ExitCode::SUCCESS
        }
        Cmd::Check => match check() {
            Ok(()) => {
                println!("linkemu: ok: namespaces, TUN devices and the relay work here");
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e),
        },
        Cmd::Run(r) => match run(r) {
            Ok(code) => ExitCode::from(code),
            Err(e) => fail(&e),
        },
    }
}

fn fail(e: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("{e}");
    ExitCode::from(2)
}

fn check() -> std::io::Result<()> {
    let emu = Emulator::symmetric(Link::fixed("none", "", 0.0), 1)?;
    let rx = emu.run_in(Side::Server, || {
        std::net::UdpSocket::bind((linkemu::SERVER_ADDR, 0))
    })??;
    rx.set_read_timeout(Some(Duration::from_secs(2)))?;
    let to = rx.local_addr()?;
    let tx = emu.run_in(Side::Client, || {
        std::net::UdpSocket::bind((linkemu::CLIENT_ADDR, 0))
    })??;
    tx.send_to(b"linkemu", to)?;
    let mut b = [0u8; 16];
    rx.recv_from(&mut b)
        .map_err(|e| std::io::Error::other(format!("linkemu: no packet crossed the link: {e}")))?;
    Ok(())
}

fn shape(r: &Run) -> Result<Link, String> {
    let mut l = by_name(&r.link)
        .ok_or_else(|| format!("linkemu: no link named {} (see `linkemu links`)", r.link))?;
    let pct = |v: f64, what: &str| {
        if (0.0..=100.0).contains(&v) {
            Ok(v / 100.0)
        } else {
            Err(format!("linkemu: --{what} is a percentage, 0 to 100"))
        }
    };
    if let Some(d) = r.delay {
        l.base_ms = d;
    }
    if let Some(j) = r.jitter {
        l.jitter_ms = j;
    }
    if let Some(p) = r.loss {
        l.loss = Loss::Independent(pct(p, "loss")?);
    }
    if let Some(len) = r.burst {
        let m = l.loss.mean();
        if len < 1.0 || m <= 0.0 || m >= 1.0 {
            return Err(
                "linkemu: --burst needs a length of at least 1 and a loss between 0 and 100%"
                    .into(),
            );
        }
        let leave_bad = 1.0 / len;
        l.loss = Loss::Bursty(GilbertElliott {
            enter_bad: m * leave_bad / (1.0 - m),
            leave_bad,
            loss_good: 0.0,
            loss_bad: 1.0,
        });
    }
    if let Some(p) = r.reorder {
        l.reorder_share = pct(p, "reorder")?;
    }
    if r.unordered {
        l.in_order = false;
    }
    if let Some(p) = r.duplicate {
        l.duplicate_share = pct(p, "duplicate")?;
    }
    Ok(l)
}

fn run(r: Run) -> Result<u8, Box<dyn std::error::Error>> {
    let link = shape(&r)?;
    let groups: Vec<&[String]> = r.commands.split(|a| a == ":::").collect();
    if groups.iter().any(|g| g.is_empty()) {
        return Err("linkemu: an empty command around `:::`".into());
    }
    // SAFETY: the handler only stores to an atomic.
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
    let emu = Emulator::symmetric(link.clone(), r.seed)?;
    let deadline = Instant::now() + Duration::from_secs_f64(r.timeout);
    let spawn = |side: Side, argv: &[String]| -> std::io::Result<Child> {
        let mut c = emu.command(side, &argv[0]);
        std::os::unix::process::CommandExt::process_group(&mut c, 0);
        c.args(&argv[1..])
            .env("LINKEMU_LINK", &link.name)
            .env("LINKEMU_SEED", r.seed.to_string())
            .spawn()
    };
    let mut server = spawn(Side::Server, groups[0])
        .map_err(|e| format!("linkemu: starting {}: {e}", groups[0][0]))?;
    std::thread::sleep(Duration::from_millis(r.settle));
    let mut clients = Vec::new();
    for g in &groups[1..] {
        match spawn(Side::Client, g) {
            Ok(c) => clients.push(c),
            Err(e) => {
                // Leave nothing running behind a command that did not start.
                for c in clients.iter_mut().chain(std::iter::once(&mut server)) {
                    end(c);
                }
                return Err(format!("linkemu: starting {}: {e}", g[0]).into());
            }
        }
    }
    let mut codes: Vec<Option<i32>> = vec![None; clients.len()];
    let mut timed_out = false;
    loop {
        for (c, code) in clients.iter_mut().zip(codes.iter_mut()) {
            if code.is_none() {
                *code = c.try_wait()?.map(|s| s.code().unwrap_or(1));
            }
        }
        let done = if clients.is_empty() {
            server.try_wait()?.is_some()
        } else {
            codes.iter().all(Option::is_some)
        };
        if done {
            break;
        }
        if Instant::now() >= deadline || INTERRUPTED.load(Ordering::Relaxed) {
            timed_out = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    for c in clients.iter_mut().chain(std::iter::once(&mut server)) {
        end(c);
    }
    let stats = emu.stop()?;
    report(&link, r.seed, &stats, r.stats.as_deref())?;
    if timed_out {
        eprintln!(
            "linkemu: stopped after {} s or a signal; killed what was left",
            r.timeout
        );
        return Ok(124);
    }
    Ok(codes
        .iter()
        .flatten()
        .copied()
        .find(|c| *c != 0)
        .map_or(0, |c| c.clamp(1, 255) as u8))
}

/// Ends a child's process group: SIGTERM, then SIGKILL after 2 s.
fn end(c: &mut Child) {
    if matches!(c.try_wait(), Ok(Some(_))) {
        return;
    }
    let pg = -(c.id() as libc::pid_t);
    // SAFETY: signals to the process group of a child we started.
    unsafe { libc::kill(pg, libc::SIGTERM) };
    let until = Instant::now() + Duration::from_secs(2);
    while Instant::now() < until {
        if matches!(c.try_wait(), Ok(Some(_))) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: as above.
    unsafe { libc::kill(pg, libc::SIGKILL) };
    let _ = c.wait();
}

fn report(
    link: &Link,
    seed: u32,
    s: &Stats,
    path: Option<&std::path::Path>,
) -> std::io::Result<()> {
    let dir = |name: &str, c: &linkemu::Counts| {
        format!(
            "\"{name}\":{{\"packets\":{},\"lost\":{},\"reordered\":{},\"duplicated\":{},\"overflow\":{},\"delivered\":{}}}",
            c.packets, c.lost, c.reordered, c.duplicated, c.overflow, c.delivered
        )
    };
    for (name, c) in [("client→server", &s.up), ("server→client", &s.down)] {
        let share = if c.packets > 0 {
            100.0 * c.lost as f64 / c.packets as f64
        } else {
            0.0
        };
        eprintln!(
            "linkemu: {} seed {seed}, {name}: {} packets, {} lost ({share:.2}%), {} reordered, {} duplicated, {} overflow",
            link.name, c.packets, c.lost, c.reordered, c.duplicated, c.overflow
        );
    }
    if let Some(p) = path {
        let json = format!(
            "{{\"link\":\"{}\",\"seed\":{seed},{},{}}}\n",
            link.name,
            dir("up", &s.up),
            dir("down", &s.down)
        );
        std::fs::write(p, json)?;
    }
    Ok(())
}

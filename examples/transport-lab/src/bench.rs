//! One run over the emulated link: a fresh pair of namespaces, the village server in one,
//! `transport-lab clients` in the other, then what the link did.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use linkemu::{by_name, Emulator, Side, Stats, SERVER_ADDR};

use crate::conn::Transport;
use crate::report::RunReport;

/// The port the server listens on, TCP and UDP.
const PORT: u16 = 7878;

/// What every run of a bench shares.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The `village-server` binary.
    pub server: PathBuf,
    /// Walking bots.
    pub bots: usize,
    /// Seconds before measuring.
    pub warmup: f64,
    /// Seconds measured.
    pub secs: f64,
}

/// One run's result and what the link did meanwhile.
pub struct Run {
    /// What the clients counted.
    pub report: RunReport,
    /// What each direction of the link did.
    pub link: Stats,
}

/// The server's `--spawn` points by join order: the watcher at the square's centre, the
/// bots on a ring 8 m out (each walks a 4 m circle through its spawn point, all well
/// inside the 50 m tier that gets every move).
fn spawns(bots: usize) -> Vec<String> {
    let mut out = vec!["--spawn".to_string(), "0,0,0".to_string()];
    for i in 0..bots {
        let a = std::f64::consts::TAU * i as f64 / bots.max(1) as f64;
        out.push("--spawn".into());
        out.push(format!("{:.2},0,{:.2}", 8.0 * a.cos(), 8.0 * a.sin()));
    }
    out
}

/// Runs `transport` over `link` with `seed`.
pub fn run(
    setup: &Setup,
    link: &str,
    seed: u32,
    transport: Transport,
    fixed_delay: Option<f64>,
) -> Result<Run, String> {
    let l = by_name(link).ok_or_else(|| format!("no link named {link}"))?;
    let emu = Emulator::symmetric(l, seed).map_err(|e| format!("linkemu: {e}"))?;
    let addr = format!("{SERVER_ADDR}:{PORT}");
    let mut server = emu.command(Side::Server, &setup.server.to_string_lossy());
    server
        .args(["--addr", &addr, "--room-prefix", "lab", "--threads", "1"])
        .args(spawns(setup.bots))
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if transport == Transport::WebTransport {
        server.arg("--webtransport");
    }
    let mut server = server
        .spawn()
        .map_err(|e| format!("{}: {e}", setup.server.display()))?;
    let result = clients(&emu, setup, &mut server, transport, fixed_delay);
    let _ = server.kill();
    let _ = server.wait();
    let link = emu.stop().map_err(|e| format!("linkemu: {e}"))?;
    Ok(Run {
        report: result?,
        link,
    })
}

fn clients(
    emu: &Emulator,
    setup: &Setup,
    server: &mut Child,
    transport: Transport,
    fixed_delay: Option<f64>,
) -> Result<RunReport, String> {
    wait_listening(server, transport)?;
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut cmd = emu.command(Side::Client, &me.to_string_lossy());
    cmd.args(["clients", "--transport", transport.name()])
        .args([
            "--addr",
            &format!("{SERVER_ADDR}:{PORT}"),
            "--room",
            "lab-1",
        ])
        .args(["--bots", &setup.bots.to_string()])
        .args(["--warmup", &setup.warmup.to_string()])
        .args(["--secs", &setup.secs.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if let Some(d) = fixed_delay {
        cmd.args(["--fixed-delay", &d.to_string()]);
    }
    let mut child = cmd.spawn().map_err(|e| format!("{}: {e}", me.display()))?;
    let deadline = Instant::now() + Duration::from_secs_f64(setup.warmup + setup.secs + 30.0);
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the clients ran past their deadline".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut out = String::new();
    if let Some(mut o) = child.stdout.take() {
        o.read_to_string(&mut out).map_err(|e| e.to_string())?;
    }
    if !status.success() {
        return Err(format!("the clients failed ({status})"));
    }
    serde_json::from_str(out.trim()).map_err(|e| format!("the clients' report: {e}"))
}

/// Waits (at most 20 s) for the server to say it listens on every transport the run needs.
fn wait_listening(server: &mut Child, transport: Transport) -> Result<(), String> {
    let stdout = server.stdout.take().ok_or("the server's stdout")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        // Reads to the end, so the server never blocks on a full pipe.
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let want = match transport {
        Transport::WebSocket => "listening",
        Transport::WebTransport => "webtransport",
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(line) if line.contains(want) => return Ok(()),
            Ok(_) => {}
            Err(_) => break,
        }
    }
    Err(format!("the server did not say `{want}` within 20 s"))
}

/// The `village-server` beside this binary (both are built into one target directory).
pub fn default_server() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_default()
        .join("village-server")
}

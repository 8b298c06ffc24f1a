//! The bots' command line: what to run (`village-bots --help`).

use clap::Parser;

/// Scripted village players that load a running village-server, then report what it cost
/// (moves handled, handler cost, tick lateness beside the machine's floor, ping, bytes per
/// message type, drops by code, and valid messages sent against those accepted).
///
/// Rooms are named `TAG-0` .. `TAG-(ROOMS-1)` (`run<pid>-0` by default) at `URL/TAG-N`:
/// start the server with `--room-prefix run`, or `--room-prefix` your `--tag`.
#[derive(Debug, Clone, Parser)]
#[command(name = "village-bots", version)]
pub struct Args {
    /// The server's base URL (the room name is appended).
    #[arg(long, default_value = "ws://127.0.0.1:7878", value_parser = trim_slash)]
    pub url: String,
    /// Bots per room.
    #[arg(long = "bots", value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    bots_n: u64,
    /// Rooms, each with --bots bots.
    #[arg(long = "rooms", value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    rooms_n: u64,
    /// Measured seconds, after the warm-up.
    #[arg(long, default_value_t = 20.0, value_parser = positive)]
    pub secs: f64,
    /// Warm-up seconds (the room's percentiles are reset after it).
    #[arg(long, default_value_t = 3.0)]
    pub warmup: f64,
    /// The rooms' name prefix: the bots play in TAG-0, TAG-1, ... (default `run<pid>`, so
    /// two runs never share a room; the server must allow it with `--room-prefix`).
    #[arg(long, default_value_t = format!("run{}", std::process::id()))]
    pub tag: String,
    /// Runtime worker threads (1: a single thread, no cross-thread wake-ups).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The server's token key: signed-in bots mint their join tokens with it (default:
    /// `VILLAGE_TOKEN_KEY`, as the server reads it). Without one every bot is a guest.
    #[arg(
        long = "token-key",
        value_name = "KEY",
        env = "VILLAGE_TOKEN_KEY",
        hide_env_values = true
    )]
    token_key: Option<String>,
    /// Offer permessage-deflate.
    #[arg(long = "deflate", value_name = "on|off", default_value = "on", value_parser = ["on", "off"])]
    deflate_flag: String,
    /// Connect through a loopback TCP proxy that counts the bytes on the wire.
    #[arg(long)]
    pub wire_count: bool,
    /// Bots per room (`--bots`).
    #[arg(skip)]
    pub bots: usize,
    /// Rooms (`--rooms`).
    #[arg(skip)]
    pub rooms: usize,
    /// The token key's bytes.
    #[arg(skip)]
    pub key: Option<Vec<u8>>,
    /// Whether to offer permessage-deflate (`--deflate on|off`).
    #[arg(skip)]
    pub deflate: bool,
}

fn trim_slash(v: &str) -> Result<String, String> {
    Ok(v.trim_end_matches('/').to_string())
}

fn positive(v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(n) if n > 0.0 => Ok(n),
        _ => Err(format!("{v}: expected a positive number of seconds")),
    }
}

/// The command line, checked (clap prints usage and exits on an error or `--help`).
pub fn parse() -> Args {
    let mut a = Args::parse();
    a.bots = a.bots_n as usize;
    a.rooms = a.rooms_n as usize;
    a.key = a.token_key.clone().map(String::into_bytes);
    a.deflate = a.deflate_flag == "on";
    a
}

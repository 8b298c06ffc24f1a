//! The command line (`village-attack --help`).

use clap::Parser;

/// One hostile client's attack on a running `village-server`, bounded in count and time
/// (`--count`, `--secs`); at the end an admin in `--room` reads the room's drop counters
/// and one `ATTACK key=value ...` line is printed. `--attack probe` is a new player instead:
/// it joins `--room` every 1.5 s and prints one `PROBE` line.
#[derive(Debug, Clone, Parser)]
#[command(name = "village-attack", version, after_help = ATTACKS)]
pub(crate) struct Args {
    /// The server's base URL (room names are appended).
    #[arg(long, default_value = "ws://127.0.0.1:7878")]
    pub(crate) url: String,
    /// The admin's room (and the prefix of the room names the `rooms`, `squat` and
    /// `deflate` attacks make up).
    #[arg(long, default_value = "run-atk")]
    pub(crate) room: String,
    /// The room the attack's connections go to (default: --room).
    #[arg(long)]
    pub(crate) target: Option<String>,
    /// Which attack (listed below).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(KINDS))]
    pub(crate) attack: String,
    /// Seconds the attack lasts.
    #[arg(long, default_value_t = 15.0)]
    pub(crate) secs: f64,
    /// At most this many frames, requests or joins sent.
    #[arg(long, default_value_t = 100_000)]
    pub(crate) count: u64,
    /// The server's token key (default `VILLAGE_TOKEN_KEY`): the admin's and the
    /// signed-in attackers' tokens are minted with it.
    #[arg(long = "token-key", env = "VILLAGE_TOKEN_KEY", hide_env_values = true)]
    pub(crate) key: String,
    /// Every socket from this address (any 127.x on Linux is loopback): the attacker's own,
    /// so per-address caps tell it from the players.
    #[arg(long)]
    pub(crate) from: Option<std::net::Ipv4Addr>,
    /// Raw sockets spread over this many addresses from --from on (127.0.0.2, .3, ...,
    /// on past .255 into 127.0.1.0 and so on): an attacker with many addresses (the
    /// `idle`, `handshakes`, `drip` and `deflate` attacks).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=4000))]
    pub(crate) spread: u16,
    /// `stalled`: clients hold until the server closes them.
    #[arg(long)]
    pub(crate) hold: bool,
    /// `probe`: the first fresh address (one per new player from it, the next one each).
    #[arg(long, default_value = "127.0.100.1")]
    pub(crate) fresh: std::net::Ipv4Addr,
    /// `probe`: each new player joins a new room of its own, `ROOM-pN` (a prefix room).
    #[arg(long)]
    pub(crate) fresh_rooms: bool,
    /// `proxy-heads`: the trusted proxy's address; the attack's sockets come from it and
    /// open with a PROXY protocol header naming a client from `--from`/`--spread`.
    #[arg(long)]
    pub(crate) via: Option<std::net::Ipv4Addr>,
    /// `idle`, `handshakes`, `drip`, `guests`, `squat`, `deflate`: how many connections
    /// (default: the attack's own).
    #[arg(long)]
    pub(crate) conns: Option<usize>,
}

/// Every `--attack` value.
pub(crate) const KINDS: [&str; 22] = [
    "probe",
    "rooms",
    "idle",
    "handshakes",
    "floods",
    "stalled",
    "counters",
    "tokens",
    "drip",
    "proxy-heads",
    "guests",
    "squat",
    "guest-flood",
    "ghosts",
    "deflate",
    "crowd",
    "resume",
    "reload",
    "batch-ahead",
    "batch-behind",
    "batch-repeat",
    "batch-fast",
];

/// What each attack does (the end of `--help`).
pub(crate) const ATTACKS: &str = "Attacks:
  rooms         connect-and-close upgrades to new room names, 16 at a time
  idle          400 upgraded sockets that never say hello, reopened when closed
  handshakes    400 sockets that send half an HTTP upgrade and wait, reopened when closed
  drip          200 sockets dripping an endless request head one byte per packet every 5 ms
  proxy-heads   300 slow request heads through a trusted proxy (--via): each opens with a
                PROXY header naming a client of --from/--spread, then drips its head
  floods        4 clients sending every frame kind flat out, reconnecting when closed
  stalled       20 signed-in clients with birds on that never read (--hold: until evicted)
  counters      8 clients sending new envelope ids and malformed payloads at 35 frames/s
  tokens        6 clients saying hello with forged, expired and malformed tokens; 2 guests
                asking for the bird stream
  guests        40 guests joining the target room and holding, retrying when refused
  squat         80 guests, each joining and holding a room of its own (ROOM-sN)
  guest-flood   1,000 guests from --spread addresses, each joining and holding a room
                of its own (ROOM-gN), retrying every second when refused
  ghosts        64 guests, each joining a room of its own (ROOM-hN) and dropping its
                socket (no leave), again every 2 s
  deflate       1,000 signed-in players offering permessage-deflate, 40 to a room
                (ROOM-dN), reading and heartbeating, held to the end, then all gone
  crowd         the same 1,000 players, not offering permessage-deflate
  resume        6 clients resuming sessions in grace with forged, replayed and
                cross-session resume tokens as fast as they are refused
  reload        20 signed-in players reloading flat out: a new tab joins, then the old
                one's socket drops
  batch-ahead   8 players sending input:batch far ahead of their sequence, 35 a second
  batch-behind  8 players sending input:batch far behind it, 35 a second
  batch-repeat  8 players resending one input:batch, 35 a second
  batch-fast    8 players sending input:batch at 150 a second (ten times a client's 15)
  probe         not an attack: every 1.5 s two new signed-in players join --room (one
                from this address, one from a fresh one, --fresh) and leave; prints
                PROBE tries=.. ok=.. join_p50_ms=.. join_max_ms=..";

/// The source addresses raw sockets bind: `--from` and the `--spread - 1` after it.
pub(crate) fn sources(a: &Args) -> Vec<std::net::IpAddr> {
    match a.from {
        None => Vec::new(),
        Some(ip) => (0..a.spread)
            .map(|i| std::net::IpAddr::V4((u32::from(ip) + u32::from(i)).into()))
            .collect(),
    }
}

//! What a server is told: where to listen, room size, relay tiers, caps, map bounds and the
//! simulated world. `Config::default()` is what `cargo run -p village-server` uses.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use tuplet::relay::Tiers;

/// Server settings. Every field has a default fit for the village.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen; loopback by default.
    pub addr: SocketAddr,
    /// Also serve WebTransport (HTTP/3 over UDP) on the same address and port as the
    /// WebSockets, with a self-signed development certificate (docs/webtransport.md).
    pub webtransport: bool,
    /// Players per room (a room is one task; add rooms, not players, to scale).
    pub room_capacity: usize,
    /// Distance tiers of the move relay; the first tier is "nearby" for one-off events.
    pub tiers: Tiers,
    /// How long a mover sends nothing before its movement counts as ended (200 ms: two
    /// intervals of the village client's 10 Hz moves). Its last pose then goes to the
    /// viewers its tier skipped, and its next pose to every viewer: the tiers never
    /// decimate a stop or a start.
    pub stopped_after: Duration,
    /// Server ticks per second (entity snapshots go out every tick).
    pub tick_hz: u32,
    /// A keyframe snapshot every this many ticks (and on request).
    pub keyframe_every: u32,
    /// The bird stream every this many ticks (4 at 20 Hz: 5 times a second).
    pub birds_every: u32,
    /// Largest binary message handled, bytes (fragments together); bigger ones are
    /// dropped and counted.
    pub frame_cap: usize,
    /// A message (one frame or fragments together) of this many bytes or more is a
    /// protocol error that closes the connection with 1009 (a message this big is no
    /// client of ours): the WebSocket library's own limit, above `frame_cap`.
    pub hard_frame_cap: usize,
    /// Sustained messages per second a client may send; more are dropped and counted.
    pub rate_per_s: f64,
    /// Burst allowance on top of the rate, messages.
    pub rate_burst: f64,
    /// The walkable map: a move outside it is corrected.
    pub map_min: [f32; 3],
    /// The walkable map's far corner.
    pub map_max: [f32; 3],
    /// Fastest a player may move, m/s; faster moves are corrected.
    pub max_speed: f32,
    /// How much unused movement a player may bank, seconds at `max_speed` (absorbs jitter:
    /// two moves arriving together are fine, a teleport is not).
    pub speed_bank_s: f32,
    /// Spawn points by join order within a room (cycled); empty: around the village square.
    pub spawns: Vec<[f32; 3]>,
    /// Birds in the village (80 in the seed game).
    pub birds: u16,
    /// Birds within this radius of a subscriber are streamed to it, metres.
    pub bird_radius: f32,
    /// Simulated NPCs walking around the square (the entity snapshot's content).
    pub npcs: u32,
    /// Default snapshot view radius, metres (a client changes it with `world:view`).
    pub view_radius: f32,
    /// Bytes queued per client (in the room and in its writer) before the room stops
    /// queueing for it: past this, frames are dropped and counted as unsent, snapshots are
    /// skipped (a keyframe follows when the client catches up), and a client behind for
    /// `behind_close` is closed. A stalled client cannot grow the server's memory.
    pub queue_bytes: usize,
    /// A client whose queue stays full this long is closed (code 1008), counted `evicted_slow`.
    pub behind_close: Duration,
    /// A socket write that does not finish in this long ends the connection: the kernel
    /// holds at most `send_buffer` for a stalled reader, for at most this long.
    pub write_timeout: Duration,
    /// The kernel send buffer asked for each connection (`SO_SNDBUF`), bytes; Linux doubles it.
    pub send_buffer: usize,
    /// Rooms a client may open: these names exactly (`ws://host/NAME`; `ws://host/` is
    /// `village`) ...
    pub room_names: Vec<String>,
    /// ... and names starting with one of these prefixes. Every name is 1 to 32 bytes of
    /// `a-z`, `0-9`, `-` and `_`; any other path is answered 404 and opens nothing.
    pub room_prefixes: Vec<String>,
    /// Rooms open at once at most; a handshake for a new room past this is answered 503.
    pub max_rooms: usize,
    /// A room with nobody in it for this long is stopped: its task and its tick clock (a
    /// timerfd; a thread off Linux) end.
    pub room_idle: Duration,
    /// Connections open at once at most (a new one past this is closed at once, counted
    /// `refused_total`). Keep it under the process's file limit.
    pub max_connections: usize,
    /// Connections open at once from one source address at most (`refused_per_ip`).
    pub max_per_ip: usize,
    /// Proxies (load balancers) trusted to name the client: from these peers the client's
    /// address comes from the PROXY protocol header (with `proxy_protocol`) or the last
    /// untrusted `X-Forwarded-For` entry, and every per-address cap counts it. Anyone
    /// else's `X-Forwarded-For` is ignored. Empty (the default): every peer is its own
    /// client.
    pub trusted_proxies: Vec<crate::proxy::Net>,
    /// Whether trusted proxies open every connection with a PROXY protocol header (v1 or
    /// v2): required from them, refused from anyone else (it is not HTTP).
    pub proxy_protocol: bool,
    /// Connections that have not yet said `session:hello` (upgrading or waiting), at most:
    /// a budget of their own, apart from `max_connections`, so sockets that never say
    /// hello cannot take players' places (`refused_before_hello`). When it is full, a
    /// newcomer takes the place of the oldest connection yet to say hello, whichever
    /// address or trusted proxy holds it (`evicted_before_hello`), so no number of
    /// addresses can lock a new player out by holding places.
    pub max_before_hello: usize,
    /// ... and at most this many of them from one source address.
    pub max_before_hello_per_ip: usize,
    /// Whether guests (no token) may play at all; refused with `session:error RoomFull(0)`
    /// and close 1013 when not (`session:hello guests_refused`).
    pub guests: bool,
    /// Guests in one room at most (`session:hello guests_full`): signed-in players always
    /// find the rest of the room.
    pub guests_per_room: usize,
    /// Guest sessions in every room together at most, connected or in their grace window
    /// (`session:hello guests_server_full`); the cap is also never over
    /// `guest_share_pct` of `max_connections` ([`Config::guest_cap`]), so guests spread
    /// over prefix rooms leave signed-in players the rest of the server.
    pub max_guests: usize,
    /// The share of `max_connections` guests may hold at most, percent (50).
    pub guest_share_pct: usize,
    /// How long a guest's session outlives its dropped connection (at most `grace`): short,
    /// so a guest that joins and drops does not keep its room open.
    pub guest_grace: Duration,
    /// Players in one room from one source address at most (`session:hello ip_full`); 0:
    /// no cap (loopback benches run every bot from one address).
    pub per_ip_per_room: usize,
    /// The HTTP upgrade must be complete within this long (`handshake_timeout`).
    pub handshake_timeout: Duration,
    /// `session:hello` must arrive within this long of the upgrade; until then the client
    /// holds no room slot (`hello_timeout`).
    pub hello_timeout: Duration,
    /// A client that sends nothing for this long is closed (`idle_timeout`). Clients
    /// heartbeat every 2 s.
    pub idle_timeout: Duration,
    /// A client over its rate cap in this many whole seconds in a row is closed (`flooding`).
    pub flood_close_s: u32,
    /// The key join tokens are signed with (`VILLAGE_TOKEN_KEY` for the binary). `None`:
    /// no token verifies, everyone with a token is refused and everyone without is a guest.
    pub token_key: Option<Vec<u8>>,
    /// permessage-deflate, agreed with clients that offer it (every browser does); `None`
    /// never compresses. Window bits and context takeover are configurable.
    pub deflate: Option<crate::deflate::Deflate>,
    /// Connections compressing at once at most (`--max-deflate`); past it a client that
    /// offers permessage-deflate is answered without it and served uncompressed. Each
    /// compressing connection holds about 340 KB (zlib's window and hash tables each way,
    /// 15-bit windows), so 128 hold about 44 MB, inside the 64 MB the docs bound.
    pub max_deflate: usize,
    /// Gather each client's relayed frames (moves, events, chat, joins) and write them once
    /// per tick with its snapshot: one socket write per client per tick instead of one per
    /// relayed message, for up to one tick (50 ms) more relay latency. Direct answers
    /// (welcome, pong, correction, diagnostics) are written at once, after whatever was
    /// gathered before them, so order is kept. False: every frame is written as soon as it
    /// is handled.
    pub flush_per_tick: bool,
    /// How long a joined session outlives a dropped connection (one that closed without
    /// `session:leave`): within it the client resumes the same session with the resume
    /// token of its last `session:welcome`. Zero: a drop ends the session at once.
    pub grace: Duration,
    /// The SQLite file players are saved in (`--store`); `None` keeps them in memory for
    /// the process's life.
    pub store: Option<PathBuf>,
    /// A signed-in player whose position changed is saved this often.
    pub save_every: Duration,
    /// ... and as soon as it is this many metres from where it was last saved (never per
    /// move: at 12 m/s, about once a second at most).
    pub save_after_m: f32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 7878)),
            webtransport: false,
            room_capacity: 40,
            tiers: Tiers::default(),
            stopped_after: Duration::from_millis(200),
            tick_hz: 20,
            keyframe_every: 100,
            birds_every: 4,
            frame_cap: 4096,
            hard_frame_cap: 64 * 1024,
            rate_per_s: 40.0,
            rate_burst: 80.0,
            map_min: [-2000.0, -50.0, -2000.0],
            map_max: [2000.0, 500.0, 2000.0],
            max_speed: 12.0,
            speed_bank_s: 1.0,
            spawns: Vec::new(),
            birds: 80,
            bird_radius: 70.0,
            npcs: 24,
            view_radius: 120.0,
            queue_bytes: 256 * 1024,
            behind_close: Duration::from_secs(5),
            write_timeout: Duration::from_secs(5),
            send_buffer: 64 * 1024,
            room_names: vec!["village".into()],
            room_prefixes: Vec::new(),
            max_rooms: 64,
            room_idle: Duration::from_secs(30),
            max_connections: 1000,
            max_per_ip: 500,
            trusted_proxies: Vec::new(),
            proxy_protocol: false,
            max_before_hello: 256,
            max_before_hello_per_ip: 32,
            guests: true,
            guests_per_room: 20,
            max_guests: 250,
            guest_share_pct: 50,
            guest_grace: Duration::from_secs(5),
            per_ip_per_room: 0,
            handshake_timeout: Duration::from_secs(5),
            hello_timeout: Duration::from_secs(5),
            idle_timeout: Duration::from_secs(30),
            flood_close_s: 5,
            token_key: None,
            deflate: Some(crate::deflate::Deflate::default()),
            max_deflate: 128,
            flush_per_tick: true,
            grace: Duration::from_secs(30),
            store: None,
            save_every: Duration::from_secs(10),
            save_after_m: 10.0,
        }
    }
}

impl Config {
    /// Guest sessions server-wide at most: `max_guests`, and never over `guest_share_pct`
    /// percent of `max_connections`.
    pub fn guest_cap(&self) -> usize {
        self.max_guests
            .min(self.max_connections.saturating_mul(self.guest_share_pct) / 100)
    }

    /// How long a dropped session of this kind waits for its resume.
    pub fn grace_for(&self, guest: bool) -> Duration {
        if guest {
            self.grace.min(self.guest_grace)
        } else {
            self.grace
        }
    }

    /// The room a request path names, if the configuration allows it: `/` is `village`.
    pub fn room_name<'a>(&self, path: &'a str) -> Option<&'a str> {
        let name = match path.strip_prefix('/')? {
            "" => "village",
            name => name,
        };
        let well_formed = (1..=32).contains(&name.len())
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        let allowed = self.room_names.iter().any(|n| n == name)
            || self
                .room_prefixes
                .iter()
                .any(|p| name.starts_with(p.as_str()));
        (well_formed && allowed).then_some(name)
    }

    /// Whether `ip` is a trusted proxy.
    pub fn is_trusted_proxy(&self, ip: std::net::IpAddr) -> bool {
        crate::proxy::is_trusted(&self.trusted_proxies, ip)
    }

    /// The tick period.
    pub fn tick(&self) -> Duration {
        Duration::from_secs_f64(1.0 / f64::from(self.tick_hz.max(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_names_are_the_configured_ones_and_well_formed() {
        let c = Config {
            room_prefixes: vec!["run".into()],
            ..Config::default()
        };
        assert_eq!(c.room_name("/"), Some("village"));
        assert_eq!(c.room_name("/village"), Some("village"));
        assert_eq!(c.room_name("/run123-4"), Some("run123-4"));
        for bad in [
            "",
            "/plaza",
            "/run/x",
            "/Run1",
            "/run%20",
            "/village/",
            "village",
        ] {
            assert_eq!(c.room_name(bad), None, "{bad}");
        }
        let long = format!("/run{}", "a".repeat(30));
        assert_eq!(c.room_name(&long), None, "33 bytes");
    }
}

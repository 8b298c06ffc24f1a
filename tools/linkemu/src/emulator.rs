//! The emulator: two namespaces, a TUN device in each, and the relay between them on a thread.

use std::io;
use std::net::Ipv4Addr;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::link::Link;
use crate::model::{Counts, Shaper};
use crate::relay::Relay;
use crate::sys::{self, Netns};

/// The server side's address on the link.
pub const SERVER_ADDR: Ipv4Addr = Ipv4Addr::new(10, 77, 0, 1);
/// The client side's address on the link.
pub const CLIENT_ADDR: Ipv4Addr = Ipv4Addr::new(10, 77, 0, 2);
/// The TUN device's name in both namespaces.
pub const DEVICE: &str = "linkemu0";

/// Which namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The server's namespace, at [`SERVER_ADDR`].
    Server,
    /// The clients' namespace, at [`CLIENT_ADDR`].
    Client,
}

/// What each direction did while the emulator ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Client to server.
    pub up: Counts,
    /// Server to client.
    pub down: Counts,
}

/// A running emulated link. Dropping it stops the relay; the namespaces go when the last
/// process and socket in them do.
pub struct Emulator {
    server: Netns,
    client: Netns,
    stop: Arc<AtomicBool>,
    relay: Option<JoinHandle<io::Result<[Counts; 2]>>>,
}

impl Emulator {
    /// Makes the namespaces and devices and starts the relay: `up` shapes client-to-server
    /// packets, `down` server-to-client ones, each from its own stream of `seed`.
    pub fn start(up: Link, down: Link, seed: u32) -> io::Result<Emulator> {
        let server = Netns::new()?;
        let client = Netns::new()?;
        let server_tun = server.run(|| sys::open_tun(DEVICE, SERVER_ADDR))??;
        let client_tun = client.run(|| sys::open_tun(DEVICE, CLIENT_ADDR))??;
        let relay = Relay {
            tuns: [client_tun, server_tun],
            shapers: [
                Shaper::new(up, seed.wrapping_mul(2)),
                Shaper::new(down, seed.wrapping_mul(2).wrapping_add(1)),
            ],
        };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let relay = std::thread::Builder::new()
            .name("linkemu-relay".into())
            .spawn(move || relay.run(flag))?;
        Ok(Emulator {
            server,
            client,
            stop,
            relay: Some(relay),
        })
    }

    /// The same link both ways.
    pub fn symmetric(link: Link, seed: u32) -> io::Result<Emulator> {
        Emulator::start(link.clone(), link, seed)
    }

    /// The namespace of `side`.
    pub fn netns(&self, side: Side) -> &Netns {
        match side {
            Side::Server => &self.server,
            Side::Client => &self.client,
        }
    }

    /// Runs `f` on a thread inside `side`'s namespace (sockets it opens stay there).
    pub fn run_in<T: Send + 'static>(
        &self,
        side: Side,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> io::Result<T> {
        self.netns(side).run(f)
    }

    /// A command that runs inside `side`'s namespace, with `LINKEMU_SERVER_ADDR` and
    /// `LINKEMU_CLIENT_ADDR` in its environment.
    pub fn command(&self, side: Side, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("LINKEMU_SERVER_ADDR", SERVER_ADDR.to_string())
            .env("LINKEMU_CLIENT_ADDR", CLIENT_ADDR.to_string());
        let fd = self.netns(side).raw_fd();
        // SAFETY: the closure only calls setns, which is async-signal-safe.
        unsafe {
            c.pre_exec(move || sys::enter(fd));
        }
        c
    }

    /// Stops the relay and returns what it did.
    pub fn stop(mut self) -> io::Result<Stats> {
        self.halt()
    }

    fn halt(&mut self) -> io::Result<Stats> {
        self.stop.store(true, Ordering::Relaxed);
        let Some(h) = self.relay.take() else {
            return Ok(Stats::default());
        };
        let [up, down] = h
            .join()
            .map_err(|_| io::Error::other("relay thread panicked"))??;
        Ok(Stats { up, down })
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.halt();
    }
}

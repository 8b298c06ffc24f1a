//! linkemu: a link emulator with no kernel module, for the labs and the test command.
//!
//! Two network namespaces (a server side at 10.77.0.1, a client side at 10.77.0.2), each with
//! a TUN device, joined by a userspace relay that delays, jitters, drops (independently or in
//! Gilbert–Elliott bursts), reorders and duplicates packets, every draw from a seed. The
//! kernel's own TCP and any UDP stack (QUIC) run over it unchanged. It needs CAP_NET_ADMIN:
//! root, or a user namespace (`unshare -Urn`). See docs/link-emulator.md.
//!
//! A Rust lab holds the link itself:
//!
//! ```no_run
//! use linkemu::{by_name, Emulator, Side, SERVER_ADDR};
//!
//! # fn main() -> std::io::Result<()> {
//! let emu = Emulator::symmetric(by_name("loss2-rtt100").unwrap(), 3)?;
//! // Sockets opened inside `run_in` live in that namespace.
//! let server = emu.run_in(Side::Server, || std::net::UdpSocket::bind((SERVER_ADDR, 4433)))??;
//! let mut client = emu.command(Side::Client, "node").arg("client.mjs").spawn()?;
//! client.wait()?;
//! let stats = emu.stop()?; // what each direction did
//! println!("{} of {} packets lost client to server", stats.up.lost, stats.up.packets);
//! # drop(server);
//! # Ok(())
//! # }
//! ```

pub mod emulator;
pub mod link;
pub mod model;
pub mod relay;
pub mod rng;
pub mod sys;

pub use emulator::{Emulator, Side, Stats, CLIENT_ADDR, DEVICE, SERVER_ADDR};
pub use link::{by_name, named, GilbertElliott, Link, Loss};
pub use model::{Counts, Fate, Shaper};

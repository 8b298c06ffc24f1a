//! The relay: reads IP packets from the two TUN devices, asks each direction's model what
//! happens to them, and writes them to the other device when they are due.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::model::{Counts, Fate, Shaper};

/// At most this many packets wait in one direction; more are dropped and counted as overflow,
/// so a sender cannot make the relay hold unbounded memory.
pub const QUEUE_BOUND: usize = 16_384;
/// The largest packet read (a TUN device's MTU is 1500; this leaves room for larger ones).
const MAX_PACKET: usize = 65_536;
/// The relay looks at its stop flag at least this often.
const WAKE: Duration = Duration::from_millis(20);

/// The two devices and their models: index 0 is the client side's device and the client to
/// server direction ("up"), index 1 the server side's and "down".
pub struct Relay {
    /// The TUN devices: the client side's, the server side's.
    pub tuns: [OwnedFd; 2],
    /// The models: client to server, server to client.
    pub shapers: [Shaper; 2],
}

struct Due {
    at_ns: u64,
    seq: u64,
    dir: usize,
    packet: Vec<u8>,
}

impl PartialEq for Due {
    fn eq(&self, o: &Self) -> bool {
        (self.at_ns, self.seq) == (o.at_ns, o.seq)
    }
}
impl Eq for Due {}
impl PartialOrd for Due {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Due {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.at_ns, self.seq).cmp(&(o.at_ns, o.seq))
    }
}

impl Relay {
    /// Relays until `stop` is set; returns what each direction did (up, down).
    pub fn run(mut self, stop: Arc<AtomicBool>) -> io::Result<[Counts; 2]> {
        let start = Instant::now();
        let mut heap: BinaryHeap<Reverse<Due>> = BinaryHeap::new();
        let mut queued = [0usize; 2];
        let mut seq = 0u64;
        let mut buf = vec![0u8; MAX_PACKET];
        let fds = [self.tuns[0].as_raw_fd(), self.tuns[1].as_raw_fd()];
        while !stop.load(Ordering::Relaxed) {
            // Deliver what is due.
            let now = start.elapsed().as_nanos() as u64;
            while heap.peek().is_some_and(|d| d.0.at_ns <= now) {
                let Reverse(d) = heap.pop().expect("peeked");
                queued[d.dir] -= 1;
                // The other side's device: up goes out on the server's, down on the client's.
                // SAFETY: writing a byte buffer to a descriptor we own.
                let n = unsafe {
                    libc::write(fds[1 - d.dir], d.packet.as_ptr().cast(), d.packet.len())
                };
                if n >= 0 {
                    self.shapers[d.dir].counts.delivered += 1;
                }
            }
            // Wait for a packet or the next due time.
            let wait = heap
                .peek()
                .map(|d| Duration::from_nanos(d.0.at_ns.saturating_sub(now)))
                .unwrap_or(WAKE)
                .min(WAKE);
            let ts = libc::timespec {
                tv_sec: wait.as_secs() as libc::time_t,
                tv_nsec: wait.subsec_nanos() as libc::c_long,
            };
            let mut polls = fds.map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            });
            // SAFETY: two valid pollfds and a valid timespec.
            let r = unsafe { libc::ppoll(polls.as_mut_ptr(), 2, &ts, std::ptr::null()) };
            if r < 0 {
                let e = io::Error::last_os_error();
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(e);
            }
            for dir in 0..2 {
                if polls[dir].revents & libc::POLLIN == 0 {
                    continue;
                }
                // A bounded batch per wake, so one busy direction cannot starve delivery.
                for _ in 0..256 {
                    // SAFETY: reading into a buffer of MAX_PACKET bytes we own.
                    let n = unsafe { libc::read(fds[dir], buf.as_mut_ptr().cast(), buf.len()) };
                    if n <= 0 {
                        break;
                    }
                    let now_ms = start.elapsed().as_secs_f64() * 1000.0;
                    let packet = buf[..n as usize].to_vec();
                    let shaper = &mut self.shapers[dir];
                    let Fate::Deliver { at, duplicate } = shaper.admit(now_ms) else {
                        continue;
                    };
                    let copies = if duplicate { 2 } else { 1 };
                    for _ in 0..copies {
                        if queued[dir] >= QUEUE_BOUND {
                            shaper.counts.overflow += 1;
                            continue;
                        }
                        queued[dir] += 1;
                        seq += 1;
                        heap.push(Reverse(Due {
                            at_ns: (at * 1e6) as u64,
                            seq,
                            dir,
                            packet: packet.clone(),
                        }));
                    }
                }
            }
        }
        Ok([self.shapers[0].counts, self.shapers[1].counts])
    }
}

//! The room's tick clock. tokio's own timer rounds deadlines up to whole milliseconds and
//! fires only when the runtime polls its timer wheel, which adds up to a millisecond to
//! every tick. On Linux a room's clock is a timerfd instead: the kernel's timer on
//! CLOCK_MONOTONIC armed at the exact first deadline with the period as its interval, read
//! through tokio's reactor, so a room costs one file descriptor and no thread. Elsewhere,
//! or if the kernel refuses a timerfd, it is a dedicated OS thread sleeping until each
//! deadline. Either way each tick is handed over with its deadline, and the room measures
//! its lateness from that deadline.

use std::time::{Duration, Instant};

use tokio::sync::mpsc;

/// A room's ticks: each is the tick's deadline, `period` apart from the first one period
/// after `start`. Ticks the room has not taken yet are not lost: a late room gets them back
/// to back, each with its own deadline (so each is measured late).
pub(crate) struct Ticks {
    inner: Inner,
}

enum Inner {
    Thread(mpsc::UnboundedReceiver<Instant>),
    #[cfg(target_os = "linux")]
    Fd(timerfd::Timer),
}

/// Ticks every `period` from now on (at least 1 ms), from a timerfd on Linux, else from a
/// thread. Call within a tokio runtime with its I/O driver on.
pub(crate) fn start(period: Duration) -> Ticks {
    let period = period.max(Duration::from_millis(1));
    #[cfg(target_os = "linux")]
    match timerfd::Timer::new(period) {
        Ok(t) => {
            return Ticks {
                inner: Inner::Fd(t),
            }
        }
        Err(e) => eprintln!("village-server: no timerfd ({e}); ticking from a thread"),
    }
    start_thread(period)
}

impl Ticks {
    /// The next tick's deadline, once it has passed. Cancel-safe: a tick is taken only when
    /// this returns it. `None` if the clock failed (a room then stops ticking).
    pub(crate) async fn recv(&mut self) -> Option<Instant> {
        match &mut self.inner {
            Inner::Thread(rx) => rx.recv().await,
            #[cfg(target_os = "linux")]
            Inner::Fd(t) => t.recv().await,
        }
    }
}

/// The fallback: a thread that sleeps until each deadline and sends it; it ends at the
/// first tick after the `Ticks` is dropped.
fn start_thread(period: Duration) -> Ticks {
    let (tx, rx) = mpsc::unbounded_channel();
    let spawned = std::thread::Builder::new()
        .name("room-tick".into())
        .spawn(move || {
            let mut next = Instant::now() + period;
            loop {
                if let Some(wait) = next.checked_duration_since(Instant::now()) {
                    std::thread::sleep(wait);
                }
                if tx.send(next).is_err() {
                    return;
                }
                next += period;
            }
        });
    if let Err(e) = spawned {
        eprintln!("village-server: cannot start a tick thread: {e}");
    }
    Ticks {
        inner: Inner::Thread(rx),
    }
}

#[cfg(target_os = "linux")]
mod timerfd {
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::time::{Duration, Instant};

    use tokio::io::unix::AsyncFd;
    use tokio::io::Interest;

    /// A timerfd on CLOCK_MONOTONIC, non-blocking, closed with the room.
    pub(super) struct Timer {
        fd: AsyncFd<OwnedFd>,
        /// The deadline of the next tick to hand over.
        next: Instant,
        period: Duration,
        /// Expiries read from the fd and not yet handed over.
        pending: u64,
    }

    fn timespec(d: Duration) -> libc::timespec {
        libc::timespec {
            tv_sec: d.as_secs() as libc::time_t,
            tv_nsec: d.subsec_nanos() as libc::c_long,
        }
    }

    impl Timer {
        pub(super) fn new(period: Duration) -> io::Result<Timer> {
            // SAFETY: plain syscalls on a descriptor this function owns from its creation.
            let raw = unsafe {
                libc::timerfd_create(
                    libc::CLOCK_MONOTONIC,
                    libc::TFD_NONBLOCK | libc::TFD_CLOEXEC,
                )
            };
            if raw < 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: `raw` is a new descriptor nothing else owns.
            let fd = unsafe { OwnedFd::from_raw_fd(raw) };
            // `Instant` is CLOCK_MONOTONIC on Linux, so a deadline is the same instant on
            // both. Read the Instant first: the kernel's clock, read just after, is at or
            // past it, so the timer never fires before the Instant deadline it stands for
            // (it is late by the few nanoseconds between the two reads).
            let now = Instant::now();
            let mut mono = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: `mono` is a valid timespec to write.
            if unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut mono) } != 0 {
                return Err(io::Error::last_os_error());
            }
            let mono = Duration::new(mono.tv_sec as u64, mono.tv_nsec as u32);
            let spec = libc::itimerspec {
                it_interval: timespec(period),
                it_value: timespec(mono + period),
            };
            // SAFETY: `fd` is a timerfd; `spec` is valid; the old value is not asked for.
            let armed = unsafe {
                libc::timerfd_settime(
                    fd.as_raw_fd(),
                    libc::TFD_TIMER_ABSTIME,
                    &spec,
                    std::ptr::null_mut(),
                )
            };
            if armed != 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: the `OwnedFd` stays open and the same descriptor while the AsyncFd
            // holds it (it is closed when the AsyncFd is dropped, after deregistering).
            let fd = unsafe { AsyncFd::register_with_interest(fd, Interest::READABLE) }?;
            Ok(Timer {
                fd,
                next: now + period,
                period,
                pending: 0,
            })
        }

        pub(super) async fn recv(&mut self) -> Option<Instant> {
            loop {
                if self.pending > 0 {
                    // One expiry per deadline: a count over 1 means ticks were missed, and
                    // each is handed over in turn with its own deadline.
                    self.pending -= 1;
                    let at = self.next;
                    self.next += self.period;
                    return Some(at);
                }
                let mut ready = match self.fd.readable().await {
                    Ok(r) => r,
                    Err(e) => {
                        eprintln!("village-server: tick timer: {e}");
                        return None;
                    }
                };
                let read = ready.try_io(|fd| {
                    let mut count = 0u64;
                    // SAFETY: reads 8 bytes into `count`, the size a timerfd read needs.
                    let n = unsafe {
                        libc::read(
                            fd.get_ref().as_raw_fd(),
                            (&mut count as *mut u64).cast(),
                            std::mem::size_of::<u64>(),
                        )
                    };
                    if n < 0 {
                        Err(io::Error::last_os_error())
                    } else {
                        Ok(count)
                    }
                });
                match read {
                    Ok(Ok(count)) => self.pending += count,
                    Ok(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
                    Ok(Err(e)) => {
                        eprintln!("village-server: tick timer: {e}");
                        return None;
                    }
                    // Not readable after all (readiness cleared): wait again.
                    Err(_) => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both clocks: the one `start` picks and the thread.
    fn clocks(period: Duration) -> Vec<Ticks> {
        vec![start(period), start_thread(period)]
    }

    #[tokio::test]
    async fn deadlines_are_a_period_apart_and_never_early() {
        let period = Duration::from_millis(5);
        #[cfg(target_os = "linux")]
        assert!(matches!(start(period).inner, Inner::Fd(_)), "a timerfd");
        for mut ticks in clocks(period) {
            let first = ticks.recv().await.expect("a tick");
            assert!(Instant::now() >= first);
            let mut last = first;
            for _ in 0..4 {
                let at = ticks.recv().await.expect("a tick");
                assert_eq!(at - last, period);
                assert!(Instant::now() >= at, "handed over before its deadline");
                last = at;
            }
        }
    }

    #[tokio::test]
    async fn missed_ticks_come_back_to_back_each_with_its_deadline() {
        let period = Duration::from_millis(5);
        for mut ticks in clocks(period) {
            let first = ticks.recv().await.expect("a tick");
            // The room is busy for more than two periods: the ticks it missed are all due.
            std::thread::sleep(period * 3);
            let busy_until = Instant::now();
            let mut last = first;
            for _ in 0..3 {
                let at = ticks.recv().await.expect("a missed tick");
                assert_eq!(at - last, period, "a period after the one before");
                assert!(at <= busy_until, "missed while the room was busy");
                last = at;
            }
        }
    }
}

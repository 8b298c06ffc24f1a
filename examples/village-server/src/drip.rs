//! Reading a request head that arrives a few bytes at a time, cheaply. Once a head is
//! slow (two reads have left it unfinished), the kernel is asked not to report
//! the socket readable until a whole head's bytes wait (`SO_RCVLOWAT`), so a byte per
//! packet no longer wakes the server, and the connection reads on its own clock instead:
//! at every [`DRIP_PAUSE`] boundary of one process-wide grid, so every dripping socket
//! wakes in the same timer tick. A dripped head then costs a read per socket per pause
//! and about one wakeup of the server per pause for all of them, whatever the drip's
//! pace or the number of sockets.

use std::io::Read;
use std::sync::OnceLock;
use std::time::Duration;

use tokio::net::TcpStream;
use tokio::time::Instant;

/// How long a slow head's reads are apart (a browser's head, one or two segments, never
/// waits).
pub(crate) const DRIP_PAUSE: Duration = Duration::from_millis(50);

/// The grid's origin: the first slow head's.
static ORIGIN: OnceLock<Instant> = OnceLock::new();

/// The next grid boundary after now.
fn next_boundary() -> Instant {
    let origin = *ORIGIN.get_or_init(Instant::now);
    let pause = DRIP_PAUSE.as_nanos();
    let since = Instant::now().saturating_duration_since(origin).as_nanos();
    let steps = since / pause + 1;
    origin + Duration::from_nanos((steps * pause) as u64)
}

/// Sets `SO_RCVLOWAT` (Linux; elsewhere nothing, and a slow head wakes per packet).
pub(crate) fn set_low_water(stream: &TcpStream, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let v = bytes.min(i32::MAX as usize) as libc::c_int;
        // SAFETY: a valid socket and a c_int option value of the stated size.
        unsafe {
            libc::setsockopt(
                stream.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_RCVLOWAT,
                (&v as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (stream, bytes);
}

/// Reads what has arrived into `buf`, at the next grid boundary and then at each one
/// until something has (or the peer closed: 0). The read goes to the socket itself, not
/// through tokio's readiness, which the low-water mark keeps from firing.
pub(crate) async fn read_on_grid(stream: &TcpStream, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        tokio::time::sleep_until(next_boundary()).await;
        match (&*socket2::SockRef::from(stream)).read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            done => return done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_are_on_one_grid_and_ahead() {
        let a = next_boundary();
        let b = next_boundary();
        let origin = *ORIGIN.get().unwrap();
        for t in [a, b] {
            assert!(t > Instant::now() - DRIP_PAUSE);
            assert_eq!((t - origin).as_nanos() % DRIP_PAUSE.as_nanos(), 0);
        }
    }
}

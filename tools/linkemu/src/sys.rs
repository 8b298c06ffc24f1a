//! The system calls: network namespaces, TUN devices and interface addresses.
//!
//! Straight through libc, no TUN crate: the emulator needs each device opened inside its own
//! namespace from a thread that entered it, which the TUN crates (tun, tun-rs, tokio-tun) do
//! not expose, and they bring async runtimes and `ip`-like configuration the relay has no use
//! for. What is used here is four ioctls (TUNSETIFF, SIOCSIFADDR, SIOCSIFNETMASK,
//! SIOCSIFFLAGS), `unshare` and `setns`. Namespaces are anonymous (held by file descriptors,
//! never named under /run/netns), so nothing outlives the process and no `ip` is needed.

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::net::Ipv4Addr;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::thread;

/// Why the emulator cannot start, said so a person knows what to do.
pub fn explain(e: &io::Error, what: &str) -> io::Error {
    let hint = match e.raw_os_error() {
        Some(libc::EACCES) if what.contains("/dev/net/tun") => {
            "/dev/net/tun is not open to this user: run linkemu as root, or make the device \
             usable as most distributions ship it (chmod 0666 /dev/net/tun) and run it in a \
             user namespace (unshare -Urn linkemu ...)"
        }
        Some(libc::EPERM) | Some(libc::EACCES) => {
            "linkemu needs CAP_NET_ADMIN to make network namespaces and TUN devices: run it as \
             root (sudo linkemu ...), or in a user namespace of your own (unshare -Urn linkemu \
             ...)"
        }
        Some(libc::ENOENT) | Some(libc::ENODEV) | Some(libc::ENXIO) => {
            "this system has no TUN device: load the tun module (modprobe tun), or give the \
             container /dev/net/tun (docker run --device /dev/net/tun --cap-add NET_ADMIN)"
        }
        _ => "",
    };
    io::Error::new(e.kind(), format!("linkemu: {what}: {e}. {hint}"))
}

fn check(r: libc::c_int) -> io::Result<libc::c_int> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// A network namespace held open by a file descriptor.
#[derive(Debug)]
pub struct Netns {
    fd: OwnedFd,
}

impl Netns {
    /// A new, empty network namespace (only `lo`, brought up).
    pub fn new() -> io::Result<Netns> {
        let ns = thread::spawn(|| -> io::Result<Netns> {
            // SAFETY: unshare only changes this thread's namespaces; the thread ends here.
            check(unsafe { libc::unshare(libc::CLONE_NEWNET) })
                .map_err(|e| explain(&e, "making a network namespace"))?;
            let f = File::open("/proc/thread-self/ns/net")?;
            // No IPv6: no router solicitations or MLD reports on the link, so every packet
            // the relay sees is one a program sent. Best effort: IPv6 may be off already.
            for p in ["all", "default"] {
                let _ = std::fs::write(format!("/proc/sys/net/ipv6/conf/{p}/disable_ipv6"), "1");
            }
            set_up("lo").map_err(|e| explain(&e, "bringing lo up"))?;
            Ok(Netns { fd: f.into() })
        })
        .join()
        .map_err(|_| io::Error::other("namespace thread panicked"))??;
        Ok(ns)
    }

    /// Runs `f` on a thread inside this namespace: sockets it opens live in the namespace
    /// and stay there when handed back.
    pub fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> io::Result<T> {
        let fd = self.fd.as_raw_fd();
        thread::scope(|s| {
            s.spawn(move || -> io::Result<T> {
                enter(fd)?;
                Ok(f())
            })
            .join()
            .map_err(|_| io::Error::other("namespace thread panicked"))?
        })
    }

    /// The raw descriptor, for `enter` in a child process before exec.
    pub fn raw_fd(&self) -> libc::c_int {
        self.fd.as_raw_fd()
    }
}

/// Moves the calling thread (or a forked child before exec) into the namespace `fd`.
pub fn enter(fd: libc::c_int) -> io::Result<()> {
    // SAFETY: setns on a descriptor we hold; async-signal-safe, so fine after fork.
    check(unsafe { libc::setns(fd, libc::CLONE_NEWNET) })?;
    Ok(())
}

fn ifreq(name: &str) -> io::Result<libc::ifreq> {
    let c = CString::new(name).map_err(io::Error::other)?;
    let bytes = c.as_bytes_with_nul();
    if bytes.len() > libc::IFNAMSIZ {
        return Err(io::Error::other("interface name too long"));
    }
    // SAFETY: ifreq is plain data; all zeroes is a valid value.
    let mut r: libc::ifreq = unsafe { std::mem::zeroed() };
    for (d, s) in r.ifr_name.iter_mut().zip(bytes) {
        *d = *s as libc::c_char;
    }
    Ok(r)
}

fn control_socket() -> io::Result<OwnedFd> {
    // SAFETY: a plain socket call; the descriptor is owned at once.
    let fd =
        check(unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) })?;
    // SAFETY: fd is a new descriptor nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn set_up(name: &str) -> io::Result<()> {
    let s = control_socket()?;
    let mut r = ifreq(name)?;
    // SAFETY: SIOCGIFFLAGS/SIOCSIFFLAGS read and write the flags member of a valid ifreq.
    unsafe {
        check(libc::ioctl(s.as_raw_fd(), libc::SIOCGIFFLAGS, &mut r))?;
        r.ifr_ifru.ifru_flags |= (libc::IFF_UP | libc::IFF_RUNNING) as libc::c_short;
        check(libc::ioctl(s.as_raw_fd(), libc::SIOCSIFFLAGS, &r))?;
    }
    Ok(())
}

fn sockaddr(ip: Ipv4Addr) -> libc::sockaddr {
    let sin = libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: 0,
        sin_addr: libc::in_addr {
            s_addr: u32::from(ip).to_be(),
        },
        sin_zero: [0; 8],
    };
    // SAFETY: sockaddr_in and sockaddr have the same size; this is how the kernel reads it.
    unsafe { std::mem::transmute::<libc::sockaddr_in, libc::sockaddr>(sin) }
}

/// The devices' transmit queue, packets.
pub const TX_QUEUE: libc::c_int = 4096;

/// Opens a TUN device named `name` in the calling thread's namespace (IP packets, no
/// packet-information header, non-blocking), gives it `addr`/24 and brings it up.
pub fn open_tun(name: &str, addr: Ipv4Addr) -> io::Result<OwnedFd> {
    let path = c"/dev/net/tun";
    // SAFETY: open with a valid C string; the descriptor is owned at once.
    let fd = check(unsafe {
        libc::open(
            path.as_ptr(),
            libc::O_RDWR | libc::O_NONBLOCK | libc::O_CLOEXEC,
        )
    })
    .map_err(|e| explain(&e, "opening /dev/net/tun"))?;
    // SAFETY: fd is a new descriptor nobody else owns.
    let tun = unsafe { OwnedFd::from_raw_fd(fd) };
    let mut r = ifreq(name)?;
    r.ifr_ifru.ifru_flags = (libc::IFF_TUN | libc::IFF_NO_PI) as libc::c_short;
    // SAFETY: TUNSETIFF reads a valid ifreq.
    check(unsafe { libc::ioctl(tun.as_raw_fd(), libc::TUNSETIFF, &r) })
        .map_err(|e| explain(&e, "making a TUN device"))?;
    let s = control_socket()?;
    let mut r = ifreq(name)?;
    r.ifr_ifru.ifru_addr = sockaddr(addr);
    // SAFETY: SIOCSIFADDR and SIOCSIFNETMASK read a valid ifreq.
    unsafe {
        check(libc::ioctl(s.as_raw_fd(), libc::SIOCSIFADDR, &r))
            .map_err(|e| explain(&e, "giving the TUN device its address"))?;
        r.ifr_ifru.ifru_netmask = sockaddr(Ipv4Addr::new(255, 255, 255, 0));
        check(libc::ioctl(s.as_raw_fd(), libc::SIOCSIFNETMASK, &r))
            .map_err(|e| explain(&e, "giving the TUN device its netmask"))?;
        // A deeper queue than TUN's 500 packets, so a burst waits for the relay instead of
        // being dropped before the model sees it. Best effort: inside a user namespace the
        // kernel refuses it and the queue stays at 500.
        r.ifr_ifru.ifru_metric = TX_QUEUE;
        let _ = libc::ioctl(s.as_raw_fd(), libc::SIOCSIFTXQLEN, &r);
    }
    set_up(name).map_err(|e| explain(&e, "bringing the TUN device up"))?;
    Ok(tun)
}

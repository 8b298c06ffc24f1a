//! The emulator's own test: loss and delay measured by real UDP and TCP traffic across the
//! namespaces are within 10% of what the link sets.
//!
//! Needs CAP_NET_ADMIN (root, or `unshare -Urn`), so it is ignored by a plain `cargo test`;
//! scripts/test runs it as `cargo test -p linkemu --test measure -- --ignored`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, UdpSocket};
use std::os::fd::AsRawFd;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use linkemu::{by_name, Emulator, Link, Loss, Side, CLIENT_ADDR, SERVER_ADDR};

/// Both ends stamp with this one clock: namespaces share the monotonic clock.
fn epoch() -> Instant {
    static E: OnceLock<Instant> = OnceLock::new();
    *E.get_or_init(Instant::now)
}

fn within(measured: f64, set: f64, what: &str) {
    let off = (measured - set).abs() / set;
    eprintln!(
        "{what}: set {set:.4}, measured {measured:.4} ({:.1}% off)",
        off * 100.0
    );
    assert!(
        off <= 0.10,
        "{what}: measured {measured} is more than 10% from {set}"
    );
}

fn start(up: Link, down: Link, seed: u32) -> Emulator {
    Emulator::start(up, down, seed).unwrap_or_else(|e| panic!("{e}"))
}

/// Sends `n` stamped UDP probes `gap` apart from the client side to the server side; returns
/// each probe's one-way delay in ms (None if lost) and what the relay did.
fn probe(emu: Emulator, n: u32, gap: Duration) -> (Vec<Option<f64>>, linkemu::Stats) {
    let rx = emu
        .run_in(Side::Server, || UdpSocket::bind((SERVER_ADDR, 0)))
        .unwrap()
        .unwrap();
    let to = rx.local_addr().unwrap();
    let tx = emu
        .run_in(Side::Client, || UdpSocket::bind((CLIENT_ADDR, 0)))
        .unwrap()
        .unwrap();
    rx.set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let receiver = std::thread::spawn(move || {
        let mut got = vec![None; n as usize];
        let mut b = [0u8; 64];
        while let Ok((len, _)) = rx.recv_from(&mut b) {
            let now = epoch().elapsed().as_nanos() as u64;
            assert_eq!(len, 12);
            let seq = u32::from_le_bytes(b[..4].try_into().unwrap());
            let sent = u64::from_le_bytes(b[4..12].try_into().unwrap());
            got[seq as usize] = Some((now - sent) as f64 / 1e6);
        }
        got
    });
    let t0 = Instant::now();
    for seq in 0..n {
        if let Some(w) = (t0 + gap * seq).checked_duration_since(Instant::now()) {
            std::thread::sleep(w);
        }
        let mut p = seq.to_le_bytes().to_vec();
        p.extend_from_slice(&(epoch().elapsed().as_nanos() as u64).to_le_bytes());
        tx.send_to(&p, to).unwrap();
    }
    let got = receiver.join().unwrap();
    (got, emu.stop().unwrap())
}

/// No probe arrives before the set delay; the slowest are late by the relay's scheduling only
/// (a loaded machine wakes it a few ms late), bounded loosely to catch a relay that falls behind.
fn late(sorted: &[f64], min_ms: f64, max_ms: f64) {
    let p99 = sorted[sorted.len() * 99 / 100];
    let (lo, hi) = (sorted[0], sorted[sorted.len() - 1]);
    eprintln!("  min {lo:.2}, p99 {p99:.2}, max {hi:.2} ms (set {min_ms} to {max_ms})");
    assert!(lo >= min_ms, "a probe arrived early: {lo} < {min_ms}");
    assert!(p99 < max_ms + 20.0, "the relay fell behind: p99 {p99}");
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// UDP probes one way: the share lost and the one-way delay (50 ms, 5% loss each way).
#[test]
#[ignore = "needs root or a user namespace; scripts/test runs it with --ignored"]
fn udp_probes_measure_the_set_loss_and_one_way_delay() {
    let link = by_name("loss5-rtt100").unwrap();
    let n = 8000;
    // 4 probes per ms: 2 s.
    let (got, stats) = probe(
        start(link.clone(), link.clone(), 3),
        n,
        Duration::from_micros(250),
    );
    let delays: Vec<f64> = got.iter().flatten().copied().collect();
    let lost = n as usize - delays.len();
    // The probes saw exactly what the relay did: nothing lost beside the model's draws.
    assert_eq!(stats.up.packets, u64::from(n));
    assert_eq!(stats.up.lost as usize, lost);
    within(
        lost as f64 / f64::from(n),
        link.loss.mean(),
        "UDP loss, client to server",
    );
    within(mean(&delays), link.base_ms, "UDP one-way delay ms, mean");
    let mut sorted = delays.clone();
    sorted.sort_by(f64::total_cmp);
    within(
        sorted[sorted.len() / 2],
        link.base_ms,
        "UDP one-way delay ms, p50",
    );
    late(&sorted, link.base_ms, link.base_ms);
}

/// UDP probes on a jittered link (the clean link: 25 ms + up to 5 ms, in order).
#[test]
#[ignore = "needs root or a user namespace; scripts/test runs it with --ignored"]
fn udp_probes_measure_the_clean_links_jittered_delay() {
    let link = by_name("clean").unwrap();
    // 10 ms apart, wider than the jitter, so in-order delivery holds none back: 3 s.
    let (got, _) = probe(
        start(link.clone(), link.clone(), 5),
        300,
        Duration::from_millis(10),
    );
    let delays: Vec<f64> = got
        .iter()
        .map(|d| d.expect("the clean link loses nothing"))
        .collect();
    within(
        mean(&delays),
        link.mean_delay_ms(),
        "UDP one-way delay ms on the clean link, mean",
    );
    let mut sorted = delays.clone();
    sorted.sort_by(f64::total_cmp);
    late(&sorted, link.base_ms, link.base_ms + link.jitter_ms);
}

fn tcp_pair(emu: &Emulator) -> (TcpStream, TcpStream, f64) {
    let l = emu
        .run_in(Side::Server, || TcpListener::bind((SERVER_ADDR, 0)))
        .unwrap()
        .unwrap();
    let addr: SocketAddr = l.local_addr().unwrap();
    let (c, connect_ms) = emu
        .run_in(Side::Client, move || {
            let t = Instant::now();
            let c = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).unwrap();
            (c, t.elapsed().as_secs_f64() * 1000.0)
        })
        .unwrap();
    let (s, _) = l.accept().unwrap();
    (c, s, connect_ms)
}

/// The fields of Linux's `struct tcp_info` this test reads (offsets since Linux 4.2).
struct TcpInfo {
    rtt_us: u32,
    total_retrans: u32,
    segs_out: u32,
}

fn tcp_info(s: &TcpStream) -> TcpInfo {
    let mut b = [0u8; 256];
    let mut len = b.len() as libc::socklen_t;
    // SAFETY: getsockopt writes at most `len` bytes into `b`.
    let r = unsafe {
        libc::getsockopt(
            s.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            b.as_mut_ptr().cast(),
            &mut len,
        )
    };
    assert!(r == 0 && len >= 144, "TCP_INFO: {r} {len}");
    let u32_at = |o: usize| u32::from_ne_bytes(b[o..o + 4].try_into().unwrap());
    TcpInfo {
        rtt_us: u32_at(68),
        total_retrans: u32_at(100),
        segs_out: u32_at(136),
    }
}

/// TCP over a 50 ms one-way link: the handshake, application round trips and the kernel's
/// own smoothed RTT all measure 100 ms.
#[test]
#[ignore = "needs root or a user namespace; scripts/test runs it with --ignored"]
fn tcp_measures_the_set_round_trip() {
    let link = Link::fixed("fixed50", "50 ms one way", 50.0);
    let emu = start(link.clone(), link, 7);
    let (mut c, mut s, connect_ms) = tcp_pair(&emu);
    within(connect_ms, 100.0, "TCP connect (one round trip) ms");
    c.set_nodelay(true).unwrap();
    s.set_nodelay(true).unwrap();
    let echo = std::thread::spawn(move || {
        let mut b = [0u8; 1];
        while s.read_exact(&mut b).is_ok() {
            s.write_all(&b).unwrap();
        }
    });
    let mut rtts = Vec::new();
    for i in 0..20u8 {
        let t = Instant::now();
        c.write_all(&[i]).unwrap();
        let mut b = [0u8; 1];
        c.read_exact(&mut b).unwrap();
        assert_eq!(b[0], i);
        rtts.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let mean = rtts.iter().sum::<f64>() / rtts.len() as f64;
    within(mean, 100.0, "TCP 1-byte echo round trip ms, mean of 20");
    within(
        f64::from(tcp_info(&c).rtt_us) / 1000.0,
        100.0,
        "TCP's smoothed RTT (tcpi_rtt) ms",
    );
    drop(c);
    echo.join().unwrap();
}

/// TCP bulk data over a short link losing 5% of data packets: the share of segments the
/// sender retransmits is the share the link lost.
#[test]
#[ignore = "needs root or a user namespace; scripts/test runs it with --ignored"]
fn tcp_retransmits_measure_the_set_loss() {
    let up = Link {
        loss: Loss::Independent(0.05),
        ..Link::fixed("lossy", "2 ms, 5% loss", 2.0)
    };
    let down = Link::fixed("fixed", "2 ms", 2.0);
    let emu = start(up.clone(), down, 11);
    let (mut c, mut s, _) = tcp_pair(&emu);
    let sink = std::thread::spawn(move || {
        let mut b = vec![0u8; 1 << 16];
        let mut n = 0usize;
        while let Ok(k) = s.read(&mut b) {
            if k == 0 {
                break;
            }
            n += k;
        }
        n
    });
    // 16 KiB every 2 ms (8 MB/s) for 3 s: about 17,000 segments, below what the relay can
    // carry, so the only losses are the model's.
    let chunk = vec![7u8; 16 << 10];
    let t = Instant::now();
    let mut sent = 0usize;
    for i in 0..1500u32 {
        if let Some(w) = (t + Duration::from_millis(2) * i).checked_duration_since(Instant::now()) {
            std::thread::sleep(w);
        }
        c.write_all(&chunk).unwrap();
        sent += chunk.len();
    }
    c.shutdown(std::net::Shutdown::Write).unwrap();
    let received = sink.join().unwrap();
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(received, sent);
    let info = tcp_info(&c);
    let stats = emu.stop().unwrap();
    eprintln!(
        "TCP bulk: {:.1} MB in {secs:.1} s ({:.2} MB/s), {} segments out, {} retransmitted; relay: {} packets up, {} lost",
        sent as f64 / 1e6,
        sent as f64 / 1e6 / secs,
        info.segs_out,
        info.total_retrans,
        stats.up.packets,
        stats.up.lost
    );
    // Every segment the sender sent reached the relay (none dropped before it).
    let seen = stats.up.packets as f64 / f64::from(info.segs_out);
    eprintln!("segments the relay saw / segments sent: {seen:.4}");
    assert!((seen - 1.0).abs() < 0.01, "{seen}");
    within(
        f64::from(info.total_retrans) / f64::from(info.segs_out),
        up.loss.mean(),
        "TCP loss (retransmitted / sent segments)",
    );
}

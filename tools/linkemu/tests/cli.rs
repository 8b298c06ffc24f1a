//! The `linkemu` command end to end: a server and clients in their namespaces, exit codes,
//! the time bound, and the refusals.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn linkemu(args: &[&str]) -> (Output, Duration) {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_linkemu"))
        .args(args)
        .output()
        .unwrap();
    (out, t.elapsed())
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn an_unknown_link_is_refused_with_the_list_command() {
    let (o, _) = linkemu(&["run", "--link", "dialup", "--", "true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no link named dialup (see `linkemu links`)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn links_lists_the_labs_links_and_the_loss_levels() {
    let (o, _) = linkemu(&["links"]);
    let s = String::from_utf8(o.stdout).unwrap();
    for name in [
        "none",
        "clean",
        "wifi",
        "far",
        "village",
        "wifi-burst",
        "loss0.5-rtt50",
        "loss2-rtt100",
        "loss5-rtt250",
    ] {
        assert!(
            s.lines().any(|l| l.split_whitespace().next() == Some(name)),
            "{name} in {s}"
        );
    }
}

#[test]
#[ignore = "needs root or a user namespace; scripts/test runs it with --ignored"]
fn the_client_runs_in_its_namespace_and_its_exit_code_is_returned() {
    let stats = std::env::temp_dir().join(format!("linkemu-stats-{}.json", std::process::id()));
    let (o, took) = linkemu(&[
        "run", "--link", "loss2-rtt100", "--seed", "3", "--stats", stats.to_str().unwrap(), "--",
        "sleep", "60", ":::",
        // /proc/net/dev lists the devices of the reader's namespace: lo and linkemu0 only.
        "sh", "-c", "test $(grep -c : /proc/net/dev) = 2 && grep -q linkemu0 /proc/net/dev && test $LINKEMU_SERVER_ADDR = 10.77.0.1 && exit 7",
    ]);
    assert_eq!(o.status.code(), Some(7), "{}", stderr(&o));
    // The server (sleep 60) was ended when the client finished.
    assert!(took < Duration::from_secs(10), "{took:?}");
    let json = std::fs::read_to_string(&stats).unwrap();
    std::fs::remove_file(&stats).unwrap();
    assert!(
        json.starts_with("{\"link\":\"loss2-rtt100\",\"seed\":3,\"up\":{\"packets\":"),
        "{json}"
    );
}

#[test]
#[ignore = "needs root or a user namespace, and node; scripts/test runs it with --ignored"]
fn a_node_server_and_client_talk_over_tcp_and_udp_across_the_link() {
    let server = "const net=require('net'),dgram=require('dgram');\
        net.createServer(s=>s.pipe(s)).listen(7000,process.env.LINKEMU_SERVER_ADDR);\
        const u=dgram.createSocket('udp4');u.on('message',(m,r)=>u.send(m,r.port,r.address));u.bind(7001,process.env.LINKEMU_SERVER_ADDR);";
    // Retries the connection until the server listens; measures a TCP and a UDP round trip.
    let client = "const net=require('net'),dgram=require('dgram');const a=process.env.LINKEMU_SERVER_ADDR;\
        function tcp(){const t=Date.now();const c=net.connect(7000,a,()=>c.write('hi'));\
        c.on('error',()=>setTimeout(tcp,100));c.on('data',d=>{console.log('tcp',Date.now()-t);c.end();udp();});}\
        function udp(){const u=dgram.createSocket('udp4');const t=Date.now();u.on('message',m=>{console.log('udp',Date.now()-t);process.exit(m=='hi'?0:1);});u.send('hi',7001,a);}\
        tcp();";
    let (o, _) = linkemu(&[
        "run",
        "--link",
        "loss0.5-rtt100",
        "--seed",
        "1",
        "--",
        "node",
        "-e",
        server,
        ":::",
        "node",
        "-e",
        client,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let ms = |k: &str| -> u64 {
        let l = out
            .lines()
            .find(|l| l.starts_with(k))
            .unwrap_or_else(|| panic!("{out}"));
        l.split(' ').nth(1).unwrap().parse().unwrap()
    };
    // TCP: the handshake and the echo, two round trips of 100 ms; UDP: one.
    assert!((195..400).contains(&ms("tcp")), "{out}");
    assert!((98..300).contains(&ms("udp")), "{out}");
}

#[test]
#[ignore = "needs root or a user namespace; scripts/test runs it with --ignored"]
fn a_client_that_cannot_start_ends_the_server() {
    let pid_file = std::env::temp_dir().join(format!("linkemu-server-{}.pid", std::process::id()));
    let server = format!("echo $$ > {}; exec sleep 30", pid_file.display());
    let (o, took) = linkemu(&[
        "run",
        "--",
        "sh",
        "-c",
        &server,
        ":::",
        "/nonexistent/client",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("linkemu: starting /nonexistent/client"),
        "{}",
        stderr(&o)
    );
    assert!(took < Duration::from_secs(6), "{took:?}");
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    std::fs::remove_file(&pid_file).unwrap();
    assert!(
        !std::path::Path::new(&format!("/proc/{}", pid.trim())).exists(),
        "the server {pid} still runs"
    );
}

#[test]
#[ignore = "needs root or a user namespace; scripts/test runs it with --ignored"]
fn the_time_bound_kills_everything_and_exits_124() {
    let (o, took) = linkemu(&[
        "run",
        "--timeout",
        "1",
        "--",
        "sleep",
        "30",
        ":::",
        "sleep",
        "30",
    ]);
    assert_eq!(o.status.code(), Some(124), "{}", stderr(&o));
    assert!(took < Duration::from_secs(6), "{took:?}");
}

#[test]
#[ignore = "needs root (to drop to an unprivileged user); scripts/test runs it with --ignored"]
fn an_unprivileged_user_is_told_what_privilege_is_needed() {
    let o = Command::new("setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            env!("CARGO_BIN_EXE_linkemu"),
            "check",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("needs CAP_NET_ADMIN") && e.contains("unshare -Urn"),
        "{e}"
    );
}

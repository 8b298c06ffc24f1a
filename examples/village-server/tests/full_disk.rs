//! A full disk under the player store, on a real small filesystem (a 4 MiB tmpfs mounted
//! for the test; it needs root, as CI and the dev container have, and says it skipped
//! otherwise). The store's reserve lets the first saves on the full disk land; past it the
//! saves wait in memory, retried, the players are told and the server says it is failing;
//! once the disk frees, every save lands and a restart finds every player where it left.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use village::dispatch::ServerMessage;
use village::notices::NoticeBody;
use village::player::PlayerMove;
use village_server::client::{Client, Identity};
use village_server::counters::Counter;
use village_server::{start, Config, Server};

const KEY: &[u8] = b"full disk tests' token key";

/// A tmpfs of `size` mounted at a fresh directory; unmounted when dropped.
struct Mount(PathBuf);

impl Mount {
    fn new(name: &str, size: &str) -> Option<Mount> {
        if !root() {
            return None;
        }
        let dir = std::env::temp_dir().join(format!("village-disk-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .status()
            .expect("mount runs")
            .success();
        assert!(ok, "root, yet mounting a tmpfs failed");
        Some(Mount(dir))
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        // Lazily: the last server's store may still hold its file open.
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Whether the effective user is root (`/proc/self/status`'s `Uid:` line).
fn root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let uid = s.lines().find(|l| l.starts_with("Uid:"))?;
            Some(uid.split_whitespace().nth(2)? == "0")
        })
        .unwrap_or(false)
}

/// Writes `path` until the filesystem is full; returns the bytes written.
fn fill(path: &Path) -> usize {
    let mut f = std::fs::File::create(path).unwrap();
    let block = vec![1u8; 4096];
    let mut n = 0;
    while f.write_all(&block).is_ok() && f.flush().is_ok() {
        n += block.len();
    }
    let _ = f.sync_all();
    n
}

async fn join(s: &Server, account: u64) -> Client {
    let who = Identity::player(KEY, account, &format!("P{account}"));
    tokio::time::timeout(
        Duration::from_secs(10),
        Client::join(&s.url("village"), &who),
    )
    .await
    .expect("joined within 10 s")
    .expect("joins")
}

/// Walks from the spawn to `to` in 5 moves, then waits until the room handled them.
async fn walk(c: &mut Client, to: [f32; 3]) {
    for i in 1..=5u32 {
        let f = i as f32 / 5.0;
        let m = PlayerMove {
            p: [to[0] * f, 0.0, to[2] * f],
            r: 0.0,
            t: u64::from(i) * 100,
            seq: Some(i),
            flags: None,
        };
        c.send(m).await.unwrap();
    }
    c.sync().await.unwrap();
}

/// Waits up to `within` for a `notice:show` text containing `text`.
async fn told(c: &mut Client, text: &str, within: Duration) -> bool {
    let until = Instant::now() + within;
    while let Some(f) = c
        .next_within(until.saturating_duration_since(Instant::now()))
        .await
    {
        if let Ok(ServerMessage::NoticeShow(n)) = f.decode() {
            if matches!(&n.body, NoticeBody::Text(t) if t.contains(text)) {
                return true;
            }
        }
    }
    false
}

fn at(i: u64) -> [f32; 3] {
    [i as f32 * 1.5 - 7.0, 0.0, 6.0 - i as f32]
}

#[tokio::test]
async fn a_full_disk_loses_no_position_and_players_are_told() {
    let Some(disk) = Mount::new("full", "4m") else {
        eprintln!("skipped: mounting a small tmpfs needs root");
        return;
    };
    let db = disk.0.join("players.db");
    let config = || Config {
        addr: ([127, 0, 0, 1], 0).into(),
        token_key: Some(KEY.to_vec()),
        spawns: vec![[0.0, 0.0, 0.0]],
        store: Some(db.clone()),
        ..Config::default()
    };
    let s = start(config()).await.unwrap();
    let mut watcher = join(&s, 100).await;
    let mut players = Vec::new();
    for i in 0..10 {
        let mut c = join(&s, i).await;
        walk(&mut c, at(i)).await;
        players.push(c);
    }
    assert!(s.flush_store(Duration::from_secs(10)).await);
    // The disk fills. The first five leave: their saves fail once, the reserve is freed,
    // and they land.
    assert!(fill(&disk.0.join("fill1")) > 0);
    let rest = players.split_off(5);
    for c in players {
        c.leave().await;
    }
    assert!(
        s.flush_store(Duration::from_secs(10)).await,
        "landed on the reserve"
    );
    assert!(
        s.counter(Counter::StoreRetried) >= 1,
        "a write failed first"
    );
    // The disk fills again (the reserve's space too): the next five's saves wait.
    fill(&disk.0.join("fill2"));
    for c in rest {
        c.leave().await;
    }
    assert!(
        !s.flush_store(Duration::from_secs(1)).await,
        "the disk is full"
    );
    assert!(s.store_failing());
    assert!(
        told(&mut watcher, "Saving is failing", Duration::from_secs(3)).await,
        "the players are told"
    );
    // The disk frees: everything held lands, and the players are told.
    std::fs::remove_file(disk.0.join("fill1")).unwrap();
    std::fs::remove_file(disk.0.join("fill2")).unwrap();
    assert!(s.flush_store(Duration::from_secs(10)).await);
    assert!(told(&mut watcher, "Saving works again", Duration::from_secs(3)).await);
    assert!(!s.store_failing());
    watcher.leave().await;
    assert_eq!(s.drain(Duration::from_secs(5)).await, 0);
    assert_eq!(s.counter(Counter::StoreLost), 0);
    drop(s);
    // A restart finds every player where it left: 0 positions lost.
    let again = start(config()).await.unwrap();
    let mut lost = 0;
    for i in 0..10 {
        let c = join(&again, i).await;
        lost += usize::from(c.spawn != at(i));
    }
    assert_eq!(lost, 0);
}

//! Not an attack: new players joining a room while one runs. The hostile bench runs it
//! beside each attack and reports whether new players still get in, and how long their
//! joins take: every 1.5 s two new players, one from the players' address (the bots'),
//! one from a fresh address of its own (`--fresh`, then the next, and so on).

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use village_server::client::{Client, Identity};

use crate::args::Args;

/// A new player every this long.
const EVERY: Duration = Duration::from_millis(1500);
/// One join may take this long, retries included (a client that reconnects at once).
const PATIENCE: Duration = Duration::from_secs(10);
/// One attempt (connect, hello, welcome, `player:join`, its own `player:joined`).
const ATTEMPT: Duration = Duration::from_secs(5);

#[derive(Default)]
struct Probes {
    tries: u64,
    attempts: u64,
    /// Milliseconds from the first attempt to the player's own `player:joined`.
    joined_ms: Vec<f64>,
    /// Joined players whose `diag:ping` came back (the room answers them).
    answered: u64,
    /// The first failure, for the report.
    error: Option<String>,
}

/// One new signed-in player, from `from` (`None`: the process's address): joins,
/// retrying at once when refused, for up to `PATIENCE`; once in, checks the room answers
/// (`diag:ping`), then leaves.
async fn one(
    url: String,
    key: Vec<u8>,
    account: u64,
    from: Option<IpAddr>,
    probes: Arc<Mutex<Probes>>,
) {
    let who = Identity::player(&key, account, &format!("New {}", account % 10_000));
    let t0 = Instant::now();
    probes.lock().expect("probes").tries += 1;
    while t0.elapsed() < PATIENCE {
        probes.lock().expect("probes").attempts += 1;
        let join = async {
            match from {
                Some(ip) => Client::join_from(&url, &who, ip).await,
                None => Client::join(&url, &who).await,
            }
        };
        let joined = tokio::time::timeout(ATTEMPT, join).await;
        let mut c = match joined {
            Ok(Ok(c)) => c,
            Ok(Err(e)) => {
                probes
                    .lock()
                    .expect("probes")
                    .error
                    .get_or_insert(e.to_string());
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            Err(_) => {
                let e = "no player:joined within 5 s".to_string();
                probes.lock().expect("probes").error.get_or_insert(e);
                continue;
            }
        };
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        let answered = tokio::time::timeout(Duration::from_secs(3), c.sync())
            .await
            .is_ok_and(|r| r.is_ok());
        {
            let mut p = probes.lock().expect("probes");
            p.joined_ms.push(ms);
            p.answered += u64::from(answered);
        }
        c.leave().await;
        return;
    }
}

/// `--attack probe`: every 1.5 s from 1 s on, two new signed-in players join `--room`
/// (with `--fresh-rooms`, each a new room `ROOM-pN` of its own), each with an account of
/// its own: one from the process's address, one from the next fresh address from
/// `--fresh` on. Prints `PROBE tries=.. ok=.. attempts=.. answered=.. join_p50_ms=..
/// join_max_ms=.. error=..` over all of them.
pub async fn run(a: Args) -> Result<(), String> {
    let base_url = a.url.trim_end_matches('/').to_string();
    let until = Instant::now() + Duration::from_secs_f64(a.secs);
    let probes = Arc::new(Mutex::new(Probes::default()));
    let base = 200_000 + u64::from(std::process::id() % 1000) * 1000;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut tasks = Vec::new();
    let mut n = 0;
    while Instant::now() < until && n < a.count {
        for fresh in [
            None,
            Some(IpAddr::V4((u32::from(a.fresh) + n as u32 / 2).into())),
        ] {
            n += 1;
            let url = if a.fresh_rooms {
                format!("{base_url}/{}-p{n}", a.room)
            } else {
                format!("{base_url}/{}", a.room)
            };
            let task = one(
                url,
                a.key.clone().into_bytes(),
                base + n,
                fresh,
                probes.clone(),
            );
            tasks.push(tokio::spawn(task));
        }
        tokio::time::sleep(EVERY).await;
    }
    for t in tasks {
        let _ = t.await;
    }
    let p = probes.lock().expect("probes");
    let mut ms = p.joined_ms.clone();
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| {
        ms.get(((ms.len() as f64 - 1.0) * q).round() as usize)
            .copied()
    };
    let show = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
    println!(
        "PROBE tries={} ok={} attempts={} answered={} join_p50_ms={} join_max_ms={} error={}",
        p.tries,
        ms.len(),
        p.attempts,
        p.answered,
        show(at(0.5)),
        show(ms.last().copied()),
        p.error
            .as_deref()
            .unwrap_or("-")
            .replace(char::is_whitespace, "+")
    );
    Ok(())
}

//! Sessions that survive: the races of joins, reloads and drops, over real sockets on
//! loopback, each against a server of its own (bounded in count and time). One live
//! session per account; a second join ends the first, saved, and starts where it was; a
//! dropped connection resumes within the grace window with a single-use resume token;
//! every ending saves; a restart finds players where they left.

use std::path::PathBuf;
use std::time::Duration;

use tuplet::delta::Mirror;
use village::dispatch::ServerMessage;
use village::player::{LeaveReason, PlayerMove};
use village::world::WorldSnapshot;
use village_server::client::{Client, Identity, Incoming};
use village_server::counters::Counter;
use village_server::token::Claims;
use village_server::{start, Config, Server};

const KEY: &[u8] = b"session tests' token key";

fn config(tweak: impl FnOnce(&mut Config)) -> Config {
    let mut config = Config {
        addr: ([127, 0, 0, 1], 0).into(),
        token_key: Some(KEY.to_vec()),
        spawns: vec![[0.0, 0.0, 0.0]],
        ..Config::default()
    };
    tweak(&mut config);
    config
}

async fn server(tweak: impl FnOnce(&mut Config)) -> Server {
    start(config(tweak)).await.expect("server starts")
}

fn player(account: u64, name: &str) -> Identity {
    Identity::player(KEY, account, name)
}

async fn join_at(url: &str, who: &Identity) -> Client {
    tokio::time::timeout(Duration::from_secs(10), Client::join(url, who))
        .await
        .expect("joined within 10 s")
        .expect("joins")
}

async fn join(s: &Server, who: &Identity) -> Client {
    join_at(&s.url("village"), who).await
}

/// Walks from the spawn (0, 0, 0) to `to` in 5 moves (within the speed bank), seq 1..=5,
/// and waits until the room handled them.
async fn walk(c: &mut Client, to: [f32; 3]) {
    for i in 1..=5u32 {
        let f = i as f32 / 5.0;
        c.send(PlayerMove {
            p: [to[0] * f, to[1] * f, to[2] * f],
            r: 0.25,
            t: u64::from(i) * 100,
            seq: Some(i),
            flags: None,
        })
        .await
        .unwrap();
    }
    c.sync().await.unwrap();
}

/// What the server believes of `c`: a move far out of reach is answered with a correction
/// holding its position and the last accepted sequence number.
async fn believed(c: &mut Client) -> ([f32; 3], u32) {
    c.send(PlayerMove {
        p: [1500.0, 0.0, 1500.0],
        r: 0.0,
        t: 99_999,
        seq: Some(99),
        flags: None,
    })
    .await
    .unwrap();
    for f in c.sync().await.unwrap() {
        if let Ok(ServerMessage::PlayerCorrection(k)) = f.decode() {
            return (k.pos, k.accepted_seq);
        }
    }
    panic!("no correction");
}

fn left_of(frames: &[Incoming], session: &str) -> Vec<LeaveReason> {
    frames
        .iter()
        .filter_map(|f| match f.decode() {
            Ok(ServerMessage::PlayerLeft(l)) if l.s == session => Some(l.reason),
            _ => None,
        })
        .collect()
}

/// Reads up to `wait` and says whether a `session:kicked` came before the close.
async fn kicked(c: &mut Client, wait: Duration) -> bool {
    let until = tokio::time::Instant::now() + wait;
    while let Some(f) = c.next_within(until - tokio::time::Instant::now()).await {
        if f.name() == "session:kicked" {
            return true;
        }
    }
    false
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("village-sessions-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("players.db")
}

/// The fast refresh: the new page's join reaches the server before the old socket's
/// close. The old session ends saved, the new one starts exactly where the player was,
/// and the late close of the old socket changes nothing.
#[tokio::test]
async fn a_join_before_the_old_close_starts_where_the_player_was() {
    let s = server(|_| {}).await;
    let ana = player(7, "Ana");
    let mut viewer = join(&s, &player(8, "Bo")).await;
    let mut old = join(&s, &ana).await;
    walk(&mut old, [3.0, 0.0, 4.0]).await;
    let old_session = old.session.clone();
    let mut new = join(&s, &ana).await;
    assert_eq!(
        new.spawn,
        [3.0, 0.0, 4.0],
        "starts where the old session was"
    );
    assert!(
        kicked(&mut old, Duration::from_secs(2)).await,
        "old tab told"
    );
    drop(old);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(believed(&mut new).await.0, [3.0, 0.0, 4.0]);
    let seen = viewer.sync().await.unwrap();
    assert_eq!(left_of(&seen, &old_session), [LeaveReason::Replaced]);
    assert!(
        left_of(&seen, &new.session).is_empty(),
        "the old close ended nothing"
    );
    assert_eq!(s.counter(Counter::Replaced), 1);
    assert_eq!(s.counter(Counter::SessionsSaved), 1);
    assert_eq!(s.players(), 2);
}

/// Two tabs in two rooms: one live session per account, server-wide.
#[tokio::test]
async fn a_second_tab_in_another_room_ends_the_first_saved() {
    let s = server(|c| c.room_prefixes = vec!["r".into()]).await;
    let ana = player(7, "Ana");
    let mut first = join(&s, &ana).await;
    walk(&mut first, [0.0, 0.0, 6.0]).await;
    let second = join_at(&s.url("r1"), &ana).await;
    assert_eq!(second.spawn, [0.0, 0.0, 6.0]);
    assert!(kicked(&mut first, Duration::from_secs(2)).await);
    assert_eq!(s.players(), 1);
    assert_eq!(s.counter(Counter::Replaced), 1);
}

/// A reload inside the grace window resumes the same session: same id, same place, the
/// sequence numbers continuing, nobody told it left, its delta mirror healed by a
/// keyframe; the token it used is spent.
#[tokio::test]
async fn a_reload_inside_the_grace_window_resumes_the_session() {
    let s = server(|c| c.keyframe_every = 4).await;
    let mut viewer = join(&s, &player(8, "Bo")).await;
    let mut c = join(&s, &player(7, "Ana")).await;
    walk(&mut c, [3.0, 0.0, 4.0]).await;
    let (session, token) = (c.session.clone(), c.resume_token.clone().unwrap());
    c.drop_connection();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut back = Client::resume(&s.url("village"), &session, &token)
        .await
        .expect("resumed");
    assert_eq!(back.session, session);
    assert_ne!(
        back.resume_token.as_deref(),
        Some(token.as_str()),
        "a new token"
    );
    // The first snapshot after the resume is a keyframe: an empty mirror takes it.
    let mut mirror: Mirror<WorldSnapshot> = Mirror::new();
    let mut applied = 0;
    while applied < 5 {
        let f = back
            .next_within(Duration::from_secs(2))
            .await
            .expect("frames");
        if f.name() == "world:snapshot" {
            mirror
                .apply(f.payload())
                .expect("keyframe first, deltas after");
            applied += 1;
        }
    }
    assert_eq!(
        believed(&mut back).await,
        ([3.0, 0.0, 4.0], 5),
        "place and seq kept"
    );
    let seen = viewer.sync().await.unwrap();
    assert!(left_of(&seen, &session).is_empty(), "never left");
    assert_eq!(s.counter(Counter::Resumed), 1);
    assert_eq!(s.players(), 2);
}

/// A drop in the middle of a keyframe's write (a keyframe every tick, the socket cut as
/// frames arrive): the resumed mirror is healed all the same.
#[tokio::test]
async fn a_drop_during_a_keyframe_is_healed_on_resume() {
    let s = server(|c| c.keyframe_every = 1).await;
    let mut c = join(&s, &player(7, "Ana")).await;
    let f = c.next_within(Duration::from_secs(2)).await.unwrap();
    let _ = f;
    let (session, token) = (c.session.clone(), c.resume_token.clone().unwrap());
    c.drop_connection();
    let mut back = Client::resume(&s.url("village"), &session, &token)
        .await
        .expect("resumed");
    let mut applied = 0;
    while applied < 3 {
        let f = back
            .next_within(Duration::from_secs(2))
            .await
            .expect("frames");
        if f.name() == "world:snapshot" {
            back.apply_snapshot(&f).expect("healed");
            applied += 1;
        }
    }
}

/// Past the grace window the session is gone: the resume is refused (`TokenExpired`,
/// counted `resume_gone`), the room was told it timed out, and a fresh join with the join
/// token starts where the player was.
#[tokio::test]
async fn a_reload_after_the_grace_window_joins_afresh_where_it_left() {
    let s = server(|c| c.grace = Duration::from_millis(300)).await;
    let mut viewer = join(&s, &player(8, "Bo")).await;
    let ana = player(7, "Ana");
    let mut c = join(&s, &ana).await;
    walk(&mut c, [4.0, 0.0, 3.0]).await;
    let (session, token) = (c.session.clone(), c.resume_token.clone().unwrap());
    c.drop_connection();
    tokio::time::sleep(Duration::from_millis(700)).await;
    let err = Client::resume(&s.url("village"), &session, &token)
        .await
        .err()
        .expect("refused");
    assert!(err.to_string().contains("TokenExpired"), "{err}");
    assert_eq!(s.counter(Counter::ResumeGone), 1);
    assert_eq!(s.counter(Counter::GraceExpired), 1);
    let seen = viewer.sync().await.unwrap();
    assert_eq!(left_of(&seen, &session), [LeaveReason::TimedOut]);
    let again = join(&s, &ana).await;
    assert_eq!(again.spawn, [4.0, 0.0, 3.0]);
}

/// A guest has no account to save under: its session lives on through its resume token.
/// A second connection resuming it while the first is still open takes it over (the
/// first is told and closed), and the guest keeps its place.
#[tokio::test]
async fn a_guest_evicted_by_its_own_resume_keeps_its_place() {
    let s = server(|_| {}).await;
    let mut viewer = join(&s, &player(8, "Bo")).await;
    let mut old = join(&s, &Identity::guest("Gus")).await;
    walk(&mut old, [0.0, 0.0, 5.0]).await;
    let (session, token) = (old.session.clone(), old.resume_token.clone().unwrap());
    let mut new = Client::resume(&s.url("village"), &session, &token)
        .await
        .expect("resumed");
    assert!(kicked(&mut old, Duration::from_secs(2)).await);
    drop(old);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(believed(&mut new).await, ([0.0, 0.0, 5.0], 5));
    assert!(left_of(&viewer.sync().await.unwrap(), &session).is_empty());
    assert_eq!(s.players(), 2);
}

/// Resume tokens cannot be forged, replayed or used for another session: each refused
/// with `session:error` and close 1008, and counted.
#[tokio::test]
async fn forged_replayed_and_cross_account_resume_tokens_are_refused_and_counted() {
    let s = server(|_| {}).await;
    let url = s.url("village");
    let mut ana = join(&s, &player(7, "Ana")).await;
    let bo = join(&s, &player(8, "Bo")).await;
    let ana_token = ana.resume_token.clone().unwrap();
    // Forged: the MAC changed; and a join token where a resume token goes.
    let mut forged = ana_token.clone().into_bytes();
    let last = forged.len() - 2;
    forged[last] = if forged[last] == b'A' { b'B' } else { b'A' };
    let forged = String::from_utf8(forged).unwrap();
    let join_token = village_server::token::mint(KEY, &Claims::player(7, "Ana", 60));
    for bad in [&forged, &join_token] {
        let err = Client::resume(&url, &ana.session, bad).await.err().unwrap();
        assert!(err.to_string().contains("TokenInvalid"), "{err}");
    }
    assert_eq!(s.counter(Counter::ResumeForged), 2);
    // Cross-account: Bo's token for Ana's session.
    let err = Client::resume(&url, &ana.session, bo.resume_token.as_deref().unwrap())
        .await
        .err()
        .unwrap();
    assert!(err.to_string().contains("TokenInvalid"), "{err}");
    assert_eq!(s.counter(Counter::ResumeMismatch), 1);
    // Replayed: the first use takes over; the second is refused.
    let back = Client::resume(&url, &ana.session, &ana_token)
        .await
        .expect("first use");
    let err = Client::resume(&url, &ana.session, &ana_token)
        .await
        .err()
        .unwrap();
    assert!(err.to_string().contains("TokenInvalid"), "{err}");
    assert_eq!(s.counter(Counter::ResumeReplayed), 1);
    assert!(kicked(&mut ana, Duration::from_secs(2)).await);
    assert_eq!(s.counter(Counter::Resumed), 1);
    drop(back);
}

/// A drain with sessions in their grace window ends them at once, saved; a server
/// started again on the same store finds every player where they left (leave, drop and
/// still-connected alike).
#[tokio::test]
async fn a_drain_saves_sessions_in_grace_and_a_restart_finds_everyone() {
    let db = temp_db("drain");
    let s = server(|c| c.store = Some(db.clone())).await;
    let (ana, bo, cy) = (player(7, "Ana"), player(8, "Bo"), player(9, "Cy"));
    let mut a = join(&s, &ana).await;
    let mut b = join(&s, &bo).await;
    let mut c = join(&s, &cy).await;
    walk(&mut a, [3.0, 0.0, 4.0]).await;
    walk(&mut b, [-4.0, 0.0, 3.0]).await;
    walk(&mut c, [0.0, 0.0, -7.0]).await;
    a.drop_connection(); // in grace
    b.leave().await; // left on purpose
    tokio::time::sleep(Duration::from_millis(100)).await;
    let drain = tokio::spawn(async move {
        let open = s.drain(Duration::from_secs(5)).await;
        (s, open)
    });
    // The connected one closes on the restart notice.
    let notice = c.next_within(Duration::from_secs(2)).await;
    assert!(notice.is_some());
    c.close().await;
    let (s, open) = drain.await.unwrap();
    assert_eq!(open, 0);
    assert_eq!(s.players(), 0, "the session in grace ended at the drain");
    assert_eq!(s.counter(Counter::SessionsEnded), 3);
    assert_eq!(s.counter(Counter::SessionsSaved), 3);
    assert_eq!(s.counter(Counter::StoreLost), 0);
    drop(s);
    let again = server(|c| c.store = Some(db.clone())).await;
    for (who, at) in [
        (&ana, [3.0, 0.0, 4.0]),
        (&bo, [-4.0, 0.0, 3.0]),
        (&cy, [0.0, 0.0, -7.0]),
    ] {
        assert_eq!(join(&again, who).await.spawn, at, "{}", who.name);
    }
}

/// Rights end with the token: an admin whose token expires mid-session keeps playing but
/// no longer reads the room's numbers.
#[tokio::test]
async fn rights_end_with_the_tokens_expiry() {
    let s = server(|_| {}).await;
    let mut claims = Claims::player(7, "Ana", 2);
    claims.admin = true;
    let mut c = join(&s, &Identity::signed(KEY, &claims)).await;
    assert!(c.stats().await.is_ok(), "admin while the token lasts");
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert!(c.stats().await.is_err(), "no stats past the token's expiry");
}

/// A short soak: signed-in players reloading at random (resume, fresh join, or leave and
/// come back), checked each time against where they last were. Nothing lost, every ended
/// session saved.
#[tokio::test]
async fn reloading_players_lose_nothing() {
    let s = server(|c| c.store = Some(temp_db("soak"))).await;
    let url = s.url("village");
    let mut tasks = Vec::new();
    for bot in 0..8u64 {
        let url = url.clone();
        tasks.push(tokio::spawn(async move {
            let who = player(100 + bot, &format!("bot{bot}"));
            let mut c = join_at(&url, &who).await;
            let mut at = c.spawn;
            let mut lost = 0;
            for round in 0..6u64 {
                // Walk a little (within the speed bank) away from where it is.
                let to = [at[0] + 2.0, 0.0, at[2] + ((bot + round) % 3) as f32];
                at = walk_from(&mut c, at, to).await;
                c = match (bot + round) % 3 {
                    0 => {
                        let (s, t) = (c.session.clone(), c.resume_token.clone().unwrap());
                        c.drop_connection();
                        let back = Client::resume(&url, &s, &t).await.expect("resumes");
                        back
                    }
                    1 => {
                        // Join before close.
                        let fresh = join_at(&url, &who).await;
                        lost += usize::from(fresh.spawn != at);
                        drop(c);
                        fresh
                    }
                    _ => {
                        c.leave().await;
                        let fresh = join_at(&url, &who).await;
                        lost += usize::from(fresh.spawn != at);
                        fresh
                    }
                };
            }
            lost
        }));
    }
    let mut lost = 0;
    for t in tasks {
        lost += t.await.unwrap();
    }
    assert_eq!(lost, 0, "positions lost");
    assert!(s.flush_store(Duration::from_secs(5)).await);
    let ended = s.counter(Counter::SessionsEnded);
    assert!(ended >= 8, "{ended}");
    assert_eq!(s.counter(Counter::SessionsSaved), ended, "no skipped save");
    assert_eq!(s.counter(Counter::StoreLost), 0);
}

/// Walks to `to`; returns where the server has the player (a move it refused as too
/// fast is answered with a correction).
async fn walk_from(c: &mut Client, from: [f32; 3], to: [f32; 3]) -> [f32; 3] {
    for i in 1..=4u32 {
        let f = i as f32 / 4.0;
        c.send(PlayerMove {
            p: [
                from[0] + (to[0] - from[0]) * f,
                0.0,
                from[2] + (to[2] - from[2]) * f,
            ],
            r: 0.0,
            t: 0,
            seq: None,
            flags: None,
        })
        .await
        .unwrap();
    }
    let mut at = to;
    for f in c.sync().await.unwrap() {
        if let Ok(ServerMessage::PlayerCorrection(k)) = f.decode() {
            at = k.pos;
        }
    }
    at
}

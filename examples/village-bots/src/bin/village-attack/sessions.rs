//! Attacks on sessions: forged, replayed and cross-session resume tokens, and reload
//! storms.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use village_server::client::{Client, Identity};
use village_server::token::{self, ResumeClaims};

use crate::ctx::{Ctx, Tally};

/// Joins as signed-in `account` and drops the connection: a session in its grace window,
/// with its resume token.
async fn dropped_session(ctx: &Ctx, account: u64) -> Option<(String, String)> {
    let who = Identity::player(&ctx.key, account, &format!("Resume {account}"));
    let c = Client::join(&ctx.url, &who).await.ok()?;
    let session = (c.session.clone(), c.resume_token.clone()?);
    c.drop_connection();
    Some(session)
}

/// Refusals and acceptances of the `resume` attack, over its tasks.
#[derive(Default)]
pub struct ResumeTally {
    /// Bad tokens the server refused.
    refused: AtomicU64,
    /// Bad tokens the server accepted (must stay 0).
    accepted_bad: AtomicU64,
    /// Good tokens (each session's latest) accepted after the attack, out of `good_tried`.
    good_ok: AtomicU64,
    good_tried: AtomicU64,
}

static RESUMES: std::sync::OnceLock<ResumeTally> = std::sync::OnceLock::new();

/// `resume`: each task holds two sessions in their grace window (A and B), resumes A once
/// with its token (so that token is spent), then, as fast as each is refused, tries to
/// resume A with a forged token (signed with another key), with A's spent token (a
/// replay), and with B's token (another session's: cross-account). At the end it resumes
/// A and B with their latest tokens, which must work. Reports `refused`, `accepted_bad`
/// (must be 0) and `good_ok` of `good_tried`.
pub async fn resume(ctx: Arc<Ctx>, task: usize) {
    let tally = RESUMES.get_or_init(ResumeTally::default);
    let base = 500_000 + task as u64 * 1_000 + u64::from(std::process::id() % 1000) * 10;
    let (Some((sa, spent)), Some((sb, tb))) = (
        dropped_session(&ctx, base).await,
        dropped_session(&ctx, base + 1).await,
    ) else {
        Tally::add(&ctx.tally.closed, 1);
        return;
    };
    Tally::add(&ctx.tally.conns, 2);
    // The good resume that spends A's first token.
    let Ok(c) = Client::resume(&ctx.url, &sa, &spent).await else {
        Tally::add(&ctx.tally.closed, 1);
        return;
    };
    let mut ta = c.resume_token.clone().unwrap_or_default();
    c.drop_connection();
    let forged = token::mint_resume(
        b"not the server's key",
        &ResumeClaims {
            s: sa.clone(),
            room: ctx.target.clone(),
            n: 1,
            who: None,
        },
    );
    let mut k = 0usize;
    while ctx.going() {
        k += 1;
        let bad = [&forged, &spent, &tb][k % 3];
        Tally::add(&ctx.tally.conns, 1);
        Tally::add(&ctx.tally.sent, 1);
        match Client::resume(&ctx.url, &sa, bad).await {
            Ok(c) => {
                // Taken: the session's token is now the new welcome's.
                tally.accepted_bad.fetch_add(1, Ordering::Relaxed);
                ta = c.resume_token.clone().unwrap_or_default();
                c.drop_connection();
            }
            Err(_) => {
                tally.refused.fetch_add(1, Ordering::Relaxed);
                Tally::add(&ctx.tally.closed, 1);
            }
        }
    }
    for (s, t) in [(&sa, &ta), (&sb, &tb)] {
        tally.good_tried.fetch_add(1, Ordering::Relaxed);
        if let Ok(c) = Client::resume(&ctx.url, s, t).await {
            tally.good_ok.fetch_add(1, Ordering::Relaxed);
            c.leave().await;
        }
    }
    for (key, n) in [
        ("refused", &tally.refused),
        ("accepted_bad", &tally.accepted_bad),
        ("good_ok", &tally.good_ok),
        ("good_tried", &tally.good_tried),
    ] {
        ctx.report(key, n.load(Ordering::Relaxed));
    }
}

/// `reload`: `--conns` (20) signed-in players reloading as fast as the server lets them,
/// as a fast refresh does: the new tab joins (the server evicts the old session, saving
/// it) and only then the old tab's socket drops. Reports `reloads` and `failed` joins.
pub async fn reload(ctx: Arc<Ctx>) {
    let n = ctx.conns.unwrap_or(20);
    let reloads = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let base = 400_000 + u64::from(std::process::id() % 1000) * 100;
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let (ctx, reloads, failed) = (ctx.clone(), reloads.clone(), failed.clone());
            tokio::spawn(async move {
                let who = Identity::player(&ctx.key, base + i as u64, &format!("Reload {i}"));
                let mut old: Option<Client> = None;
                while ctx.going() {
                    Tally::add(&ctx.tally.conns, 1);
                    Tally::add(&ctx.tally.sent, 1);
                    match Client::join(&ctx.url, &who).await {
                        Ok(new) => {
                            reloads.fetch_add(1, Ordering::Relaxed);
                            if let Some(c) = old.replace(new) {
                                c.drop_connection();
                            }
                        }
                        Err(_) => {
                            failed.fetch_add(1, Ordering::Relaxed);
                            Tally::add(&ctx.tally.closed, 1);
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                    }
                }
                if let Some(c) = old {
                    c.leave().await;
                }
            })
        })
        .collect();
    for t in tasks {
        let _ = t.await;
    }
    ctx.report("reloads", reloads.load(Ordering::Relaxed));
    ctx.report("failed", failed.load(Ordering::Relaxed));
}

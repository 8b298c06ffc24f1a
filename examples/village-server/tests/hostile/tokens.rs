//! Tokens: forged, expired and missing ones refused; what guests and non-admins may not ask for.

use std::time::Duration;

use village::birds::BirdSubscribe;
use village::diag::DiagBytesRequest;
use village::dispatch::ServerMessage;
use village::session::SessionError;
use village_server::client::Identity;
use village_server::counters::Counter;
use village_server::token::{self};

use crate::support::*;

#[tokio::test]
async fn forged_expired_and_missing_tokens() {
    let s = server(|_| {}).await;
    let forged = token::mint(b"not the server's key", &claims(1, "mallory"));
    let mut expired = claims(2, "late");
    expired.exp = token::now_s() - 1;
    let expired = token::mint(KEY, &expired);
    // The server's own token with its claims changed after signing (an admin claim added).
    let genuine = token::mint(KEY, &claims(3, "eve"));
    let (body, tag) = genuine.rsplit_once('.').unwrap();
    let mut raised = claims(3, "eve");
    raised.admin = true;
    let raised_body = token::mint(KEY, &raised);
    let raised_body = raised_body.rsplit_once('.').unwrap().0;
    assert_ne!(body, raised_body);
    let tampered = format!("{raised_body}.{tag}");
    let cases = [
        (Some(forged), "forged", SessionError::TokenInvalid),
        (Some(tampered), "tampered", SessionError::TokenInvalid),
        (Some(expired), "expired", SessionError::TokenExpired),
        (
            Some("bot-token-0123456789".into()),
            "any 16 characters",
            SessionError::TokenInvalid,
        ),
        (
            Some("v1.e30.not+base64url".into()),
            "a MAC that is not base64url",
            SessionError::TokenInvalid,
        ),
    ];
    for (tok, what, want) in cases {
        let (answer, code) = hello_with(&s, tok).await;
        let ServerMessage::SessionFailed(f) = answer else {
            panic!("{what}: {answer:?}");
        };
        assert!(f.fatal, "{what}");
        assert_eq!(f.error, want, "{what}");
        assert_eq!(code, Some(1008), "{what}");
    }
    // Each counted by what was wrong with it.
    let counted = [
        Counter::TokenForged,
        Counter::TokenExpired,
        Counter::TokenMalformed,
    ]
    .map(|c| s.counter(c));
    assert_eq!(counted, [2, 1, 2], "forged, expired, malformed");
    // No token: a guest, no account; a valid one: the token's account.
    let (guest, _) = hello_with(&s, None).await;
    assert!(matches!(guest, ServerMessage::SessionWelcome(w) if w.account.is_none()));
    let (member, _) = hello_with(&s, Some(token::mint(KEY, &claims(77, "ok")))).await;
    assert!(matches!(member, ServerMessage::SessionWelcome(w) if w.account == Some(77)));
}

#[tokio::test]
async fn guests_get_no_birds_and_non_admins_no_diagnostics() {
    let s = server(|c| c.spawns = vec![[0.0; 3]; 4]).await;
    let mut guest = join(&s, &Identity::guest("guest")).await;
    let mut player = join(&s, &Identity::signed(KEY, &claims(1, "player"))).await;
    let mut boss = join(&s, &admin(2, "boss")).await;
    for c in [&mut guest, &mut player] {
        c.send(BirdSubscribe { on: true }).await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(named(&guest.sync().await.unwrap(), "birds:stream").is_empty());
    assert!(!named(&player.sync().await.unwrap(), "birds:stream").is_empty());
    // Without the admin claim: the pong has no stats, diag:bytes no answer.
    for c in [&mut guest, &mut player] {
        assert!(c.stats().await.is_err(), "no stats without admin");
        c.send(DiagBytesRequest { reset: true }).await.unwrap();
        assert!(named(&c.sync().await.unwrap(), "diag:bytes").is_empty());
    }
    let d = dropped(&mut boss).await;
    assert_eq!(
        d["birds:subscribe guest_birds"], 1,
        "the guest's subscribe refused"
    );
    assert_eq!(d["diag:ping not_admin"], 2);
    assert_eq!(d["diag:bytes not_admin"], 2);
    boss.send(DiagBytesRequest { reset: false }).await.unwrap();
    assert_eq!(named(&boss.sync().await.unwrap(), "diag:bytes").len(), 1);
}

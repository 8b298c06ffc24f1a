//! Guests: capped in a room, refused when off, and unable to take or mimic a signed-in name.

use village::dispatch::ServerMessage;
use village_server::client::{Client, Identity, Incoming};

use crate::support::*;

/// Guests filling a room: at most `guests_per_room` get in, and a signed-in player still
/// finds its place; with `guests` off none does; `per_ip_per_room` caps one address.
#[tokio::test]
async fn guests_cannot_fill_a_room_and_can_be_refused() {
    let s = server(|c| {
        c.room_capacity = 10;
        c.guests_per_room = 4;
    })
    .await;
    let mut guests = Vec::new();
    let mut refused = 0;
    for i in 0..10 {
        match Client::join(&s.url("village"), &Identity::guest(&format!("g{i}"))).await {
            Ok(c) => guests.push(c),
            Err(e) => {
                assert!(e.to_string().contains("RoomFull"), "{e}");
                refused += 1;
            }
        }
    }
    assert_eq!((guests.len(), refused), (4, 6));
    let mut member = join(&s, &admin(1, "member")).await;
    assert_eq!(dropped(&mut member).await["session:hello guests_full"], 6);

    let s = server(|c| c.guests = false).await;
    let err = Client::join(&s.url("village"), &Identity::guest("g")).await;
    assert!(err
        .err()
        .is_some_and(|e| e.to_string().contains("RoomFull")));
    let mut member = join(&s, &admin(1, "member")).await;
    assert_eq!(
        dropped(&mut member).await["session:hello guests_refused"],
        1
    );

    let s = server(|c| c.per_ip_per_room = 2).await;
    let _a = join(&s, &admin(1, "a")).await;
    let mut b = join(&s, &admin(2, "b")).await;
    let err = Client::join(&s.url("village"), &admin(3, "c")).await;
    assert!(err
        .err()
        .is_some_and(|e| e.to_string().contains("RoomFull")));
    assert_eq!(dropped(&mut b).await["session:hello ip_full"], 1);
}

/// Identity: a guest cannot take a signed-in player's name, nor a look-alike of it; names
/// hiding characters (blank braille, stacked combining marks) or mixing scripts are refused; either way the guest still joins, under a generated name.
#[tokio::test]
async fn guests_cannot_take_or_mimic_a_signed_in_name() {
    let s = server(|_| {}).await;
    let mut fay = join(&s, &admin(1, "Fay")).await;
    let names = |frames: &[Incoming]| -> Vec<String> {
        frames
            .iter()
            .filter_map(|f| match f.decode() {
                Ok(ServerMessage::PlayerJoined(j)) => Some(j.name),
                _ => None,
            })
            .collect()
    };
    for (ask, code) in [
        ("Fay", "name_reserved"),
        ("fay", "name_reserved"),
        ("F\u{430}y", "name_confusable"),
        ("\u{2800}", "name_hidden"),
        ("Fa\u{301}\u{302}\u{303}y", "name_hidden"),
        ("Ｆａｙ", "name_reserved"),
        ("Fa\u{200B}y", "name_hidden"),
        ("Fay\u{202E}", "name_hidden"),
        ("Ana\nAdmin", "name_hidden"),
    ] {
        let _g = join(&s, &Identity::guest(ask)).await;
        let seen = names(&fay.sync().await.unwrap());
        assert_eq!(seen.len(), 1, "{ask:?}");
        assert!(
            seen[0].starts_with("Villager"),
            "{ask:?} joined as {:?}",
            seen[0]
        );
        assert!(dropped(&mut fay).await[&format!("player:join {code}")] >= 1);
    }
    // A plain name is kept, normalized.
    let _g = join(&s, &Identity::guest("  Gus   Lee ")).await;
    assert_eq!(names(&fay.sync().await.unwrap()), ["Gus Lee"]);
    // A second signed-in Fay (another account) gets a suffix, never the guest's way.
    let _f2 = join(&s, &admin(2, "Fay")).await;
    assert_eq!(names(&fay.sync().await.unwrap()), ["Fay 2"]);
}

//! Messages: chat reaching its channel's members only, guests' lines marked, unique names,
//! and bad input of many kinds never breaking the diagnostics.

use tuplet::Dispatch;
use village::chat::{Channel, ChatSay};
use village::common::WorldPos;
use village::dispatch::ServerMessage;
use village::fishing::{FishingCast, FishingReel};
use village_server::client::{Identity, Incoming};

use crate::support::*;

#[tokio::test]
async fn chat_channels_reach_their_members_only() {
    let s = server(|c| c.spawns = vec![[0.0; 3]; 6]).await;
    let member = |account, name: &str, party, staff| {
        let mut c = claims(account, name);
        c.party = party;
        c.staff = staff;
        Identity::signed(KEY, &c)
    };
    let mut a = join(&s, &member(1, "a", Some(1), false)).await;
    let mut b = join(&s, &member(2, "b", Some(1), false)).await;
    let mut c = join(&s, &member(3, "c", Some(2), true)).await;
    let mut g = join(&s, &Identity::guest("g")).await;
    let mut boss = join(&s, &admin(5, "boss")).await;
    let say = |text: &str, channel| ChatSay {
        text: text.into(),
        channel,
        reply_to: None,
    };
    a.send(say("party one", Channel::Party)).await.unwrap();
    c.send(say("staff only", Channel::Staff)).await.unwrap();
    // Another party's line: its own members only (here c alone), never party 1.
    c.send(say("party two", Channel::Party)).await.unwrap();
    g.send(say("guest party", Channel::Party)).await.unwrap();
    g.send(say("guest staff", Channel::Staff)).await.unwrap();
    g.send(say("guest trade", Channel::Trade)).await.unwrap();
    b.send(say("fake staff", Channel::Staff)).await.unwrap();
    g.send(say("guest room", Channel::Room)).await.unwrap();
    // Each sender's sync: its lines are handled. Then each listener's: all it heard.
    let mut frames: Vec<Vec<Incoming>> = Vec::new();
    for x in [&mut a, &mut b, &mut c, &mut g] {
        frames.push(x.sync().await.unwrap());
    }
    for (x, f) in [&mut a, &mut b, &mut c, &mut g]
        .into_iter()
        .zip(&mut frames)
    {
        f.extend(x.sync().await.unwrap());
    }
    let heard: Vec<Vec<String>> = frames
        .iter()
        .map(|f| {
            let mut lines: Vec<String> = named(f, "chat:message")
                .iter()
                .map(|f| match f.decode().unwrap() {
                    ServerMessage::ChatLine(l) => l.text,
                    other => panic!("{other:?}"),
                })
                .collect();
            lines.sort();
            lines
        })
        .collect();
    assert_eq!(heard[0], ["guest room", "party one"], "a, party 1");
    assert_eq!(heard[1], ["guest room", "party one"], "b, party 1");
    assert_eq!(
        heard[2],
        ["guest room", "party two", "staff only"],
        "c, party 2, staff"
    );
    assert_eq!(heard[3], ["guest room"], "the guest");
    let d = dropped(&mut boss).await;
    assert_eq!(d["chat:message not_in_party"], 1, "{d:?}");
    assert_eq!(d["chat:message not_staff"], 2, "{d:?}");
    assert_eq!(d["chat:message guest_channel"], 1, "{d:?}");
}

/// A guest's chat line carries the guest mark to every listener, on every channel a guest
/// may use, and a signed-in player's never does: a guest cannot pass for a signed-in
/// player in chat, even under a name that looks like one.
#[tokio::test]
async fn a_guests_chat_lines_are_marked() {
    let s = server(|c| c.spawns = vec![[0.0; 3]; 4]).await;
    let mut fay = join(&s, &Identity::signed(KEY, &claims(1, "Fay"))).await;
    let mut g = join(&s, &Identity::guest("Fay Official")).await;
    // An old client (the named shape) hears the mark too.
    let mut old = join(
        &s,
        &Identity {
            old_shape: true,
            ..Identity::guest("listener")
        },
    )
    .await;
    let say = |text: &str, channel| ChatSay {
        text: text.into(),
        channel,
        reply_to: None,
    };
    g.send(say("guest room", Channel::Room)).await.unwrap();
    g.send(say("guest local", Channel::Local)).await.unwrap();
    fay.send(say("fay room", Channel::Room)).await.unwrap();
    fay.send(say("fay local", Channel::Local)).await.unwrap();
    // Each sender's sync: its lines are handled. Then each listener's: all it heard.
    let mut heard = vec![
        g.sync().await.unwrap(),
        fay.sync().await.unwrap(),
        Vec::new(),
    ];
    for (x, frames) in [&mut g, &mut fay, &mut old].into_iter().zip(&mut heard) {
        frames.extend(x.sync().await.unwrap());
    }
    for (who, frames) in ["guest", "fay", "old"].into_iter().zip(&heard) {
        let mut lines: Vec<(String, Option<bool>)> = named(frames, "chat:message")
            .iter()
            .map(|f| match f.decode().unwrap() {
                ServerMessage::ChatLine(l) => (l.text, l.guest),
                other => panic!("{other:?}"),
            })
            .collect();
        lines.sort();
        assert_eq!(
            lines,
            [
                ("fay local".to_string(), None),
                ("fay room".to_string(), None),
                ("guest local".to_string(), Some(true)),
                ("guest room".to_string(), Some(true)),
            ],
            "{who} hears"
        );
    }
}

#[tokio::test]
async fn names_are_unique_and_a_reel_needs_a_cast() {
    let s = server(|c| c.spawns = vec![[0.0; 3]; 4]).await;
    let mut boss = join(&s, &admin(3, "boss")).await;
    let mut ana = join(&s, &Identity::signed(KEY, &claims(1, "Ana"))).await;
    let mut other = join(&s, &Identity::signed(KEY, &claims(2, "Ana"))).await;
    let _fake = join(&s, &Identity::guest("ana")).await;
    let names: Vec<String> = named(&boss.sync().await.unwrap(), "player:joined")
        .iter()
        .map(|f| match f.decode().unwrap() {
            ServerMessage::PlayerJoined(j) => j.name,
            other => panic!("{other:?}"),
        })
        .collect();
    // Signed-in names are reserved: the guest asking for "ana" gets a generated name.
    assert_eq!(names.len(), 3);
    assert_eq!(names[..2], ["Ana", "Ana 2"]);
    assert!(names[2].starts_with("Villager"), "{names:?}");
    // A reel with no line in the water lands nothing.
    let reel = FishingReel {
        tension: 0.5,
        line: 0.0,
    };
    other.send(reel.clone()).await.unwrap();
    assert!(named(&other.sync().await.unwrap(), "fishing:catch").is_empty());
    let cast = FishingCast {
        bobber: WorldPos {
            x: 1.0,
            y: 0.0,
            z: 1.0,
        },
        power: 0.5,
        bait: None,
    };
    ana.send(cast).await.unwrap();
    ana.send(reel.clone()).await.unwrap();
    ana.send(reel).await.unwrap();
    assert_eq!(named(&ana.sync().await.unwrap(), "fishing:catch").len(), 1);
    let d = dropped(&mut boss).await;
    assert_eq!(d["fishing:reel no_cast"], 2, "{d:?}");
}

#[tokio::test]
async fn many_kinds_of_bad_input_never_break_the_diagnostics() {
    let s = server(|c| {
        c.rate_per_s = 10_000.0;
        c.rate_burst = 10_000.0;
    })
    .await;
    let mut attacker = join(&s, &Identity::guest("x")).await;
    let mut boss = join(&s, &admin(1, "boss")).await;
    // A bad payload under 200 different message ids, plus a few bad frames.
    let ids: Vec<u32> = village::dispatch::ClientMessage::MESSAGES
        .iter()
        .map(|m| m.1)
        .take(200)
        .collect();
    assert!(ids.len() >= 100);
    for &id in &ids {
        let mut frame = Vec::new();
        tuplet::wire::write::uint(&mut frame, u64::from(id));
        frame.push(0xc1);
        attacker.feed_raw(frame).await.unwrap();
    }
    attacker.feed_raw(vec![0xc1]).await.unwrap();
    attacker.flush().await.unwrap();
    attacker.send_text("{}").await.unwrap();
    attacker.sync().await.unwrap();
    let d = dropped(&mut boss).await;
    assert!(d.len() <= 64, "{} keys", d.len());
    assert!(
        d["(other)"] > 0,
        "the pairs past the cap are counted together"
    );
    assert_eq!(d["(frame) text_frame"], 1);
    let counted: u32 = d
        .iter()
        .filter(|(k, _)| !k.starts_with("(frame)") && !k.starts_with("(server)"))
        .map(|(_, v)| v)
        .sum();
    assert_eq!(counted as usize, ids.len() + 1, "{d:?}");
}

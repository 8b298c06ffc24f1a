//! What the lock remembers and how CI leans on it: acceptances recorded in the history stay
//! valid only while their change stands (a reverted one is stale), an acceptance naming a
//! change harmless under this deploy order is still used, a switch of `deploy` is a finding
//! until acknowledged, and a lock git merged is refused with the procedure.

use tuplet_schema::compat::{self, Deploy, DeployAccept, HistoryEntry, Judge, Lock};
use tuplet_schema::loader::SourceTree;

const UP: &str = "#[derive(tuplet::Message)]\n#[tuplet(name = \"m:up\", id = 1, dir = \"c2s\")]\npub struct Up {\n    #[tuplet(RANGE)]\n    pub hp: u8,\n}\n";
const ACCEPT: &str = ", accept(rule = \"range-narrowed\", was = \"0..=100\", now = \"0..=50\", reason = \"no client sent more than 40\")";

fn lock(src: &str) -> Lock {
    let mut tree = SourceTree::new();
    tree.insert("src/lib.rs", src);
    Lock::from_schema(&tree.load().unwrap_or_else(|e| panic!("{e}\n{src}")))
}

/// `hp`'s range and whether the acceptance is written.
fn up(range: &str, accept: bool) -> Lock {
    let attr = format!("range({range}){}", if accept { ACCEPT } else { "" });
    lock(&UP.replace("RANGE", &attr))
}

/// Written and read back, as the next command reads it.
fn written(l: &Lock) -> Lock {
    Lock::from_json(&l.to_json()).unwrap()
}

fn rules(r: &compat::Report) -> Vec<String> {
    r.findings
        .iter()
        .filter(|f| f.fails())
        .map(|f| f.rule.clone())
        .collect()
}

#[test]
fn an_acceptance_reverted_after_locking_is_reported_as_stale() {
    let d = Judge::same(Deploy::AnyOrder);
    // 1. The narrowing, accepted and locked.
    let base = written(&up("0, 100", false));
    let (l1, _) = compat::relock_with(&base, &up("0, 50", true), &d).unwrap();
    let l1 = written(&l1);
    assert!(compat::check_with(&l1, &up("0, 50", true), &d).compatible);
    // 2. Reverted (a widening, accepted on its own), the old acceptance left in the source:
    //    it is stale, so it fails now, before the lock is written...
    let widen = ", accept(rule = \"range-widened\", was = \"0..=50\", now = \"0..=100\", reason = \"back\")";
    let reverted = lock(&UP.replace("RANGE", &format!("range(0, 100){ACCEPT}{widen}")));
    let r = compat::check_with(&l1, &reverted, &d);
    assert_eq!(rules(&r), ["accept-unmatched"], "{}", r.text());
    assert!(r.text().contains("stale"), "{}", r.text());
    // ...and after a lock written without it, the history marks it superseded, so it
    //    stays stale.
    let reverted_clean = lock(&UP.replace("RANGE", &format!("range(0, 100){widen}")));
    let (l2, _) = compat::relock_with(&l1, &reverted_clean, &d).unwrap();
    let l2 = written(&l2);
    assert!(l2.history.iter().any(|h| matches!(h,
        HistoryEntry::Accepted { rule, superseded: true, .. } if rule == "range-narrowed")));
    let stale = lock(&UP.replace("RANGE", &format!("range(0, 100){ACCEPT}{widen}")));
    let r = compat::check_with(&l2, &stale, &d);
    assert_eq!(rules(&r), ["accept-unmatched"], "{}", r.text());
    // 3. Deleted, the lock passes again.
    assert!(compat::check_with(&l2, &reverted_clean, &d).compatible);
}

#[test]
fn an_acceptance_harmless_under_one_order_is_still_used_under_it() {
    // Narrowing a c2s range breaks under any-order and server-first, not client-first.
    let base = written(&up("0, 100", false));
    for deploy in Deploy::ALL {
        let r = compat::check(&base, &up("0, 50", true), deploy);
        assert!(r.compatible, "{}:\n{}", deploy.as_str(), r.text());
        let (next, _) = compat::relock(&base, &up("0, 50", true), deploy).unwrap();
        // Recorded whatever the order, so a later check under another order still passes.
        let next = written(&next);
        for later in Deploy::ALL {
            let r = compat::check(&next, &up("0, 50", true), later);
            assert!(
                r.compatible,
                "{} then {}:\n{}",
                deploy.as_str(),
                later.as_str(),
                r.text()
            );
        }
    }
    // An acceptance naming nothing is still unmatched under every order.
    for deploy in Deploy::ALL {
        let r = compat::check(&base, &up("0, 100", true), deploy);
        assert_eq!(rules(&r), ["accept-unmatched"], "{}", deploy.as_str());
    }
}

#[test]
fn a_switch_of_deploy_is_a_finding_until_acknowledged() {
    let base = written(&up("0, 100", false));
    let narrowed = up("0, 50", false);
    let mut judge = Judge {
        was: Deploy::ServerFirst,
        now: Deploy::ClientFirst,
        accept: None,
        location: "tuplet.toml:1".into(),
    };
    // Unacknowledged: the switch fails, and the break it would hide is judged under the old
    // order (server-first), so it fails too.
    let r = compat::check_with(&base, &narrowed, &judge);
    let mut failing = rules(&r);
    failing.sort();
    assert_eq!(
        failing,
        ["deploy-changed", "range-narrowed"],
        "{}",
        r.text()
    );
    assert!(r
        .text()
        .contains("accept-deploy = { was = \"server-first\", now = \"client-first\""));
    // Acknowledged: the new order judges (a c2s narrowing is safe under client-first).
    judge.accept = Some(DeployAccept {
        was: Deploy::ServerFirst,
        now: Deploy::ClientFirst,
        reason: "clients update first".into(),
        location: "tuplet.toml:2".into(),
    });
    let r = compat::check_with(&base, &narrowed, &judge);
    assert!(r.compatible, "{}", r.text());
    let (next, _) = compat::relock_with(&base, &narrowed, &judge).unwrap();
    let next = written(&next);
    assert_eq!(next.deploy, Some(Deploy::ClientFirst));
    // The acknowledgement, recorded, stays valid while the order stands...
    let settled = Judge {
        was: Deploy::ClientFirst,
        ..judge.clone()
    };
    assert!(compat::check_with(&next, &narrowed, &settled).compatible);
    // ...and is unmatched against a lock that does not record it.
    let r = compat::check_with(&base, &narrowed, &settled);
    assert_eq!(rules(&r), ["accept-unmatched"], "{}", r.text());
    // A switch to any-order judges more, not less: a note.
    let strict = Judge {
        was: Deploy::ClientFirst,
        now: Deploy::AnyOrder,
        accept: None,
        location: "tuplet.toml:1".into(),
    };
    let r = compat::check_with(&base, &up("0, 100", false), &strict);
    assert!(r.compatible, "{}", r.text());
    assert_eq!(r.findings[0].rule, "deploy-changed");
}

#[test]
fn a_merged_lock_is_refused_with_the_procedure() {
    let one = lock(&UP.replace("RANGE", "range(0, 100)")).to_json();
    let two = lock(
        &(UP.replace("RANGE", "range(0, 100)")
            + "#[derive(tuplet::Message)]\n#[tuplet(name = \"m:down\", id = 2, dir = \"c2s\")]\npub struct Down {\n    pub x: u8,\n}\n"),
    )
    .to_json();
    // Two branches each adding a message with id 2: git joins the entries.
    let both_id = two.replace("\"m:down\": {", "\"m:side\": {\n      \"id\": 2,\n      \"dir\": \"c2s\",\n      \"type\": \"crate::Side\",\n      \"file\": \"src/lib.rs\",\n      \"fields\": []\n    },\n    \"m:down\": {");
    let e = Lock::from_json(&both_id).unwrap_err();
    assert!(e.contains("`m:down`, `m:side` all have id 2"), "{e}");
    assert!(e.contains("this is a merge of two locks"), "{e}");
    assert!(
        e.contains("git checkout <base> -- tuplet.lock.json && tuplet lock"),
        "{e}"
    );
    // The same name added twice: a key written twice.
    let twice = two.replace("\"m:down\": {", "\"m:up\": {\n      \"id\": 9,\n      \"dir\": \"c2s\",\n      \"type\": \"crate::Up\",\n      \"file\": \"src/lib.rs\",\n      \"fields\": []\n    },\n    \"m:down\": {");
    let e = Lock::from_json(&twice).unwrap_err();
    assert!(e.contains("`messages/c2s/m:up` is written twice"), "{e}");
    assert!(e.contains("this is a merge of two locks"), "{e}");
    // Conflict markers.
    let conflicted = format!("<<<<<<< HEAD\n{one}=======\n{two}>>>>>>> feature\n");
    let e = Lock::from_json(&conflicted).unwrap_err();
    assert!(e.starts_with("git conflict markers at line 1"), "{e}");
    assert!(e.contains("this is a merge of two locks"), "{e}");
    // The lock tuplet writes reads back.
    assert!(Lock::from_json(&two).is_ok());
}

//! Compat proven by the codecs: for each schema edit and deploy order, values of every
//! message sampled with the writer's schema are encoded by the writer's IR codec (both
//! shapes) and decoded by the reader's, a delta message's tracker payloads are applied by
//! the reader's mirror over a sequence of ticks, and the outcome is compared with
//! `tuplet compat`.
//!
//! A disagreement is `tuplet compat` passing an edit under which some value does not
//! arrive (rejected, read as another message, or read as another value). Every one is a
//! bug in the rules. The reverse (compat breaking while every sampled value arrives) is
//! counted per rule: those rules are conservative by design (see `compat_oracle.md`).
//!
//! The short run is part of the test command; the long run
//! (`TUPLET_ORACLE=long cargo test -p tuplet-codegen --test compat_oracle -- --nocapture`)
//! prints the counts committed in `compat_oracle.md`.

mod oracle;

use std::collections::BTreeMap;

use oracle::edits::{self, Edit};
use oracle::judge;
use tuplet_schema::loader::SourceTree;
use tuplet_schema::ResolvedSchema;

fn load(text: &str) -> Result<ResolvedSchema, String> {
    let mut tree = SourceTree::new();
    tree.insert("src/lib.rs", text);
    tree.load().map_err(|e| e.to_string())
}

#[derive(Default)]
struct Counts {
    edits: usize,
    not_loading: usize,
    values: usize,
    /// Per deploy order: (both pass, both break, compat breaks but values arrive).
    orders: BTreeMap<&'static str, [usize; 3]>,
    conservative: BTreeMap<String, usize>,
    disagreements: Vec<String>,
}

fn run(edits: &[Edit], n: usize, c: &mut Counts) {
    for e in edits {
        let (Ok(old), Ok(new)) = (load(&e.before), load(&e.after)) else {
            c.not_loading += 1;
            continue;
        };
        c.edits += 1;
        for v in judge::verdicts(&old, &new, n) {
            c.values += v.values;
            let slot = c.orders.entry(v.deploy.as_str()).or_default();
            match (v.compat_ok, &v.loss) {
                (true, None) => slot[0] += 1,
                (false, Some(_)) => slot[1] += 1,
                (false, None) => {
                    slot[2] += 1;
                    for r in &v.rules {
                        *c.conservative.entry(r.clone()).or_default() += 1;
                    }
                }
                (true, Some(loss)) => c.disagreements.push(format!(
                    "{} under {}: compat passes, but {loss}\n--- before\n{}\n--- after\n{}",
                    e.name,
                    v.deploy.as_str(),
                    e.before,
                    e.after
                )),
            }
        }
    }
}

fn report(c: &Counts) -> String {
    let mut s = format!(
        "edits tried: {} ({} generated edits that do not load skipped)\nvalues written and read: {}\n",
        c.edits, c.not_loading, c.values
    );
    for (d, [ok, bad, cons]) in &c.orders {
        s += &format!(
            "{d}: {ok} compatible (all values arrive), {bad} breaking (values lost), {cons} breaking by a conservative rule\n"
        );
    }
    s += "conservative findings by rule:";
    for (r, n) in &c.conservative {
        s += &format!(" {r} {n},");
    }
    s += &format!("\ndisagreements: {}\n", c.disagreements.len());
    s
}

fn check(stride: usize, n: usize) {
    let mut c = Counts::default();
    run(&edits::fixtures(), n, &mut c);
    let generated: Vec<Edit> = edits::generated().into_iter().step_by(stride).collect();
    run(&generated, n, &mut c);
    eprintln!("compat oracle:\n{}", report(&c));
    assert!(
        c.disagreements.is_empty(),
        "{} disagreement(s); the first:\n{}",
        c.disagreements.len(),
        c.disagreements.join("\n\n")
    );
}

#[test]
fn compat_agrees_with_the_codecs() {
    if std::env::var("TUPLET_ORACLE").as_deref() == Ok("long") {
        check(1, 12);
    } else {
        check(7, 6);
    }
}

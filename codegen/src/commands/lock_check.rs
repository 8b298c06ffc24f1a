//! `tuplet lock --check`: the committed lock against the text `tuplet lock` writes, with the
//! entries that differ and the line of the first in the committed file.

use std::path::Path;

use serde_json::{json, Value};
use tuplet_schema::compat::{self, Lock};

use super::annotate::{self, CheckFormat, Level, Note};
use super::base;
use super::project::Project;
use crate::exit::Exit;

/// `tuplet lock --check`: the file against the text `tuplet lock` writes.
pub(super) fn lock_check(
    p: &Project,
    format: CheckFormat,
    path: &Path,
    text: &str,
    current: Option<&str>,
    summary: &str,
) -> Exit {
    let lock_name = base::lock_name(path);
    let file = p.paths.config_relative(&lock_name);
    if current == Some(text) {
        match format {
            CheckFormat::Json => println!(
                "{}",
                serde_json::to_string_pretty(
                    &json!({"command": "lock --check", "fresh": true, "differs": []})
                )
                .unwrap_or_default()
            ),
            CheckFormat::Text => {}
            _ => annotate::print(format, "lock --check", &[]),
        }
        eprintln!(
            "tuplet lock --check: {} is fresh ({summary})",
            path.display()
        );
        return Exit::Ok;
    }
    let differs = match current {
        Some(c) => lock_differences(c, text),
        None => vec![("(the whole file: it does not exist)".to_string(), None)],
    };
    let listed: Vec<String> = differs.iter().take(8).map(|(k, _)| k.clone()).collect();
    let more = differs.len().saturating_sub(listed.len());
    let message = format!(
        "{} is not what `tuplet lock` writes for this schema and tuplet.toml; run `tuplet \
         lock` and commit it. A lock not written for the schema lets the next change break \
         what this one ships (`tuplet explain lock-stale`). Differs at: {}{}",
        file,
        listed.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    );
    let note = Note {
        level: Level::Error,
        rule: compat::rules::LOCK_STALE.name.into(),
        title: "lock-stale: run `tuplet lock` and commit the lock".into(),
        message: message.clone(),
        file: Some(file),
        line: differs.first().and_then(|(_, l)| *l).or(Some(1)),
        column: None,
        fix: Some("run `tuplet lock` and commit the lock".into()),
    };
    match format {
        CheckFormat::Text => eprintln!("error[lock-stale]: {message}"),
        CheckFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "command": "lock --check", "fresh": false, "rule": "lock-stale",
                "message": message, "differs": differs.iter().map(|(k, _)| k).collect::<Vec<_>>(),
                "file": note.file, "line": note.line,
            }))
            .unwrap_or_default()
        ),
        _ => annotate::print(format, "lock --check", std::slice::from_ref(&note)),
    }
    Exit::Failed
}

/// The entries where two locks' texts differ (`deploy`, `messages/c2s/chat:say`,
/// `types/crate::Pet`, `history`), each with its line in `current` when it has one.
fn lock_differences(current: &str, written: &str) -> Vec<(String, Option<usize>)> {
    let parse = |t: &str| serde_json::from_str::<Value>(t).unwrap_or(Value::Null);
    let (a, b) = (parse(current), parse(written));
    let lines = Lock::from_json(current)
        .map(|l| l.lock_lines)
        .unwrap_or_default();
    let mut out = Vec::new();
    let keys = |v: &Value| -> Vec<String> {
        v.as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    };
    let mut top = keys(&a);
    top.extend(keys(&b));
    top.sort();
    top.dedup();
    for k in top {
        let (x, y) = (&a[&k], &b[&k]);
        if x == y {
            continue;
        }
        let depth = match k.as_str() {
            "messages" | "reserved" => 2,
            "types" => 1,
            _ => 0,
        };
        walk(&k, x, y, depth, &lines, &mut out);
    }
    out
}

fn walk(
    key: &str,
    x: &Value,
    y: &Value,
    depth: usize,
    lines: &std::collections::BTreeMap<String, usize>,
    out: &mut Vec<(String, Option<usize>)>,
) {
    if depth == 0 || !x.is_object() || !y.is_object() {
        out.push((key.to_string(), lines.get(key).copied()));
        return;
    }
    let mut ks: Vec<&String> = x
        .as_object()
        .unwrap()
        .keys()
        .chain(y.as_object().unwrap().keys())
        .collect();
    ks.sort();
    ks.dedup();
    for k in ks {
        let (a, b) = (&x[k.as_str()], &y[k.as_str()]);
        if a != b {
            walk(&format!("{key}/{k}"), a, b, depth - 1, lines, out);
        }
    }
}

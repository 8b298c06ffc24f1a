//! A lock that git merged: conflict markers, a key written twice, two messages of a direction
//! with one id. None of these is a lock `tuplet lock` writes; each is two locks joined, and
//! the answer is the same procedure: take the base's lock and lock the merged schema again.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

/// What to do about a merged lock (RULES.md, "Merging two branches").
pub const PROCEDURE: &str = "this is a merge of two locks. Take the lock of the branch \
     the change goes into and lock the merged schema against it: `git checkout <base> -- \
     tuplet.lock.json && tuplet lock` (`<base>`: `main`, `origin/main`, or `MERGE_HEAD`'s \
     other side), then commit the lock";

/// The 1-based line of the first git conflict marker (`<<<<<<< `, `=======`, `>>>>>>> `,
/// `||||||| `), if any.
pub(super) fn conflict_marker(text: &str) -> Option<usize> {
    text.lines().position(is_marker).map(|i| i + 1)
}

fn is_marker(line: &str) -> bool {
    line == "======="
        || ["<<<<<<< ", ">>>>>>> ", "||||||| "]
            .iter()
            .any(|m| line.starts_with(m))
        || ["<<<<<<<", ">>>>>>>", "|||||||"].contains(&line)
}

/// The first object key written twice in the same object, as a `/`-joined path (`messages/
/// c2s/chat:say`). serde_json keeps the last of two equal keys silently; a merge of two
/// branches that each added an entry of that name writes it twice.
pub(super) fn duplicate_key(text: &str) -> Option<String> {
    let mut de = serde_json::Deserializer::from_str(text);
    match DupCheck::deserialize(&mut de) {
        Ok(DupCheck(found)) => found,
        Err(_) => None,
    }
}

/// Walks any JSON value, remembering the first duplicate key's path.
struct DupCheck(Option<String>);

impl<'de> Deserialize<'de> for DupCheck {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DupVisitor)
    }
}

struct DupVisitor;

impl<'de> Visitor<'de> for DupVisitor {
    type Value = DupCheck;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<DupCheck, E> {
        Ok(DupCheck(None))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<DupCheck, E> {
        Ok(DupCheck(None))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<DupCheck, E> {
        Ok(DupCheck(None))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<DupCheck, E> {
        Ok(DupCheck(None))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<DupCheck, E> {
        Ok(DupCheck(None))
    }
    fn visit_unit<E: de::Error>(self) -> Result<DupCheck, E> {
        Ok(DupCheck(None))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<DupCheck, A::Error> {
        let mut first = None;
        while let Some(DupCheck(found)) = seq.next_element()? {
            first = first.or(found);
        }
        Ok(DupCheck(first))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<DupCheck, A::Error> {
        let mut keys = BTreeSet::new();
        let mut first = None;
        while let Some(key) = map.next_key::<String>()? {
            let DupCheck(inner) = map.next_value()?;
            if first.is_none() {
                first = inner.map(|path| format!("{key}/{path}"));
            }
            if !keys.insert(key.clone()) && first.is_none() {
                first = Some(key);
            }
        }
        Ok(DupCheck(first))
    }
}

/// Two messages of one direction with the same id: `(dir, id, [names])`, the first found in
/// the lock's text (`None` when it is not JSON of that shape: serde reports that).
pub(super) fn duplicate_id(text: &str) -> Option<(String, u32, Vec<String>)> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    for (dir, messages) in v.get("messages")?.as_object()? {
        let mut by_id: BTreeMap<u64, Vec<String>> = BTreeMap::new();
        for (name, m) in messages.as_object()? {
            if let Some(id) = m.get("id").and_then(|i| i.as_u64()) {
                by_id.entry(id).or_default().push(name.clone());
            }
        }
        if let Some((id, mut names)) = by_id.into_iter().find(|(_, n)| n.len() > 1) {
            // Sorted: serde_json keeps a map's text order when a crate in the build enables
            // its `preserve_order` feature, and sorts it otherwise.
            names.sort();
            return Some((dir.clone(), id as u32, names));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_keys_and_ids() {
        assert_eq!(
            conflict_marker("{\n<<<<<<< HEAD\n\"a\": 1\n=======\n"),
            Some(2)
        );
        assert_eq!(conflict_marker("{\n  \"a\": \"=======\"\n}\n"), None);
        assert_eq!(
            duplicate_key(r#"{"m": {"c2s": {"a": 1, "b": [{"x": 1}, {"x": 2}], "a": 2}}}"#),
            Some("m/c2s/a".to_string())
        );
        assert_eq!(
            duplicate_key(r#"{"m": [{"x": 1}, {"x": 2}], "n": {"x": 1}}"#),
            None
        );
    }
}

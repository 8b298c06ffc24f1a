//! Where each entry of a lock file is: the line of every key path, for reports that point
//! at an entry the new schema no longer has.

use std::collections::BTreeMap;

/// Maps `a/b/c` key paths of a pretty-printed JSON object to their 1-based lines (objects
/// only; array elements are not indexed).
pub(super) fn index_lines(text: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let mut stack: Vec<(usize, String)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let t = line.trim_start();
        if !t.starts_with('"') {
            continue;
        }
        let Ok(key) = serde_json::from_str::<String>(match t[1..].find("\": ") {
            Some(end) => &t[..end + 2],
            None => continue,
        }) else {
            continue;
        };
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let mut path: Vec<&str> = stack.iter().map(|(_, k)| k.as_str()).collect();
        path.push(&key);
        out.insert(path.join("/"), n + 1);
        if t.ends_with('{') {
            stack.push((indent, key));
        }
    }
    out
}

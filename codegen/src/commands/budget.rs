//! Byte budgets in `tuplet compat`'s report: each message over its budget, with its file
//! relative to the config's folder, and, against a base schema, what grew: the message's
//! largest size then and now, and each field whose largest size grew (the field the pull
//! request made larger, not merely the largest one).

use tuplet_schema::ir::Dir;
use tuplet_schema::sizes::{BudgetFinding, Max, Sizer};
use tuplet_schema::ResolvedSchema;

/// A field's largest size, readable.
fn show(m: &Max) -> String {
    match m {
        Ok(n) => format!("{n} bytes"),
        Err(u) => format!("unbounded ({})", u.reason),
    }
}

/// Whether `now` is larger than `was`.
fn grew(was: &Max, now: &Max) -> bool {
    match (was, now) {
        (Ok(a), Ok(b)) => b > a,
        (Ok(_), Err(_)) => true,
        _ => false,
    }
}

/// Every top-level field's largest size in the message `name` of `dir`.
fn fields(schema: &ResolvedSchema, dir: Dir, name: &str) -> Option<(Max, Vec<(String, Max)>)> {
    let sizer = Sizer::new(schema);
    let total = tuplet_schema::sizes::message_sizes(schema)
        .into_iter()
        .find(|s| s.dir == dir && s.name == name)?
        .largest();
    let (_, m) = schema.messages(dir).find(|(_, m)| m.name == name)?;
    let list = m
        .record
        .fields()
        .map(|f| (f.name.clone(), sizer.max(&f.ty, &f.name)))
        .collect();
    Some((total, list))
}

/// What grew in `f`'s message against `base`: one line, or `None` when nothing did (or the
/// base has no such message: then it is new, said so).
pub fn growth(
    base: &ResolvedSchema,
    head: &ResolvedSchema,
    f: &BudgetFinding,
    label: &str,
) -> String {
    let Some((now_total, now)) = fields(head, f.dir, &f.message) else {
        return String::new();
    };
    let Some((was_total, was)) = fields(base, f.dir, &f.message) else {
        return format!("new since {label}");
    };
    let mut parts = Vec::new();
    for (name, n) in &now {
        match was.iter().find(|(w, _)| w == name) {
            Some((_, w)) if grew(w, n) => {
                parts.push(format!("`{name}` {} -> {}", show(w), show(n)));
            }
            None => parts.push(format!("`{name}` added ({})", show(n))),
            _ => {}
        }
    }
    let total = format!("{} -> {}", show(&was_total), show(&now_total));
    if parts.is_empty() {
        format!("against {label}: {total}; no field grew (the budget was lowered, or it was over already)")
    } else {
        format!("against {label}: {total}; grew: {}", parts.join(", "))
    }
}

/// The budget line of `tuplet compat`: `budget-exceeded: <file>:<line>: ...` with the file
/// relative to the config's folder (`krate` joined), and what grew when known.
pub fn line(krate: &str, f: &BudgetFinding, grew: &str) -> String {
    let file = match krate.trim_end_matches('/') {
        "" | "." => f.file.clone(),
        k => format!("{}/{}", k.trim_start_matches("./"), f.file),
    };
    let mut s = format!("budget-exceeded: {f}").replacen(&f.file, &file, 1);
    if !grew.is_empty() {
        s.push_str(&format!("\n  grew: {grew}"));
    }
    s
}

//! How findings print types, slots, ranges and lengths (`was` and `now`, as `accept`
//! names them).

use super::messages::ident;
use crate::compat::lock::{LockLen, LockSlot, Ty};

/// A type as Rust spells it (named types by their identifier).
pub fn show(t: &Ty) -> String {
    match t {
        Ty::Bool => "bool".into(),
        Ty::Int { prim, bigint, .. } => {
            if *bigint {
                format!("{prim} (bigint)")
            } else {
                prim.clone()
            }
        }
        Ty::Float { bits, .. } | Ty::Quant { bits, .. } => format!("f{bits}"),
        Ty::String { .. } => "String".into(),
        Ty::Bytes { .. } => "Vec<u8>".into(),
        Ty::Option { inner } => format!("Option<{}>", show(inner)),
        Ty::Vec { inner, .. } => format!("Vec<{}>", show(inner)),
        Ty::Array { inner, len } => format!("[{}; {len}]", show(inner)),
        Ty::Map { key, value, .. } => format!("BTreeMap<{}, {}>", show(key), show(value)),
        Ty::Named { path } => ident(path).to_string(),
    }
}

pub(super) fn show_slot(s: &LockSlot) -> String {
    match &s.ty {
        Some(t) => format!("{}: {}", s.name, show(t)),
        None => format!("reserved {}", s.name),
    }
}

pub(super) fn show_quant(t: &Ty) -> String {
    fn inner(t: &Ty) -> String {
        match t {
            Ty::Quant { unit: Some(u), .. } => format!("quant = {u}"),
            Ty::Quant { scale, .. } => format!("scale = {scale}"),
            Ty::Float { .. } => "raw".into(),
            other => show(other),
        }
    }
    inner(t)
}

pub(super) fn show_frange(min: Option<f64>, max: Option<f64>) -> String {
    let f = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
    if min.is_none() && max.is_none() {
        return "any".into();
    }
    format!("{}..={}", f(min), f(max))
}

pub(super) fn show_len(l: &LockLen) -> String {
    match (l.min, l.max) {
        (None, None) => "any".into(),
        (Some(a), Some(b)) if a == b => format!("{a}"),
        (a, b) => format!(
            "{}..={}",
            a.map(|v| v.to_string()).unwrap_or_default(),
            b.map(|v| v.to_string()).unwrap_or_default()
        ),
    }
}

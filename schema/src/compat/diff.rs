//! Comparing two locks: every change, named by its rule, judged per direction and deploy
//! order.
//!
//! Messages pair by direction and wire name; fields by name (or a legacy alias naming the
//! old field), then by position; referenced types pair through the fields that use them,
//! whatever their path, so moving a type to another module is no change. A type reached
//! from both directions is judged once per direction.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::lock::{Lock, LockFlag, LockLen, LockSlot, LockVariant, Ty, TypeBody, WireDir};
use super::rules::{self, Category, Hurts, Rule};

/// Which side deploys first (`deploy` in `tuplet.toml`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Deploy {
    /// Server and clients deploy in either order: every change must be safe both ways.
    #[default]
    AnyOrder,
    /// The server always deploys first: a server is never older than a client.
    ServerFirst,
    /// Clients always deploy first: a client is never older than the server.
    ClientFirst,
}

impl Deploy {
    /// Every order.
    pub const ALL: [Deploy; 3] = [Deploy::AnyOrder, Deploy::ServerFirst, Deploy::ClientFirst];

    /// As written in `tuplet.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            Deploy::AnyOrder => "any-order",
            Deploy::ServerFirst => "server-first",
            Deploy::ClientFirst => "client-first",
        }
    }

    /// Parses the `tuplet.toml` spelling.
    pub fn parse(s: &str) -> Option<Deploy> {
        Deploy::ALL.into_iter().find(|d| d.as_str() == s)
    }

    /// Whether a change hurting `hurts`, in direction `dir`, breaks a deployment in this
    /// order. Under `server-first` a client never talks to an older server: in c2s only an
    /// old client reaching a new server matters, in s2c only a new server reaching an old
    /// client. `client-first` is the mirror image.
    pub fn breaks(self, dir: WireDir, hurts: Hurts) -> bool {
        match (self, dir) {
            (Deploy::AnyOrder, _) => true,
            (Deploy::ServerFirst, WireDir::C2s) | (Deploy::ClientFirst, WireDir::S2c) => {
                hurts.old_to_new()
            }
            (Deploy::ServerFirst, WireDir::S2c) | (Deploy::ClientFirst, WireDir::C2s) => {
                hurts.new_to_old()
            }
        }
    }
}

/// One change found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Finding {
    /// The rule's name.
    pub rule: String,
    /// What it breaks.
    pub category: Category,
    /// The direction judged (none for an unmatched acceptance).
    pub dir: Option<WireDir>,
    /// Which pair of versions it hurts.
    pub hurts: Hurts,
    /// The deploy orders under which it breaks peers (empty for source-API notes).
    pub breaks_under: Vec<Deploy>,
    /// The message it was reached from (`c2s player:move`).
    pub message: String,
    /// The item's canonical path (the new one; the old one for a removal).
    pub item: String,
    /// The field, variant or flag (`p`, `Boat`, `Pet.name`); empty for the item itself.
    pub member: String,
    /// The old value, as `accept(was = ...)` names it; empty when there was none.
    pub was: String,
    /// The new value; empty for a removal.
    pub now: String,
    /// `file:line` of the new item, or the removed entry in the lock.
    pub location: String,
    /// Whether it fails the check under the deploy order judged (before acceptances).
    pub breaking: bool,
    /// The reason of the acceptance that covers it, if any.
    pub accepted: Option<String>,
    /// Why it breaks peers.
    pub why: String,
}

impl Finding {
    /// Whether it fails the check: breaking and not accepted.
    pub fn fails(&self) -> bool {
        self.breaking && self.accepted.is_none()
    }
}

/// Where a change is: item, member, location.
#[derive(Clone)]
struct At {
    item: String,
    member: String,
    location: String,
}

impl At {
    fn member(&self, m: &str) -> At {
        let member = if self.member.is_empty() {
            m.to_string()
        } else {
            format!("{}.{m}", self.member)
        };
        At {
            member,
            ..self.clone()
        }
    }
}

struct Cx<'a> {
    old: &'a Lock,
    new: &'a Lock,
    dir: WireDir,
    via: String,
    seen: BTreeSet<(String, String, WireDir)>,
    out: Vec<Finding>,
}

impl Cx<'_> {
    fn push(&mut self, rule: &Rule, hurts: Hurts, at: &At, was: String, now: String) {
        let breaks_under = if rule.category == Category::Source {
            Vec::new()
        } else {
            Deploy::ALL
                .into_iter()
                .filter(|d| d.breaks(self.dir, hurts))
                .collect()
        };
        self.out.push(Finding {
            rule: rule.name.to_string(),
            category: rule.category,
            dir: Some(self.dir),
            hurts,
            breaks_under,
            message: self.via.clone(),
            item: at.item.clone(),
            member: at.member.clone(),
            was,
            now,
            location: at.location.clone(),
            breaking: false,
            accepted: None,
            why: rule.why.to_string(),
        });
    }

    fn new_at(&self, path: &str) -> At {
        let file = self
            .new
            .types
            .get(path)
            .map(|t| t.file.as_str())
            .or_else(|| {
                self.new
                    .messages
                    .values()
                    .flat_map(|m| m.values())
                    .find(|m| m.ty == path)
                    .map(|m| m.file.as_str())
            })
            .unwrap_or("");
        At {
            item: path.to_string(),
            member: String::new(),
            location: self.new.location(path, file),
        }
    }
}

/// Compares an old lock with a new one (built from the source) under a deploy order: every
/// change that breaks peers under that order (`breaking`), and every source-API change (a
/// note, never breaking). Wire changes harmless under the order are left out. Acceptances
/// are not applied here (see [`super::check`]).
pub fn compare(old: &Lock, new: &Lock, deploy: Deploy) -> Vec<Finding> {
    let mut all = Vec::new();
    for dir in WireDir::ALL {
        let mut cx = Cx {
            old,
            new,
            dir,
            via: String::new(),
            seen: BTreeSet::new(),
            out: Vec::new(),
        };
        messages(&mut cx);
        all.extend(cx.out);
    }
    let mut seen_source = BTreeSet::new();
    let mut out: Vec<Finding> = Vec::new();
    for mut f in all {
        if f.category == Category::Source {
            if !seen_source.insert((
                f.rule.clone(),
                f.item.clone(),
                f.member.clone(),
                f.was.clone(),
                f.now.clone(),
            )) {
                continue;
            }
        } else {
            f.breaking = f.breaks_under.contains(&deploy);
            if !f.breaking {
                continue;
            }
        }
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

const EMPTY: &BTreeMap<String, super::lock::LockMessage> = &BTreeMap::new();

fn messages(cx: &mut Cx) {
    let d = cx.dir;
    let old = cx.old.messages.get(&d).unwrap_or(EMPTY);
    let new = cx.new.messages.get(&d).unwrap_or(EMPTY);
    let old_other = cx.old.messages.get(&d.other()).unwrap_or(EMPTY);
    let new_other = cx.new.messages.get(&d.other()).unwrap_or(EMPTY);
    let empty = Default::default();
    let old_res = cx.old.reserved.get(&d).unwrap_or(&empty);
    let new_res = cx.new.reserved.get(&d).unwrap_or(&empty);
    let mut claimed: BTreeSet<&str> = BTreeSet::new();
    for (name, om) in old {
        cx.via = format!("{} {name}", d.as_str());
        if let Some(nm) = new.get(name) {
            let at = cx.new_at(&nm.ty);
            if om.id != nm.id {
                cx.push(
                    &rules::ID_CHANGED,
                    Hurts::Both,
                    &at,
                    om.id.to_string(),
                    nm.id.to_string(),
                );
            }
            if om.delta != nm.delta {
                cx.push(
                    &rules::DELTA_TOGGLED,
                    Hurts::Both,
                    &at,
                    delta_form(om.delta).to_string(),
                    delta_form(nm.delta).to_string(),
                );
            }
            type_renamed(cx, &om.ty, &nm.ty, &at);
            record(cx, &om.fields, &nm.fields, &at);
            continue;
        }
        let renamed = new
            .iter()
            .find(|(n, m)| m.id == om.id && !old.contains_key(*n));
        if let Some((new_name, nm)) = renamed {
            claimed.insert(new_name);
            let at = cx.new_at(&nm.ty);
            cx.push(
                &rules::MESSAGE_RENAMED,
                Hurts::Both,
                &at,
                name.clone(),
                new_name.clone(),
            );
            type_renamed(cx, &om.ty, &nm.ty, &at);
            record(cx, &om.fields, &nm.fields, &at);
            continue;
        }
        let moved = new_other.get(name).filter(|nm| {
            nm.dir != om.dir
                && !matches!(old_other.get(name), Some(o) if o.dir != crate::ir::Dir::Both)
        });
        if let Some(nm) = moved {
            let at = cx.new_at(&nm.ty);
            cx.push(
                &rules::DIRECTION_CHANGED,
                Hurts::Both,
                &at,
                om.dir.as_str().to_string(),
                nm.dir.as_str().to_string(),
            );
            continue;
        }
        if new_res.ids.contains(&om.id) && new_res.names.contains(name) {
            continue;
        }
        let at = removed_at(
            cx,
            &format!("messages/{}/{name}", d.as_str()),
            &om.ty,
            &om.file,
        );
        let missing = match (new_res.ids.contains(&om.id), new_res.names.contains(name)) {
            (true, false) => " (its id is reserved, its name is not)",
            (false, true) => " (its name is reserved, its id is not)",
            _ => "",
        };
        cx.push(
            &rules::MESSAGE_REMOVED,
            Hurts::Both,
            &at,
            format!("{name} (id {}){missing}", om.id),
            String::new(),
        );
    }
    for (name, nm) in new {
        if old.contains_key(name) || claimed.contains(name.as_str()) {
            continue;
        }
        cx.via = format!("{} {name}", d.as_str());
        let at = cx.new_at(&nm.ty);
        if let Some((other, _)) = old.iter().find(|(n, m)| m.id == nm.id && *n != name) {
            cx.push(
                &rules::ID_REUSED,
                Hurts::Both,
                &at,
                format!("{} ({other})", nm.id),
                format!("{} ({name})", nm.id),
            );
        } else if old_res.ids.contains(&nm.id) {
            cx.push(
                &rules::ID_REUSED,
                Hurts::Both,
                &at,
                format!("{} (reserved)", nm.id),
                format!("{} ({name})", nm.id),
            );
        }
        if old_res.names.contains(name) {
            cx.push(
                &rules::NAME_REUSED,
                Hurts::Both,
                &at,
                format!("{name} (reserved)"),
                format!("{name} (id {})", nm.id),
            );
        }
    }
    cx.via = String::new();
    for id in &old_res.ids {
        if !new_res.ids.contains(id) && !new.values().any(|m| m.id == *id) {
            let at = removed_at(cx, &format!("reserved/{}/ids", d.as_str()), "", "");
            cx.push(
                &rules::RESERVATION_DROPPED,
                Hurts::Both,
                &at,
                format!("id {id}"),
                String::new(),
            );
        }
    }
    for name in &old_res.names {
        if !new_res.names.contains(name) && !new.contains_key(name) {
            let at = removed_at(cx, &format!("reserved/{}/names", d.as_str()), "", "");
            cx.push(
                &rules::RESERVATION_DROPPED,
                Hurts::Both,
                &at,
                format!("name {name}"),
                String::new(),
            );
        }
    }
}

/// The location of something gone: its entry in the lock file.
fn removed_at(cx: &Cx, key: &str, item: &str, file: &str) -> At {
    let location = match cx.old.lock_line(key) {
        Some(l) => format!("{}:{l}", super::lock::FILE_NAME),
        None if !file.is_empty() => format!("{file} (removed)"),
        None => super::lock::FILE_NAME.to_string(),
    };
    At {
        item: item.to_string(),
        member: String::new(),
        location,
    }
}

fn ident(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path)
}

fn type_renamed(cx: &mut Cx, old: &str, new: &str, at: &At) {
    if ident(old) != ident(new) {
        cx.push(
            &rules::TYPE_RENAMED,
            Hurts::Both,
            at,
            ident(old).to_string(),
            ident(new).to_string(),
        );
    }
}

/// Compares the slots of two records (or struct variants).
fn record(cx: &mut Cx, old: &[LockSlot], new: &[LockSlot], at: &At) {
    // Pair: by name, then by a legacy alias naming an old field, then by position.
    let mut pair_new: Vec<Option<usize>> = vec![None; old.len()];
    let mut taken = vec![false; new.len()];
    for (i, o) in old.iter().enumerate() {
        if o.is_reserved() {
            continue;
        }
        if let Some(j) = new
            .iter()
            .position(|n| !n.is_reserved() && n.name == o.name)
        {
            pair_new[i] = Some(j);
            taken[j] = true;
        }
    }
    for (i, o) in old.iter().enumerate() {
        if o.is_reserved() || pair_new[i].is_some() {
            continue;
        }
        if let Some(j) = (0..new.len()).find(|&j| {
            !taken[j]
                && !new[j].is_reserved()
                && new[j].legacy.len() == 1
                && new[j].legacy[0] == o.name
        }) {
            pair_new[i] = Some(j);
            taken[j] = true;
        }
    }
    for i in 0..old.len() {
        if pair_new[i].is_none() && i < new.len() && !taken[i] {
            pair_new[i] = Some(i);
            taken[i] = true;
        }
    }
    // Order.
    let mut last = None;
    let mut reordered = false;
    for j in pair_new.iter().flatten() {
        if last.is_some_and(|l| *j < l) {
            reordered = true;
        }
        last = Some(*j);
    }
    if reordered {
        let names = |s: &[LockSlot]| {
            s.iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        cx.push(
            &rules::FIELDS_REORDERED,
            Hurts::Both,
            at,
            names(old),
            names(new),
        );
    }
    for (i, o) in old.iter().enumerate() {
        match pair_new[i] {
            None => cx.push(
                &rules::FIELD_REMOVED,
                Hurts::Both,
                &at.member(&o.name),
                show_slot(o),
                String::new(),
            ),
            Some(j) => slot(cx, o, &new[j], at),
        }
    }
    for (j, n) in new.iter().enumerate() {
        if taken[j] {
            continue;
        }
        let fat = at.member(&n.name);
        let appended = j >= old.len();
        if n.is_reserved() {
            if !appended {
                cx.push(
                    &rules::OPTIONAL_FIELD_INSERTED,
                    Hurts::Both,
                    &fat,
                    String::new(),
                    format!("{} at {j}", show_slot(n)),
                );
            }
        } else if !n.is_optional() {
            let hurts = if appended {
                Hurts::OldToNew
            } else {
                Hurts::Both
            };
            cx.push(
                &rules::REQUIRED_FIELD_ADDED,
                hurts,
                &fat,
                String::new(),
                format!("{} at {j}", show_slot(n)),
            );
        } else if !appended {
            cx.push(
                &rules::OPTIONAL_FIELD_INSERTED,
                Hurts::Both,
                &fat,
                String::new(),
                format!("{} at {j}", show_slot(n)),
            );
        }
    }
}

fn slot(cx: &mut Cx, o: &LockSlot, n: &LockSlot, at: &At) {
    match (&o.ty, &n.ty) {
        (None, None) => {}
        (Some(_), None) => {
            if !o.is_optional() {
                cx.push(
                    &rules::REQUIRED_FIELD_RESERVED,
                    Hurts::NewToOld,
                    &at.member(&o.name),
                    show_slot(o),
                    show_slot(n),
                );
            }
        }
        (None, Some(_)) => cx.push(
            &rules::RESERVED_SLOT_REUSED,
            Hurts::Both,
            &at.member(&n.name),
            show_slot(o),
            show_slot(n),
        ),
        (Some(ot), Some(nt)) => {
            let fat = at.member(&n.name);
            if o.name != n.name {
                cx.push(
                    &rules::FIELD_RENAMED,
                    Hurts::Both,
                    &fat,
                    o.name.clone(),
                    n.name.clone(),
                );
            }
            named_keys(cx, o, n, &fat);
            ty(cx, ot, nt, &fat);
        }
    }
}

/// The named-shape keys: what each version writes, what each accepts.
fn named_keys(cx: &mut Cx, o: &LockSlot, n: &LockSlot, at: &At) {
    let writes = |s: &LockSlot| -> Vec<String> {
        if s.legacy.is_empty() {
            vec![s.name.clone()]
        } else {
            s.legacy.clone()
        }
    };
    let accepts =
        |s: &LockSlot, keys: &Vec<String>| *keys == s.legacy || *keys == vec![s.name.clone()];
    let (ow, nw) = (writes(o), writes(n));
    let new_to_old = !accepts(o, &nw);
    let old_to_new = !accepts(n, &ow);
    let hurts = match (new_to_old, old_to_new) {
        (false, false) => return,
        (true, false) => Hurts::NewToOld,
        (false, true) => Hurts::OldToNew,
        (true, true) => Hurts::Both,
    };
    let rule = match (o.legacy.is_empty(), n.legacy.is_empty()) {
        (true, true) => &rules::NAMED_KEY_CHANGED,
        (true, false) => &rules::LEGACY_KEY_ADDED,
        (false, true) => &rules::LEGACY_KEY_DROPPED,
        (false, false) => &rules::LEGACY_KEY_CHANGED,
    };
    cx.push(rule, hurts, at, ow.join(", "), nw.join(", "));
}

#[allow(clippy::too_many_arguments)]
fn range_findings<T: PartialOrd>(
    cx: &mut Cx,
    (omin, omax): (T, T),
    (nmin, nmax): (T, T),
    narrowed: &Rule,
    widened: &Rule,
    at: &At,
    was: String,
    now: String,
) {
    if nmin > omin || nmax < omax {
        cx.push(narrowed, Hurts::OldToNew, at, was.clone(), now.clone());
    }
    if nmin < omin || nmax > omax {
        cx.push(widened, Hurts::NewToOld, at, was, now);
    }
}

fn ty(cx: &mut Cx, o: &Ty, n: &Ty, at: &At) {
    match (o, n) {
        (Ty::Option { inner: a }, Ty::Option { inner: b }) => ty(cx, a, b, at),
        (Ty::Option { inner: a }, b) => {
            cx.push(&rules::MADE_REQUIRED, Hurts::OldToNew, at, show(o), show(n));
            ty(cx, a, b, at)
        }
        (a, Ty::Option { inner: b }) => {
            cx.push(&rules::MADE_OPTIONAL, Hurts::NewToOld, at, show(o), show(n));
            ty(cx, a, b, at)
        }
        (Ty::Bool, Ty::Bool) => {}
        (
            Ty::Int {
                prim: op,
                min: omin,
                max: omax,
                bigint: ob,
            },
            Ty::Int {
                prim: np,
                min: nmin,
                max: nmax,
                bigint: nb,
            },
        ) => {
            if op != np || ob != nb {
                cx.push(&rules::INT_TYPE_CHANGED, Hurts::Both, at, show(o), show(n));
            }
            range_findings(
                cx,
                (*omin, *omax),
                (*nmin, *nmax),
                &rules::RANGE_NARROWED,
                &rules::RANGE_WIDENED,
                at,
                format!("{omin}..={omax}"),
                format!("{nmin}..={nmax}"),
            );
        }
        (
            Ty::Float {
                bits: ob,
                min: omin,
                max: omax,
            },
            Ty::Float {
                bits: nb,
                min: nmin,
                max: nmax,
            },
        ) => {
            if ob != nb {
                cx.push(&rules::TYPE_CHANGED, Hurts::Both, at, show(o), show(n));
                return;
            }
            let b = |lo: &Option<f64>, hi: &Option<f64>| {
                (lo.unwrap_or(f64::NEG_INFINITY), hi.unwrap_or(f64::INFINITY))
            };
            range_findings(
                cx,
                b(omin, omax),
                b(nmin, nmax),
                &rules::RANGE_NARROWED,
                &rules::RANGE_WIDENED,
                at,
                show_frange(*omin, *omax),
                show_frange(*nmin, *nmax),
            );
        }
        (
            Ty::Quant {
                bits: ob,
                scale: os,
                qmin: oqmin,
                qmax: oqmax,
                range: orange,
                ..
            },
            Ty::Quant {
                bits: nb,
                scale: ns,
                qmin: nqmin,
                qmax: nqmax,
                range: nrange,
                ..
            },
        ) => {
            if ob != nb {
                cx.push(&rules::TYPE_CHANGED, Hurts::Both, at, show(o), show(n));
            } else if os != ns {
                cx.push(
                    &rules::QUANT_CHANGED,
                    Hurts::Both,
                    at,
                    show_quant(o),
                    show_quant(n),
                );
            } else {
                let shown = |r: &Option<[f64; 2]>, qmin: i64, qmax: i64| match r {
                    Some([a, b]) => format!("{a}..={b}"),
                    None => format!("q {qmin}..={qmax}"),
                };
                range_findings(
                    cx,
                    (*oqmin, *oqmax),
                    (*nqmin, *nqmax),
                    &rules::RANGE_NARROWED,
                    &rules::RANGE_WIDENED,
                    at,
                    shown(orange, *oqmin, *oqmax),
                    shown(nrange, *nqmin, *nqmax),
                );
            }
        }
        (Ty::Float { .. }, Ty::Quant { .. }) | (Ty::Quant { .. }, Ty::Float { .. }) => {
            cx.push(
                &rules::QUANT_CHANGED,
                Hurts::Both,
                at,
                show_quant(o),
                show_quant(n),
            );
        }
        (Ty::String { len: a }, Ty::String { len: b })
        | (Ty::Bytes { len: a }, Ty::Bytes { len: b }) => len(cx, a, b, at),
        (Ty::Vec { inner: a, len: la }, Ty::Vec { inner: b, len: lb }) => {
            len(cx, la, lb, at);
            ty(cx, a, b, at)
        }
        (Ty::Array { inner: a, len: la }, Ty::Array { inner: b, len: lb }) => {
            if la != lb {
                cx.push(&rules::TYPE_CHANGED, Hurts::Both, at, show(o), show(n));
            } else {
                ty(cx, a, b, at)
            }
        }
        (
            Ty::Map {
                key: ka,
                value: va,
                len: la,
            },
            Ty::Map {
                key: kb,
                value: vb,
                len: lb,
            },
        ) => {
            len(cx, la, lb, at);
            match (&**ka, &**kb) {
                // `key_len`: judged as any length, shown as the key's.
                (Ty::String { len: a }, Ty::String { len: b }) => range_findings(
                    cx,
                    a.bounds(),
                    b.bounds(),
                    &rules::LEN_NARROWED,
                    &rules::LEN_WIDENED,
                    at,
                    format!("key {}", show_len(a)),
                    format!("key {}", show_len(b)),
                ),
                _ => ty(cx, ka, kb, at),
            }
            ty(cx, va, vb, at)
        }
        (Ty::Named { path: a }, Ty::Named { path: b }) => named(cx, a, b, at, o, n),
        _ => cx.push(&rules::TYPE_CHANGED, Hurts::Both, at, show(o), show(n)),
    }
}

fn len(cx: &mut Cx, o: &LockLen, n: &LockLen, at: &At) {
    range_findings(
        cx,
        o.bounds(),
        n.bounds(),
        &rules::LEN_NARROWED,
        &rules::LEN_WIDENED,
        at,
        show_len(o),
        show_len(n),
    );
}

fn named(cx: &mut Cx, a: &str, b: &str, at: &At, o: &Ty, n: &Ty) {
    let (Some(ot), Some(nt)) = (cx.old.types.get(a), cx.new.types.get(b)) else {
        return;
    };
    let (ob, nb) = (&ot.body, &nt.body);
    if ob.kind() != nb.kind() {
        cx.push(
            &rules::TYPE_CHANGED,
            Hurts::Both,
            at,
            format!("{} ({})", show(o), ob.kind()),
            format!("{} ({})", show(n), nb.kind()),
        );
        return;
    }
    if !cx.seen.insert((a.to_string(), b.to_string(), cx.dir)) {
        return;
    }
    let tat = cx.new_at(b);
    type_renamed(cx, a, b, &tat);
    match (ob, nb) {
        (
            TypeBody::Record {
                fields: of,
                entity: oe,
            },
            TypeBody::Record {
                fields: nf,
                entity: ne,
            },
        ) => {
            if cx.old.format >= 2 {
                entity_key(cx, (oe, of), (ne, nf), &tat);
            }
            record(cx, of, nf, &tat)
        }
        (
            TypeBody::Enum {
                open: oo,
                reserved: or,
                variants: ov,
                ..
            },
            TypeBody::Enum {
                open: no,
                reserved: nr,
                variants: nv,
                ..
            },
        ) => enumeration(cx, (*oo, or, ov), (*no, nr, nv), &tat),
        (
            TypeBody::Flags {
                open: oo,
                bits: obits,
                reserved: or,
                ..
            },
            TypeBody::Flags {
                open: no,
                bits: nbits,
                reserved: nr,
                ..
            },
        ) => flags(cx, (*oo, or, obits), (*no, nr, nbits), &tat),
        _ => {}
    }
}

fn delta_form(delta: bool) -> &'static str {
    if delta {
        "delta"
    } else {
        "full"
    }
}

/// An entity's key is judged by its position: renaming the key field alone is a source change
/// (`field-renamed`), while another position, or `entity` turned on or off, changes the delta
/// form.
fn entity_key(
    cx: &mut Cx,
    (old, old_fields): (&Option<String>, &[LockSlot]),
    (new, new_fields): (&Option<String>, &[LockSlot]),
    at: &At,
) {
    let position = |key: &Option<String>, fields: &[LockSlot]| {
        key.as_ref()
            .map(|k| fields.iter().position(|s| &s.name == k))
    };
    if position(old, old_fields) == position(new, new_fields) {
        return;
    }
    let show = |key: &Option<String>| match key {
        Some(k) => format!("entity key {k}"),
        None => "not an entity".to_string(),
    };
    let at = match new.as_ref().or(old.as_ref()) {
        Some(key) => at.member(key),
        None => at.clone(),
    };
    cx.push(
        &rules::ENTITY_KEY_CHANGED,
        Hurts::Both,
        &at,
        show(old),
        show(new),
    );
}

fn show_variant(v: &LockVariant) -> String {
    format!("{} = {}", v.name, v.number)
}

type EnumParts<'a> = (bool, &'a [i64], &'a [LockVariant]);

fn enumeration(
    cx: &mut Cx,
    (old_open, old_reserved, ov): EnumParts,
    (new_open, new_reserved, nv): EnumParts,
    at: &At,
) {
    if old_open && !new_open {
        cx.push(
            &rules::ENUM_CLOSED,
            Hurts::OldToNew,
            at,
            "open".into(),
            "closed".into(),
        );
    }
    let mut matched_new = BTreeSet::new();
    for o in ov {
        let vat = at.member(&o.name);
        if let Some(n) = nv.iter().find(|n| n.name == o.name) {
            matched_new.insert(n.number);
            if n.number != o.number {
                cx.push(
                    &rules::VARIANT_RENUMBERED,
                    Hurts::Both,
                    &vat,
                    show_variant(o),
                    show_variant(n),
                );
            }
            variant_data(cx, o, n, &vat);
        } else if let Some(n) = nv
            .iter()
            .find(|n| n.number == o.number && !ov.iter().any(|x| x.name == n.name))
        {
            matched_new.insert(n.number);
            let nat = at.member(&n.name);
            cx.push(
                &rules::VARIANT_RENAMED,
                Hurts::Both,
                &nat,
                o.name.clone(),
                n.name.clone(),
            );
            variant_data(cx, o, n, &nat);
        } else {
            let reserved = new_reserved.contains(&o.number);
            let hurts = if !reserved {
                Some(Hurts::Both)
            } else if !new_open {
                Some(Hurts::OldToNew)
            } else {
                None
            };
            if let Some(h) = hurts {
                let was = show_variant(o);
                let now = if reserved {
                    format!("{} reserved", o.number)
                } else {
                    String::new()
                };
                cx.push(&rules::VARIANT_REMOVED, h, &vat, was, now);
            }
        }
    }
    for n in nv {
        if matched_new.contains(&n.number) {
            continue;
        }
        let vat = at.member(&n.name);
        if old_reserved.contains(&n.number) || ov.iter().any(|o| o.number == n.number) {
            cx.push(
                &rules::VARIANT_REUSED,
                Hurts::Both,
                &vat,
                format!("{} reserved", n.number),
                show_variant(n),
            );
        } else if !old_open {
            cx.push(
                &rules::ENUM_VALUE_ADDED,
                Hurts::NewToOld,
                &vat,
                String::new(),
                show_variant(n),
            );
        }
    }
}

fn variant_data(cx: &mut Cx, o: &LockVariant, n: &LockVariant, at: &At) {
    if o.shape != n.shape {
        cx.push(
            &rules::TYPE_CHANGED,
            Hurts::Both,
            at,
            format!("{} variant", o.shape),
            format!("{} variant", n.shape),
        );
        return;
    }
    if o.shape != "unit" {
        record(cx, &o.fields, &n.fields, at);
    }
}

type FlagParts<'a> = (bool, &'a [u8], &'a [LockFlag]);

fn flags(
    cx: &mut Cx,
    (old_open, old_reserved, ob): FlagParts,
    (new_open, new_reserved, nb): FlagParts,
    at: &At,
) {
    let show_flag = |f: &LockFlag| format!("{} = bit {}", f.name, f.bit);
    if old_open && !new_open {
        cx.push(
            &rules::FLAGS_CLOSED,
            Hurts::OldToNew,
            at,
            "open".into(),
            "closed".into(),
        );
    }
    let mut matched = BTreeSet::new();
    for o in ob {
        let fat = at.member(&o.name);
        if let Some(n) = nb.iter().find(|n| n.name == o.name) {
            matched.insert(n.bit);
            if n.bit != o.bit {
                cx.push(
                    &rules::FLAG_BIT_MOVED,
                    Hurts::Both,
                    &fat,
                    show_flag(o),
                    show_flag(n),
                );
            }
        } else if let Some(n) = nb
            .iter()
            .find(|n| n.bit == o.bit && !ob.iter().any(|x| x.name == n.name))
        {
            matched.insert(n.bit);
            cx.push(
                &rules::FLAG_RENAMED,
                Hurts::Both,
                &at.member(&n.name),
                o.name.clone(),
                n.name.clone(),
            );
        } else {
            let reserved = new_reserved.contains(&o.bit);
            let hurts = if !reserved {
                Some(Hurts::Both)
            } else if !new_open {
                Some(Hurts::OldToNew)
            } else {
                None
            };
            if let Some(h) = hurts {
                let now = if reserved {
                    format!("bit {} reserved", o.bit)
                } else {
                    String::new()
                };
                cx.push(&rules::FLAG_BIT_REMOVED, h, &fat, show_flag(o), now);
            }
        }
    }
    for n in nb {
        if matched.contains(&n.bit) {
            continue;
        }
        let fat = at.member(&n.name);
        if old_reserved.contains(&n.bit) || ob.iter().any(|o| o.bit == n.bit) {
            cx.push(
                &rules::FLAG_BIT_REUSED,
                Hurts::Both,
                &fat,
                format!("bit {} reserved", n.bit),
                show_flag(n),
            );
        } else if !old_open {
            cx.push(
                &rules::FLAG_BIT_ADDED,
                Hurts::NewToOld,
                &fat,
                String::new(),
                show_flag(n),
            );
        }
    }
}

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

fn show_slot(s: &LockSlot) -> String {
    match &s.ty {
        Some(t) => format!("{}: {}", s.name, show(t)),
        None => format!("reserved {}", s.name),
    }
}

fn show_quant(t: &Ty) -> String {
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

fn show_frange(min: Option<f64>, max: Option<f64>) -> String {
    let f = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
    if min.is_none() && max.is_none() {
        return "any".into();
    }
    format!("{}..={}", f(min), f(max))
}

fn show_len(l: &LockLen) -> String {
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

//! The interpolation keys: `interp(...)` on a message or record -> `ir::Interp`, and the
//! checks of `interp` and `draw` against the fields (ATTRIBUTES.md, "Interpolation").

use proc_macro2::Span;

use super::attr::{Attr, InterpAttr};
use super::ctxt::Ctxt;
use super::spans::{FieldSpans, ItemSpans};
use super::ty::describe;
use crate::interp::shape;
use crate::ir::{Clock, Field, Interp, Record, Slot, TypeRef};
use crate::suggest::did_you_mean;

const CLOCKS: &str = "`interp(key = \"s\", sent = \"t\")` (the sender's own ms), \
                      `interp(tick = \"tick\", rate = 20)` (a server tick at 20 Hz) or \
                      `interp(key = \"id\", arrival)` (no time on the wire: stamped on arrival)";

/// A message's `interp`: exactly one clock.
pub(super) fn message(cx: &Ctxt, a: &Attr<InterpAttr>) -> Option<Interp> {
    let i = &a.value;
    let clocks =
        usize::from(i.sent.is_some()) + usize::from(i.tick.is_some()) + usize::from(i.arrival);
    if clocks == 0 {
        cx.error(
            a.key,
            format!("`interp` on a message needs its sample clock: write {CLOCKS}"),
        );
        return None;
    }
    if clocks > 1 {
        cx.error(
            a.key,
            "`interp` takes one clock: `sent`, `tick` or `arrival`, not several",
        );
        return None;
    }
    let clock = match (&i.sent, &i.tick, i.rate) {
        (Some(f), _, None) => Clock::Sent { field: f.clone() },
        (Some(_), _, Some(_)) => {
            cx.error(
                a.key,
                "`rate` goes with `tick`: the sender's clock (`sent`) is in ms already; drop `rate`",
            );
            return None;
        }
        (None, Some(f), Some(rate)) => Clock::Tick {
            field: f.clone(),
            rate,
        },
        (None, Some(f), None) => {
            cx.error(
                a.key,
                format!("`tick` needs the tick rate: write `interp(tick = \"{f}\", rate = 20)` (ticks per second)"),
            );
            return None;
        }
        (None, None, Some(_)) => {
            cx.error(a.key, "`rate` goes with `tick`; drop it with `arrival`");
            return None;
        }
        (None, None, None) => Clock::Arrival,
    };
    Some(Interp {
        key: i.key.clone(),
        clock,
    })
}

/// A record's `interp`: no clock of its own (its carrier's); the key defaults to the
/// `entity` key.
pub(super) fn record(cx: &Ctxt, a: &Attr<InterpAttr>, entity: Option<&str>) -> Option<Interp> {
    let i = &a.value;
    if i.sent.is_some() || i.tick.is_some() || i.arrival || i.rate.is_some() {
        cx.error(
            a.key,
            "a record's samples take the time of the message carrying them: put the clock on \
             that message (`#[tuplet(interp(tick = \"tick\", rate = 20))]`) and write only \
             `interp` or `interp(key = \"id\")` here",
        );
        return None;
    }
    Some(Interp {
        key: i
            .key
            .clone()
            .or_else(|| entity.filter(|e| !e.is_empty()).map(str::to_owned)),
        clock: Clock::Carrier,
    })
}

/// Checks `interp` and `draw` on a message's or record's fields. `message` says which.
pub(super) fn check(cx: &Ctxt, record: &Record, spans: &ItemSpans, message: bool) {
    let Some(interp) = &record.interp else {
        for (f, sp) in fields(record, &spans.fields) {
            if f.draw.is_some() {
                cx.error(
                    sp.key("draw"),
                    format!(
                        "`draw` takes effect in an interpolated item: add {} to the struct",
                        if message {
                            CLOCKS.to_owned()
                        } else {
                            "`#[tuplet(interp(key = \"id\"))]` (or `interp` beside `entity(key = \"id\")`)"
                                .to_owned()
                        }
                    ),
                );
            }
        }
        return;
    };
    let span = spans.keys.get("interp").copied().unwrap_or(spans.ident);
    let drawn = record.fields().filter(|f| f.draw.is_some()).count();
    match &interp.key {
        Some(key) => check_key(cx, record, key, span),
        None if !message => cx.error(
            span,
            format!(
                "`interp` on a record needs the field naming each entity: write \
                 `interp(key = \"{}\")` or declare `entity(key = \"...\")`; {}",
                keyable(record).first().copied().unwrap_or("id"),
                listed(record, "int and string", keyable)
            ),
        ),
        None if drawn > 0 => cx.error(
            span,
            format!(
                "the drawn fields need the field naming each entity: add `key = \"{}\"` to \
                 `interp`; {}",
                keyable(record).first().copied().unwrap_or("id"),
                listed(record, "int and string", keyable)
            ),
        ),
        None => {}
    }
    if let Some(time) = interp.clock.field() {
        check_time(cx, record, time, span);
    }
    if drawn == 0 && (interp.key.is_some() || !message) {
        cx.error(
            span,
            "nothing is drawn: mark the fields to interpolate with `#[tuplet(draw = \"linear\")]` \
             (positions, speeds), `draw = \"angle\"` (headings) or `draw = \"hold\"` (enums, ids)",
        );
    }
    for (f, sp) in fields(record, &spans.fields) {
        let Some(draw) = f.draw else { continue };
        let at = sp.key("draw");
        if Some(&f.name) == interp.key.as_ref() || Some(f.name.as_str()) == interp.clock.field() {
            cx.error(
                at,
                format!(
                    "field `{}` is the item's key or time; it is not drawn: drop `draw`",
                    f.name
                ),
            );
            continue;
        }
        if let Err(what) = shape(&f.ty, draw) {
            cx.error(at, format!("{what}; found `{}`", describe(&f.ty)));
        }
    }
}

/// `draw` on the field of an enum variant: it has no interpolator.
pub(super) fn check_no_draw(cx: &Ctxt, record: &Record, spans: &[FieldSpans]) {
    for (f, sp) in fields(record, spans) {
        if f.draw.is_some() {
            cx.error(
                sp.key("draw"),
                "`draw` applies to the fields of an `interp` message or record, not of an enum \
                 variant; drop it",
            );
        }
    }
}

/// A newtype variant's value cannot be drawn either.
pub(super) fn check_no_draw_field(cx: &Ctxt, f: &Field, sp: &FieldSpans) {
    if f.draw.is_some() {
        cx.error(
            sp.key("draw"),
            "`draw` applies to the fields of an `interp` message or record, not of an enum \
             variant; drop it",
        );
    }
}

fn fields<'a>(
    record: &'a Record,
    spans: &'a [FieldSpans],
) -> impl Iterator<Item = (&'a Field, &'a FieldSpans)> {
    record
        .slots
        .iter()
        .zip(spans)
        .filter_map(|(s, sp)| match s {
            Slot::Field(f) => Some((f, sp)),
            Slot::Reserved(_) => None,
        })
}

fn field<'a>(record: &'a Record, name: &str) -> Option<&'a Field> {
    record.fields().find(|f| f.name == name)
}

fn keyable(record: &Record) -> Vec<&str> {
    record
        .fields()
        .filter(|f| matches!(f.ty, TypeRef::Int(_) | TypeRef::String { .. }))
        .map(|f| f.name.as_str())
        .collect()
}

fn ints(record: &Record) -> Vec<&str> {
    record
        .fields()
        .filter(|f| matches!(f.ty, TypeRef::Int(_)))
        .map(|f| f.name.as_str())
        .collect()
}

fn listed<'a>(record: &'a Record, what: &str, pick: fn(&'a Record) -> Vec<&'a str>) -> String {
    let names = pick(record);
    if names.is_empty() {
        format!("this item has no {what} field")
    } else {
        format!("its {what} fields: {}", names.join(", "))
    }
}

/// The key names an int or string field.
fn check_key(cx: &Ctxt, record: &Record, key: &str, span: Span) {
    let list = listed(record, "int and string", keyable);
    match field(record, key) {
        None => {
            let near = did_you_mean(key, keyable(record));
            cx.error(
                span,
                format!("interp key `{key}` names no field of this item; {near}{list}"),
            );
        }
        Some(f) if !matches!(f.ty, TypeRef::Int(_) | TypeRef::String { .. }) => cx.error(
            span,
            format!(
                "interp key `{key}` must be an int or string field (present in every sample); \
                 found `{}`; {list}",
                describe(&f.ty)
            ),
        ),
        Some(_) => {}
    }
}

/// The time field is an int (ms or ticks), present in every sample.
fn check_time(cx: &Ctxt, record: &Record, time: &str, span: Span) {
    let list = listed(record, "int", ints);
    match field(record, time) {
        None => {
            let near = did_you_mean(time, ints(record));
            cx.error(
                span,
                format!("interp time `{time}` names no field of this item; {near}{list}"),
            );
        }
        Some(f) if !matches!(f.ty, TypeRef::Int(_)) => cx.error(
            span,
            format!(
                "interp time `{time}` must be an int field (ms, or ticks with `tick`), present \
                 in every sample; found `{}`; {list}",
                describe(&f.ty)
            ),
        ),
        Some(_) => {}
    }
}

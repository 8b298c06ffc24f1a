//! Interpolation adapters (ATTRIBUTES.md "Interpolation", docs/netcode.md): per message or
//! record declared `interp`, a constant `X$interp` the runtime's `InterpolatedSet` and the
//! feeding helpers of `interp_adapter.ts` take. An item with drawn fields gets an
//! `InterpAdapter<X, K>` (layout, key, time, write, read); a message that only carries drawn
//! records (`world:snapshot`) gets an `InterpClock<X>` (its clock and sample time).
//!
//! The channels are the ones `tuplet_schema::interp::InterpPlan` assigns, the same the derive
//! writes in Rust: linear first, then angle, then hold, each group in declaration order.
//! Every constant is an object literal of arrow functions: no side effects, so a bundle that
//! does not use it drops it.

use tuplet_schema::interp::{InterpPlan, Scalar, Shape};
use tuplet_schema::ir::{Clock, Draw, ItemKind, Record};

use super::common::{lit, Out};
use super::generator::Gen;
use super::types::ts_type;

/// `X$interp` of an `interp` item, or nothing.
pub fn adapter(g: &mut Gen, ident: &str, record: &Record) -> String {
    let Some(plan) = InterpPlan::of(record) else {
        return String::new();
    };
    let (clock, rate) = clock(&plan.interp.clock);
    let time = match &plan.interp.clock {
        Clock::Sent { field } => format!("(v) => v.{field}"),
        Clock::Tick { field, rate } => format!("(v) => (v.{field} * 1000) / {rate}"),
        Clock::Arrival | Clock::Carrier => "() => NaN".to_owned(),
    };
    let Some(key) = plan.key else {
        let ty = g.rt_type("InterpClock");
        return format!(
            "/**\n * The sample clock of `{ident}` ({}): the records it carries are drawn at its time\n * (ATTRIBUTES.md, \"Interpolation\").\n */\nexport const {ident}$interp: {ty}<{ident}> = {{\n  clock: {clock},\n  rate: {rate},\n  time: {time},\n}};\n\n",
            describe(&plan.interp.clock)
        );
    };
    let key_ty = ts_type(g, &key.ty);
    let ty = g.rt_type("InterpAdapter");
    let base = |d: Draw| match d {
        Draw::Linear => 0,
        Draw::Angle => plan.layout.linear,
        Draw::Hold => plan.layout.linear + plan.layout.angle,
    };
    let mut write = Out::at(2);
    let mut read = Out::at(2);
    let mut channels = Vec::new();
    for d in &plan.drawn {
        let at = base(d.draw) + d.offset;
        let name = &d.field.name;
        channels.push(format!(
            "{} `{name}` ({})",
            d.draw.as_str(),
            if d.shape.channels() == 1 {
                at.to_string()
            } else {
                format!("{at}..{}", at + d.shape.channels())
            }
        ));
        match &d.shape {
            Shape::One(s) => {
                write.line(format!("c[{at}] = {};", to_num(g, s, &format!("v.{name}"))));
                from_num(g, &mut read, s, &format!("o.{name}"), &format!("c[{at}]!"));
            }
            Shape::Opt(s) => {
                write.line(format!(
                    "c[{at}] = v.{name} === undefined ? NaN : {};",
                    to_num(g, s, &format!("v.{name}"))
                ));
                read.line(format!("if (c[{at}] !== c[{at}]) delete o.{name};"));
                read.open("else {");
                from_num(g, &mut read, s, &format!("o.{name}"), &format!("c[{at}]!"));
                read.close("}");
            }
            Shape::Array(s, n) => {
                for i in 0..*n {
                    let el = format!("v.{name}[{i}]{}", if *n > 16 { "!" } else { "" });
                    write.line(format!("c[{}] = {};", at + i, to_num(g, s, &el)));
                    from_num(
                        g,
                        &mut read,
                        s,
                        &format!("o.{name}[{i}]"),
                        &format!("c[{}]!", at + i),
                    );
                }
            }
        }
    }
    let (linear, angle, hold) = (plan.layout.linear, plan.layout.angle, plan.layout.hold);
    let read = read.finish();
    format!(
        "/**\n * How `{ident}` is drawn between samples (ATTRIBUTES.md, \"Interpolation\"): key `{key}`, {}.\n * Channels: {}.\n */\nexport const {ident}$interp: {ty}<{ident}, {key_ty}> = {{\n  layout: {{ linear: {linear}, angle: {angle}, hold: {hold} }},\n  clock: {clock},\n  rate: {rate},\n  key: (v) => v.{key},\n  time: {time},\n  write(v, c) {{\n{}  }},\n  read(c, o) {{\n{read}  }},\n}};\n\n",
        describe(&plan.interp.clock),
        channels.join(", "),
        write.finish(),
        key = key.name,
    )
}

fn clock(c: &Clock) -> (String, u32) {
    match c {
        Clock::Sent { .. } => (lit("sent"), 0),
        Clock::Tick { rate, .. } => (lit("tick"), *rate),
        Clock::Arrival => (lit("arrival"), 0),
        Clock::Carrier => (lit("carrier"), 0),
    }
}

fn describe(c: &Clock) -> String {
    match c {
        Clock::Sent { field } => format!("time `{field}` on the sender's clock (ms)"),
        Clock::Tick { field, rate } => format!("time `{field}`: server ticks at {rate} Hz"),
        Clock::Arrival => "stamped on arrival (no time on the wire)".to_owned(),
        Clock::Carrier => "the time of the message carrying it".to_owned(),
    }
}

/// The channel value of `e`, a value of `s`.
fn to_num(g: &mut Gen, s: &Scalar, e: &str) -> String {
    match s {
        Scalar::Float { .. } | Scalar::Int(_) => e.to_owned(),
        Scalar::Bool => format!("({e} ? 1 : 0)"),
        Scalar::Named(path) => match &g.item_at(path).item.kind {
            ItemKind::Enum(_) => format!("Number({}({e}))", g.fn_ref(path, "num")),
            ItemKind::Flags(_) => format!("{}({e})", g.fn_ref(path, "bits")),
            _ => "NaN".to_owned(),
        },
    }
}

/// Writes channel `c` (a number) back into the place `o` as a value of `s`.
fn from_num(g: &mut Gen, out: &mut Out, s: &Scalar, o: &str, c: &str) {
    match s {
        Scalar::Float { .. } | Scalar::Int(_) => out.line(format!("{o} = {c};")),
        Scalar::Bool => out.line(format!("{o} = {c} !== 0;")),
        Scalar::Named(path) => {
            let item = g.item_at(path);
            match &item.item.kind {
                ItemKind::Enum(e) => {
                    let f = g.rt("unitOf");
                    let numbers = g.fn_ref(path, "numbers");
                    let ty = g.type_ref(path);
                    let open = if e.unknown.is_some() { "true" } else { "false" };
                    out.line(format!("{o} = {f}({numbers}, {c}, {open}) as {ty};"));
                }
                ItemKind::Flags(f) => {
                    // In place when the value has its flags object, so steady state allocates
                    // nothing; a new object only when it had none.
                    let ty = g.type_ref(path);
                    let n = g.fresh("n");
                    out.line(format!("const {n} = {c};"));
                    let fields: Vec<String> = f
                        .bits
                        .iter()
                        .map(|b| format!("{}: ({n} & {}) !== 0", b.name, 1u64 << b.bit))
                        .collect();
                    out.line(format!(
                        "if ({o} === undefined) {o} = {{ {} }} as {ty};",
                        fields.join(", ")
                    ));
                    out.open("else {");
                    for b in &f.bits {
                        out.line(format!("{o}.{} = ({n} & {}) !== 0;", b.name, 1u64 << b.bit));
                    }
                    out.close("}");
                }
                _ => {}
            }
        }
    }
}

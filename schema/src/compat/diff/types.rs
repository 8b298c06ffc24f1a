//! A field's type: options, ints, floats, quantization, lengths, arrays, maps, and the
//! named types they reach (records, enums, flag sets), each judged once per direction.

use super::finding::{At, Cx};
use super::show::{show, show_frange, show_len, show_quant};
use crate::compat::lock::{LockLen, Ty, TypeBody};
use crate::compat::rules::{self, Hurts, Rule};

impl Cx<'_> {
    #[allow(clippy::too_many_arguments)]
    fn range_findings<T: PartialOrd>(
        &mut self,
        (omin, omax): (T, T),
        (nmin, nmax): (T, T),
        narrowed: &Rule,
        widened: &Rule,
        at: &At,
        was: String,
        now: String,
    ) {
        if nmin > omin || nmax < omax {
            self.push(narrowed, Hurts::OldToNew, at, was.clone(), now.clone());
        }
        if nmin < omin || nmax > omax {
            self.push(widened, Hurts::NewToOld, at, was, now);
        }
    }

    pub(super) fn ty(&mut self, o: &Ty, n: &Ty, at: &At) {
        match (o, n) {
            (Ty::Option { inner: a }, Ty::Option { inner: b }) => self.ty(a, b, at),
            (Ty::Option { inner: a }, b) => {
                self.push(&rules::MADE_REQUIRED, Hurts::OldToNew, at, show(o), show(n));
                self.ty(a, b, at)
            }
            (a, Ty::Option { inner: b }) => {
                self.push(&rules::MADE_OPTIONAL, Hurts::NewToOld, at, show(o), show(n));
                self.ty(a, b, at)
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
                    self.push(&rules::INT_TYPE_CHANGED, Hurts::Both, at, show(o), show(n));
                }
                self.range_findings(
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
                    self.push(&rules::TYPE_CHANGED, Hurts::Both, at, show(o), show(n));
                    return;
                }
                let b = |lo: &Option<f64>, hi: &Option<f64>| {
                    (lo.unwrap_or(f64::NEG_INFINITY), hi.unwrap_or(f64::INFINITY))
                };
                self.range_findings(
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
                    self.push(&rules::TYPE_CHANGED, Hurts::Both, at, show(o), show(n));
                } else if os != ns {
                    self.push(
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
                    self.range_findings(
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
                self.push(
                    &rules::QUANT_CHANGED,
                    Hurts::Both,
                    at,
                    show_quant(o),
                    show_quant(n),
                );
            }
            (Ty::String { len: a }, Ty::String { len: b })
            | (Ty::Bytes { len: a }, Ty::Bytes { len: b }) => self.len(a, b, at),
            (Ty::Vec { inner: a, len: la }, Ty::Vec { inner: b, len: lb }) => {
                self.len(la, lb, at);
                self.ty(a, b, at)
            }
            (Ty::Array { inner: a, len: la }, Ty::Array { inner: b, len: lb }) => {
                if la != lb {
                    self.push(&rules::TYPE_CHANGED, Hurts::Both, at, show(o), show(n));
                } else {
                    self.ty(a, b, at)
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
                self.len(la, lb, at);
                match (&**ka, &**kb) {
                    // `key_len`: judged as any length, shown as the key's.
                    (Ty::String { len: a }, Ty::String { len: b }) => self.range_findings(
                        a.bounds(),
                        b.bounds(),
                        &rules::LEN_NARROWED,
                        &rules::LEN_WIDENED,
                        at,
                        format!("key {}", show_len(a)),
                        format!("key {}", show_len(b)),
                    ),
                    _ => self.ty(ka, kb, at),
                }
                self.ty(va, vb, at)
            }
            (Ty::Named { path: a }, Ty::Named { path: b }) => self.named(a, b, at, o, n),
            _ => self.push(&rules::TYPE_CHANGED, Hurts::Both, at, show(o), show(n)),
        }
    }

    fn len(&mut self, o: &LockLen, n: &LockLen, at: &At) {
        self.range_findings(
            o.bounds(),
            n.bounds(),
            &rules::LEN_NARROWED,
            &rules::LEN_WIDENED,
            at,
            show_len(o),
            show_len(n),
        );
    }

    fn named(&mut self, a: &str, b: &str, at: &At, o: &Ty, n: &Ty) {
        let (Some(ot), Some(nt)) = (self.old.types.get(a), self.new.types.get(b)) else {
            return;
        };
        let (ob, nb) = (&ot.body, &nt.body);
        if ob.kind() != nb.kind() {
            self.push(
                &rules::TYPE_CHANGED,
                Hurts::Both,
                at,
                format!("{} ({})", show(o), ob.kind()),
                format!("{} ({})", show(n), nb.kind()),
            );
            return;
        }
        if !self.seen.insert((a.to_string(), b.to_string(), self.dir)) {
            return;
        }
        let tat = self.new_at(b);
        self.type_renamed(a, b, &tat);
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
                if self.old.format >= 2 {
                    self.entity_key((oe, of), (ne, nf), &tat);
                }
                self.record(of, nf, &tat)
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
            ) => self.enumeration((*oo, or, ov), (*no, nr, nv), &tat),
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
            ) => self.flags((*oo, or, obits), (*no, nr, nbits), &tat),
            _ => {}
        }
    }
}

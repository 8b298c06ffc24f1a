//! The interpolation plan of an `interp` item: which fields are drawn, how, and where each
//! lands in the channel arrays. The derive (Rust adapters) and the TypeScript emitter both
//! read it, so the two languages put the same value into the same channels.
//!
//! Channels come in three groups (`linear`, `angle`, `hold`), each an array of f64. Within a
//! group the drawn fields take consecutive channels in declaration order, a fixed array one
//! channel per element. An `Option` field takes one channel per element too, NaN while the
//! value is absent.

use crate::ir::{Clock, Draw, Field, IntPrim, Interp, Record, TypeRef};

/// Channel counts per group: the shape of an interpolator's sample.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChannelLayout {
    /// Linearly drawn channels (positions, speeds).
    pub linear: u32,
    /// Angles on the shortest arc (radians).
    pub angle: u32,
    /// Held values (enum numbers, ids, flags).
    pub hold: u32,
}

impl ChannelLayout {
    /// The count of the group `draw` selects.
    pub fn get(&self, draw: Draw) -> u32 {
        match draw {
            Draw::Linear => self.linear,
            Draw::Angle => self.angle,
            Draw::Hold => self.hold,
        }
    }

    fn get_mut(&mut self, draw: Draw) -> &mut u32 {
        match draw {
            Draw::Linear => &mut self.linear,
            Draw::Angle => &mut self.angle,
            Draw::Hold => &mut self.hold,
        }
    }
}

/// The scalar a drawn channel holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scalar {
    /// `f32` or `f64` (raw or quantized: drawn in natural units).
    Float {
        /// 32 or 64.
        bits: u8,
    },
    /// An int, as its value.
    Int(IntPrim),
    /// `bool`, as 0 or 1.
    Bool,
    /// A unit enum (its number) or a flag set (its bits), by path as written.
    Named(String),
}

/// The shape of a drawn field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// One value: one channel.
    One(Scalar),
    /// `Option<T>`: one channel, NaN while absent.
    Opt(Scalar),
    /// `[T; N]`: N channels.
    Array(Scalar, u32),
}

impl Shape {
    /// How many channels the field takes.
    pub fn channels(&self) -> u32 {
        match self {
            Shape::One(_) | Shape::Opt(_) => 1,
            Shape::Array(_, n) => *n,
        }
    }

    /// The scalar under the shape.
    pub fn scalar(&self) -> &Scalar {
        match self {
            Shape::One(s) | Shape::Opt(s) | Shape::Array(s, _) => s,
        }
    }
}

/// One drawn field and its channels.
#[derive(Debug, Clone)]
pub struct Drawn<'a> {
    /// The field.
    pub field: &'a Field,
    /// Its group.
    pub draw: Draw,
    /// Its shape.
    pub shape: Shape,
    /// Its first channel within the group.
    pub offset: u32,
}

/// The plan of one `interp` record or message.
#[derive(Debug, Clone)]
pub struct InterpPlan<'a> {
    /// The declaration.
    pub interp: &'a Interp,
    /// The key field, if the item names one.
    pub key: Option<&'a Field>,
    /// The time field, for the `sent` and `tick` clocks.
    pub time: Option<&'a Field>,
    /// The drawn fields, in declaration order.
    pub drawn: Vec<Drawn<'a>>,
    /// Channel counts.
    pub layout: ChannelLayout,
}

impl<'a> InterpPlan<'a> {
    /// The plan of `record`, `None` unless it is declared `interp`. Fields whose type
    /// cannot be drawn are left out (the grammar's checks refuse them).
    pub fn of(record: &'a Record) -> Option<InterpPlan<'a>> {
        let interp = record.interp.as_ref()?;
        let find = |name: &str| record.fields().find(|f| f.name == name);
        let mut layout = ChannelLayout::default();
        let mut drawn = Vec::new();
        for f in record.fields() {
            let Some(draw) = f.draw else { continue };
            let Ok(shape) = shape(&f.ty, draw) else {
                continue;
            };
            let slot = layout.get_mut(draw);
            let offset = *slot;
            *slot += shape.channels();
            drawn.push(Drawn {
                field: f,
                draw,
                shape,
                offset,
            });
        }
        Some(InterpPlan {
            interp,
            key: interp.key.as_deref().and_then(find),
            time: interp.clock.field().and_then(find),
            drawn,
            layout,
        })
    }

    /// The tick rate, for the `tick` clock.
    pub fn tick_rate(&self) -> Option<u32> {
        match self.interp.clock {
            Clock::Tick { rate, .. } => Some(rate),
            _ => None,
        }
    }
}

/// The shape of a field drawn as `draw`, or what is wrong with its type (the end of an
/// error message: "`angle` applies to ...; found ...").
pub fn shape(ty: &TypeRef, draw: Draw) -> Result<Shape, String> {
    let scalar = |t: &TypeRef| -> Option<Scalar> {
        match (t, draw) {
            (TypeRef::Float(f), _) => Some(Scalar::Float { bits: f.bits }),
            (TypeRef::Int(i), Draw::Hold) if !i.bigint => Some(Scalar::Int(i.prim)),
            (TypeRef::Bool, Draw::Hold) => Some(Scalar::Bool),
            (TypeRef::Named { path }, Draw::Hold) => Some(Scalar::Named(path.clone())),
            _ => None,
        }
    };
    let found = match ty {
        TypeRef::Option { inner } => scalar(inner).map(Shape::Opt),
        TypeRef::Array { inner, len } => scalar(inner).map(|s| Shape::Array(s, *len)),
        t => scalar(t).map(Shape::One),
    };
    found.ok_or_else(|| match draw {
        Draw::Linear | Draw::Angle => format!(
            "`{}` applies to f32/f64 fields (also `Option` and fixed arrays of them)",
            draw.as_str()
        ),
        Draw::Hold => "`hold` applies to bool, int (not `bigint`), unit enum and flags fields \
                       (also `Option` and fixed arrays of them)"
            .to_owned(),
    })
}

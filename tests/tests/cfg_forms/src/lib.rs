//! Every `cfg` / `cfg_attr` form whose predicate is the same in every build, on tuplet types,
//! fields and variants. `cfg_agrees.rs` compiles this file with the derive and loads it with
//! the loader, and compares the two IRs type by type.

// The forms are written to be tested, not minimal.
#![allow(clippy::non_minimal_cfg)]

/// `cfg_attr` carrying the tuplet derive and the message's attributes.
#[cfg_attr(all(), derive(Debug, Clone, PartialEq, tuplet::Message))]
#[cfg_attr(not(any()), tuplet(name = "cfg:say", id = 1, dir = "c2s"))]
#[cfg_attr(any(), tuplet(budget = 4))]
#[cfg(all())]
pub struct Say {
    /// A bound inside `cfg_attr` that holds.
    #[cfg_attr(all(), tuplet(len(max = 120)))]
    pub text: String,
    /// A bound inside `cfg_attr` that never holds, beside one written plainly.
    #[cfg_attr(any(), tuplet(len(max = 5)))]
    #[tuplet(len(max = 9))]
    pub short: String,
    /// A field that exists in no build.
    #[cfg(any())]
    pub gone: u8,
    /// A field under `cfg` that holds, nested predicates.
    #[cfg(all(not(any()), any(all(), any())))]
    pub kept: u8,
    /// A false predicate nested in `all`.
    #[cfg(all(all(), any()))]
    pub also_gone: u16,
    /// `cfg_attr` inside `cfg_attr`, several attributes in one.
    #[cfg_attr(all(), cfg_attr(not(any()), doc = "more text", tuplet(range(0, 50))))]
    pub hp: u8,
}

/// A record with a documentation line only some `cfg_attr` adds.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
#[cfg_attr(all(), doc = "Added by cfg_attr.")]
#[cfg_attr(any(), doc = "Never added.")]
pub struct Spot {
    /// A field.
    pub x: i16,
    #[cfg(any())]
    pub y: i16,
}

/// Unit variants under `cfg`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Mood {
    /// Kept.
    Calm = 0,
    /// In no build.
    #[cfg(any())]
    Angry = 1,
    /// Kept by a predicate that holds.
    #[cfg(not(any()))]
    Happy = 2,
}

/// Variants with data: `cfg` and `cfg_attr` on variants and their fields.
#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
pub enum Body {
    /// A tag through `cfg_attr`.
    #[cfg_attr(all(), tuplet(tag = 1))]
    Text(#[cfg_attr(all(), tuplet(len(max = 40)))] String),
    /// In no build.
    #[cfg(any())]
    #[tuplet(tag = 2)]
    Gone(u8),
    /// A struct variant with a field in no build.
    #[tuplet(tag = 3)]
    Pair {
        /// Kept.
        a: u8,
        /// In no build.
        #[cfg(any())]
        b: u8,
    },
}

/// A flag set with a bit in no build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u8")]
pub struct Marks {
    /// Bit 0.
    #[tuplet(bit = 0)]
    pub one: bool,
    /// In no build.
    #[cfg(any())]
    #[tuplet(bit = 1)]
    pub two: bool,
    /// Bit 2 through `cfg_attr`.
    #[cfg_attr(all(), tuplet(bit = 2))]
    pub three: bool,
}

/// A message using them.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "cfg:state", id = 2, dir = "s2c")]
pub struct State {
    /// A record.
    pub spot: Spot,
    /// A unit enum.
    pub mood: Mood,
    /// An enum with data.
    pub body: Body,
    /// Flags.
    pub marks: Marks,
}

/// A type the loader must not see: its tuplet derive is under a `cfg_attr` that never holds.
#[cfg_attr(any(), derive(tuplet::Record))]
pub struct NotTuplet {
    /// A field.
    pub a: u8,
}

/// A tuplet type in no build: neither the derive nor the loader sees it.
#[cfg(any())]
#[derive(tuplet::Record)]
pub struct Never {
    /// A field.
    pub a: u8,
}

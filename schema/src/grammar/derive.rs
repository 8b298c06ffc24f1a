//! The derives that read items: each has its own container keys and shape.

/// Which derive is reading the item; it decides the valid container keys and the shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Derive {
    /// `#[derive(tuplet::Message)]` on a struct with named fields.
    Message,
    /// `#[derive(tuplet::Record)]` on a struct with named fields.
    Record,
    /// `#[derive(tuplet::Enum)]` on an enum (unit, or with data).
    Enum,
    /// `#[derive(tuplet::Flags)]` on a struct of `bool` fields.
    Flags,
    /// `#[derive(tuplet::Dispatch)]` on an enum of newtype variants holding messages.
    Dispatch,
}

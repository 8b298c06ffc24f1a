//! Derive macros for tuplet. Parsing and checks live in `tuplet-schema`; this crate only
//! turns the IR into Rust. A broken item gives its errors plus stub impls
//! (the `fallback` module), so the user sees the real error, not a cascade of missing impls.

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};
use tuplet_schema::Derive;

mod emit;
mod fallback;

/// A top-level message: `#[tuplet(name = "player:move", id = 1, dir = "c2s")]`.
#[proc_macro_derive(Message, attributes(tuplet))]
pub fn derive_message(input: TokenStream) -> TokenStream {
    expand(parse_macro_input!(input as DeriveInput), Derive::Message)
}

/// A nested record, encoded as a positional array.
#[proc_macro_derive(Record, attributes(tuplet))]
pub fn derive_record(input: TokenStream) -> TokenStream {
    expand(parse_macro_input!(input as DeriveInput), Derive::Record)
}

/// A unit enum (explicit discriminants) or an enum with data (`#[tuplet(tag = N)]`).
#[proc_macro_derive(Enum, attributes(tuplet))]
pub fn derive_enum(input: TokenStream) -> TokenStream {
    expand(parse_macro_input!(input as DeriveInput), Derive::Enum)
}

/// A flag set: `bool` fields with `#[tuplet(bit = N)]`, one uint on the wire.
#[proc_macro_derive(Flags, attributes(tuplet))]
pub fn derive_flags(input: TokenStream) -> TokenStream {
    expand(parse_macro_input!(input as DeriveInput), Derive::Flags)
}

/// A dispatch enum: one newtype variant per message of one direction.
#[proc_macro_derive(Dispatch, attributes(tuplet))]
pub fn derive_dispatch(input: TokenStream) -> TokenStream {
    expand(parse_macro_input!(input as DeriveInput), Derive::Dispatch)
}

/// Parse, check, then emit; on error, the errors and the stubs.
fn expand(input: DeriveInput, derive: Derive) -> TokenStream {
    match tuplet_schema::parse_item(&input, derive) {
        Ok(item) => emit::item(&item, &input),
        Err(err) => {
            let mut out = err.to_compile_error();
            out.extend(fallback::stubs(&input, derive));
            out
        }
    }
    .into()
}

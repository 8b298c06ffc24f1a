//! The path steps the emitted code adds to an error or an issue: a field or an element,
//! and the chain of steps a nested read returns its error with.

use proc_macro2::TokenStream;
use quote::quote;

use super::common::rt;

/// The path step of a validated value: a record's field, or an element (its index, a
/// `usize` expression).
pub enum Step {
    /// A field, by its canonical name.
    Field(String),
    /// An element of a list or an array.
    Index(TokenStream),
}

impl Step {
    /// The runtime's `Seg` of the step.
    pub fn seg(&self) -> TokenStream {
        let rt = rt();
        match self {
            Step::Field(name) => quote!(#rt::Seg::Field(#name)),
            Step::Index(i) => quote!(#rt::Seg::Index(#i as u32)),
        }
    }

    /// A statement pushing the issue of `res` (a check's `Result`), if any, at `path` plus
    /// the step: one call (the runtime's `issue_at_field` / `issue_at_index`), the `Seg`
    /// built only for an issue.
    pub fn issue(&self, res: TokenStream) -> TokenStream {
        let rt = rt();
        match self {
            Step::Field(name) => quote!(#rt::issue_at_field(path, issues, #name, #res);),
            Step::Index(i) => quote!(#rt::issue_at_index(path, issues, #i, #res);),
        }
    }
}

/// The path steps an error gains on its way out of a decode expression, innermost first
/// (`in_index(i1)`, then `in_field("pos")`). Each fallible read under them matches its
/// `Result` and returns the error with the steps added (`Error`'s cold `in_*` methods):
/// no closure per field or element to catch a `?`, which cost a function per field.
#[derive(Clone, Default)]
pub struct Steps(Vec<TokenStream>);

impl Steps {
    /// The step of a record's field.
    pub fn field(name: &str) -> Steps {
        Steps(vec![quote!(in_field(#name))])
    }

    /// These steps with `step` (an `Error` method call) innermost.
    pub fn within(&self, step: TokenStream) -> Steps {
        let mut all = vec![step];
        all.extend(self.0.iter().cloned());
        Steps(all)
    }

    /// How many steps: the nesting depth, which names the loop variables of nested
    /// containers apart (`i0`, `k1`) so a step refers to its own container's.
    pub fn depth(&self) -> usize {
        self.0.len()
    }

    /// `res` (a `Result<_, Error>` expression) unwrapped; its error returned with the
    /// steps (plain `?` when there are none).
    pub fn try_(&self, res: TokenStream) -> TokenStream {
        if self.0.is_empty() {
            return quote!(#res?);
        }
        let steps = &self.0;
        quote!(match #res { Ok(ok) => ok, Err(e) => return Err(e #(.#steps)*) })
    }

    /// A statement returning the error `err` with the steps.
    pub fn fail(&self, err: TokenStream) -> TokenStream {
        let steps = &self.0;
        quote!(return Err(#err #(.#steps)*);)
    }
}

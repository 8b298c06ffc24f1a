//! Literal parsers shared by the attribute keys: signed numbers, bracketed lists.

use proc_macro2::Span;
use syn::parse::ParseStream;
use syn::{bracketed, LitFloat, LitInt, LitStr, Token};

/// A number as written: an int literal or a float literal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    /// An int literal (`5000`, `-3`).
    Int(i128),
    /// A float literal (`-3.1416`).
    Float(f64),
}

impl Num {
    /// The value as f64 (ints convert, possibly rounding beyond 2^53).
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// A number with the span of its literal.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NumLit {
    /// Where it was written.
    pub span: Span,
    /// Its value.
    pub num: Num,
}

/// `5000`, `-5000`, `3.1416`, `-3.1416`.
pub(crate) fn num(input: ParseStream) -> syn::Result<NumLit> {
    let neg = input.parse::<Option<Token![-]>>()?.is_some();
    let lookahead = input.lookahead1();
    if lookahead.peek(LitInt) {
        let lit: LitInt = input.parse()?;
        let v: i128 = lit.base10_parse()?;
        Ok(NumLit {
            span: lit.span(),
            num: Num::Int(if neg { -v } else { v }),
        })
    } else if lookahead.peek(LitFloat) {
        let lit: LitFloat = input.parse()?;
        let v: f64 = lit.base10_parse()?;
        if !v.is_finite() {
            return Err(syn::Error::new(lit.span(), "expected a finite number"));
        }
        Ok(NumLit {
            span: lit.span(),
            num: Num::Float(if neg { -v } else { v }),
        })
    } else {
        Err(lookahead.error())
    }
}

/// `[3, -4]`: signed int literals, with their spans.
pub(crate) fn int_list(input: ParseStream) -> syn::Result<Vec<(i128, Span)>> {
    let content;
    bracketed!(content in input);
    let mut out = Vec::new();
    while !content.is_empty() {
        let n = num(&content)?;
        match n.num {
            Num::Int(v) => out.push((v, n.span)),
            Num::Float(_) => return Err(syn::Error::new(n.span, "expected an integer")),
        }
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok(out)
}

/// `["a", "b"]`: string literals.
pub(crate) fn str_list(input: ParseStream) -> syn::Result<Vec<LitStr>> {
    let content;
    bracketed!(content in input);
    let list = content.parse_terminated(|s| s.parse::<LitStr>(), Token![,])?;
    Ok(list.into_iter().collect())
}

//! Cross-crate and cross-language tests for tuplet. The library holds the test protocols
//! the test files share; the tests live in `tests/tests/`.

#![allow(missing_docs)]

pub mod kinds;
pub mod proto;

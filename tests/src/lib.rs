//! Cross-crate and cross-language tests live in `tests/tests/`.

//! The fuzzers' committed corpora: `fuzz/corpus/TARGET.b64`, one input per line in standard
//! base64 (written by `fuzz/corpus.py`, which also unpacks them into folders for libFuzzer).

use std::path::Path;

use base64::Engine;

/// Every committed input of the fuzz target `target`, in the file's order.
///
/// # Panics
/// If the file is missing or a line is not base64: the corpus is part of the repository.
pub fn inputs(target: &str) -> Vec<Vec<u8>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(format!("{target}.b64"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the committed corpus {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            base64::engine::general_purpose::STANDARD
                .decode(line)
                .unwrap_or_else(|e| panic!("{}:{}: not base64: {e}", path.display(), i + 1))
        })
        .collect()
}

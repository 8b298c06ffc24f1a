//! The size table in README.md is what `cargo run -p village --example sizes` prints.

#[path = "../examples/sizes.rs"]
mod sizes;

#[test]
fn readme_quotes_the_current_size_table() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let table = sizes::table();
    assert!(
        readme.contains(&table),
        "examples/village/README.md is stale: paste the output of `cargo run -p village --example sizes`"
    );
}

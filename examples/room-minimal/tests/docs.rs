//! docs/server.md walks through this server from its source: each of its `rust,ignore`
//! blocks (rustdoc does not compile them as doctests of the guide) starts with
//! `// examples/room-minimal/src/FILE` and must be a run of whole lines of FILE, as
//! written: the walk-through compiles because these files do.

use std::path::Path;

#[test]
fn the_walk_through_in_docs_server_md_is_this_source() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/server.md")).unwrap();
    let mut quoted = 0;
    for block in doc.split("```rust,ignore\n").skip(1) {
        let block = &block[..block.find("```").expect("a closed block")];
        let (first, body) = block.split_once('\n').unwrap_or((block, ""));
        let file = (first.strip_prefix("// "))
            .filter(|f| f.starts_with("examples/room-minimal/src/"))
            .unwrap_or_else(|| panic!("a rust,ignore block names no file: {first}"));
        let source = std::fs::read_to_string(root.join(file))
            .unwrap_or_else(|e| panic!("docs/server.md quotes {file}: {e}"));
        let lines: Vec<&str> = source.lines().collect();
        let quote: Vec<&str> = body.lines().collect();
        let found = lines.windows(quote.len()).any(|w| w == quote.as_slice());
        assert!(found, "docs/server.md quotes {file}, which does not hold:\n{body}");
        quoted += 1;
    }
    // The walk-through's steps: accept, rooms, dispatch, hello, relay, playout and ack,
    // snapshot, queues.
    assert!(quoted >= 8, "docs/server.md quotes {quoted} blocks of the minimal server");
}

//! Differential: the derived decoders and the CLI's IR-driven codec (an independent second
//! implementation) must agree on any bytes: both accept with the same value, or both reject
//! with the same code and path.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tuplet::Dispatch;
use tuplet_schema::ResolvedSchema;
use village::dispatch::{ClientMessage, ServerMessage};

fn schema() -> &'static ResolvedSchema {
    static SCHEMA: OnceLock<ResolvedSchema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/village");
        tuplet_schema::loader::load(std::path::Path::new(dir)).expect("village loads")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let (messages, dir) = if selector & 1 == 0 {
        (ClientMessage::MESSAGES, tuplet_schema::ir::Dir::C2s)
    } else {
        (ServerMessage::MESSAGES, tuplet_schema::ir::Dir::S2c)
    };
    let (name, _) = messages[(selector >> 1) as usize % messages.len()];
    let derived = if dir == tuplet_schema::ir::Dir::C2s {
        ClientMessage::from_payload(name, rest).map(|_| ())
    } else {
        ServerMessage::from_payload(name, rest).map(|_| ())
    };
    let path = tuplet_codegen::ircodec::message_named(schema(), dir, name).expect("loaded");
    let ir = tuplet_codegen::ircodec::decode(schema(), &path, rest).map(|_| ());
    match (derived, ir) {
        (Ok(()), Ok(())) => {}
        (Err(a), Err(b)) => assert_eq!(
            (a.code(), a.path().to_string()),
            (b.code(), b.path().to_string()),
            "{name}: the two decoders disagree"
        ),
        (a, b) => panic!("{name}: derived {a:?}, IR codec {b:?}"),
    }
});

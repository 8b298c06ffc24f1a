//! `#[tuplet(unreliable)]` reaches every reader the same: the loader's IR, the derive's
//! `Message::UNRELIABLE` through the dispatch enums (`Dispatch::UNRELIABLE`,
//! `Dispatch::unreliable_id`, which a server's transport asks), and the generated
//! TypeScript codecs' `unreliable`, for every message of the village protocol.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tuplet::Dispatch;
use tuplet_schema::ir::{Dir, ItemKind};
use tuplet_schema::load_items;
use village::dispatch::{ClientMessage, ServerMessage};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// (direction, id) -> unreliable, as the loader reads the village's sources.
fn loaded() -> BTreeMap<(Dir, u32), bool> {
    let loaded = load_items(&root().join("examples/village")).unwrap_or_else(|e| panic!("{e}"));
    let mut out = BTreeMap::new();
    for item in loaded.items.values() {
        if let ItemKind::Message(m) = &item.item.kind {
            for dir in [Dir::C2s, Dir::S2c] {
                if m.dir.includes(dir) {
                    out.insert((dir, m.id), m.unreliable);
                }
            }
        }
    }
    out
}

fn derived<D: Dispatch>(dir: Dir) -> BTreeMap<(Dir, u32), bool> {
    assert_eq!(D::UNRELIABLE.len(), D::MESSAGES.len());
    D::MESSAGES
        .iter()
        .zip(D::UNRELIABLE)
        .map(|(&(_, id), &u)| {
            assert_eq!(D::unreliable_id(id), u, "unreliable_id({id})");
            ((dir, id), u)
        })
        .collect()
}

#[test]
fn the_derive_agrees_with_the_loader() {
    let mut ours = derived::<ClientMessage>(Dir::C2s);
    ours.extend(derived::<ServerMessage>(Dir::S2c));
    assert_eq!(ours, loaded());
}

#[test]
fn the_marked_messages_are_the_moves_snapshots_and_birds() {
    let marked: Vec<&str> = ServerMessage::MESSAGES
        .iter()
        .zip(ServerMessage::UNRELIABLE)
        .filter(|(_, &u)| u)
        .map(|(&(name, _), _)| name)
        .collect();
    assert_eq!(
        marked,
        [
            "player:move",
            "world:snapshot",
            "birds:stream",
            "vehicle:move"
        ]
    );
    // An id no message has is never sent as a datagram.
    assert!(!ServerMessage::unreliable_id(999_999));
}

/// Every generated codec says `unreliable` exactly when the loader does: the emitter passes
/// `true` as `codec(...)`'s last argument.
#[test]
fn the_typescript_codecs_agree_with_the_loader() {
    let mut by_name = BTreeMap::new();
    let loaded = load_items(&root().join("examples/village")).unwrap_or_else(|e| panic!("{e}"));
    for item in loaded.items.values() {
        if let ItemKind::Message(m) = &item.item.kind {
            by_name.insert(format!("{}Codec", item.item.ident), m.unreliable);
        }
    }
    let dir = root().join("generated/ts/src");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ts") {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let Some(rest) = line.strip_prefix("export const ") else {
                continue;
            };
            let Some((name, _)) = rest.split_once(':') else {
                continue;
            };
            if !line.contains("codec(") {
                continue;
            }
            let Some(&want) = by_name.get(name) else {
                continue;
            };
            seen += 1;
            let said = line.trim_end().ends_with(", true);");
            assert_eq!(said, want, "{name} in {}", path.display());
        }
    }
    assert!(seen >= 280, "found {seen} codecs");
}

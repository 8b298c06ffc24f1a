//! Finding a message of a loaded schema by path, by name or by envelope id.

use tuplet_schema::ir::{Dir, ItemKind, Message};
use tuplet_schema::{ResolvedItem, ResolvedSchema};

/// The message item at a canonical path (`crate::player::PlayerMove`).
pub fn message_at<'s>(
    schema: &'s ResolvedSchema,
    path: &str,
) -> Option<(&'s ResolvedItem, &'s Message)> {
    let item = schema.get(path)?;
    match &item.item.kind {
        ItemKind::Message(m) => Some((item, m)),
        _ => None,
    }
}

/// The canonical path of the message named `name` sent in `dir` (`C2s` or `S2c`).
pub fn message_named(schema: &ResolvedSchema, dir: Dir, name: &str) -> Option<String> {
    schema
        .messages(dir)
        .find(|(_, m)| m.name == name)
        .map(|(i, _)| i.path.clone())
}

/// The canonical path of the message with envelope id `id` sent in `dir`.
pub fn message_with_id(schema: &ResolvedSchema, dir: Dir, id: u32) -> Option<String> {
    let ids = match dir {
        Dir::C2s => &schema.c2s,
        Dir::S2c => &schema.s2c,
        Dir::Both => return None,
    };
    ids.get(&id).cloned()
}

//! Per direction (`src/c2s.ts`, `src/s2c.ts`): a map of wire name -> natural type, the
//! discriminated union `{ name, value }` and the direction object the dispatcher and `send`
//! take. And `src/index.ts`, re-exporting every public name (types, codec constants, unit
//! enum objects, both directions and the runtime's public API).

use std::collections::{BTreeMap, BTreeSet};

use tuplet_schema::ir::{Dir, ItemKind};
use tuplet_schema::{ResolvedItem, ResolvedSchema};

use super::common::{doc, header, lit};
use super::names::Names;

/// `src/c2s.ts`, `src/s2c.ts` and `src/index.ts`.
pub fn files(
    schema: &ResolvedSchema,
    names: &Names,
    source: &str,
    modules: &BTreeMap<&str, Vec<&ResolvedItem>>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (dir, title, who) in [
        (Dir::C2s, "C2s", "a client sends"),
        (Dir::S2c, "S2c", "a server sends"),
    ] {
        out.push((
            format!("src/{}.ts", dir.as_str()),
            direction(schema, names, source, dir, title, who),
        ));
    }
    out.push(("src/index.ts".into(), index(names, source, modules)));
    out
}

fn direction(
    schema: &ResolvedSchema,
    names: &Names,
    source: &str,
    dir: Dir,
    title: &str,
    who: &str,
) -> String {
    let d = dir.as_str();
    let mut imports: BTreeMap<String, BTreeSet<(String, bool)>> = BTreeMap::new();
    let mut map = String::new();
    let mut union = String::new();
    let mut codecs = Vec::new();
    for (item, msg) in schema.messages(dir) {
        let ident = names.item(&item.path);
        let file = names.file(&item.module);
        let set = imports.entry(file).or_default();
        set.insert((ident.to_string(), true));
        set.insert((format!("{ident}Codec"), false));
        let name = lit(&msg.name);
        map.push_str(&format!("  /** Id {}. */\n  {name}: {ident};\n", msg.id));
        union.push_str(&format!(
            "\n  | {{ readonly name: {name}; readonly value: {ident} }}"
        ));
        codecs.push(format!("  {ident}Codec,"));
    }
    let mut text = header(&format!("{source} (every message sent {d})"));
    text.push_str("import { direction, type Direction } from \"./runtime/support.js\";\n");
    for (file, names) in &imports {
        let types: Vec<&str> = names.iter().filter(|n| n.1).map(|n| n.0.as_str()).collect();
        let values: Vec<&str> = names
            .iter()
            .filter(|n| !n.1)
            .map(|n| n.0.as_str())
            .collect();
        let from = lit(&format!("./{file}.js"));
        text.push_str(&format!(
            "import type {{ {} }} from {from};\n",
            types.join(", ")
        ));
        text.push_str(&format!(
            "import {{ {} }} from {from};\n",
            values.join(", ")
        ));
    }
    text.push('\n');
    text.push_str(&doc(
        &format!("The messages {who} ({d}): wire name -> natural value."),
        "",
    ));
    text.push_str(&format!("export interface {title}Messages {{\n{map}}}\n\n"));
    text.push_str(&doc(
        &format!("One message {who}: a discriminated union on `name`."),
        "",
    ));
    if union.is_empty() {
        union = " never".into();
    }
    text.push_str(&format!("export type {title}Message ={union};\n\n"));
    text.push_str(&doc(
        &format!(
            "The {d} direction: every codec by name and id, for `createDispatcher({d}, handlers)` and `send({d}, target, msg)`."
        ),
        "",
    ));
    text.push_str(&format!(
        "export const {d}: Direction<{title}Messages> = /*@__PURE__*/ direction<{title}Messages>({}, [\n{}\n]);\n",
        lit(d),
        codecs.join("\n")
    ));
    text
}

fn index(names: &Names, source: &str, modules: &BTreeMap<&str, Vec<&ResolvedItem>>) -> String {
    let mut text = header(source);
    text.push_str("//\n// Every public name of the package: natural types, codec constants (`PlayerMoveCodec`),\n// unit enum objects (`E.Variant` is `\"Variant\"`, `E$numbers.Variant` its wire number),\n// the two directions and the runtime's public API.\n\n");
    for (module, items) in modules {
        let file = lit(&format!("./{}.js", names.file(module)));
        let mut types = Vec::new();
        let mut values = Vec::new();
        for item in items {
            let ident = names.item(&item.path).to_string();
            match &item.item.kind {
                ItemKind::Message(m) => {
                    types.push(ident.clone());
                    values.push(format!("{ident}Codec"));
                    if m.delta {
                        values.push(format!("{ident}$delta"));
                    }
                }
                ItemKind::Enum(e) if e.is_unit() => {
                    values.push(ident.clone());
                    values.push(format!("{ident}$numbers"));
                }
                ItemKind::Dispatch(_) => {}
                _ => types.push(ident),
            }
        }
        if !types.is_empty() {
            text.push_str(&format!(
                "export type {{ {} }} from {file};\n",
                types.join(", ")
            ));
        }
        if !values.is_empty() {
            text.push_str(&format!(
                "export {{ {} }} from {file};\n",
                values.join(", ")
            ));
        }
    }
    text.push_str(
        "export * from \"./c2s.js\";\nexport * from \"./s2c.js\";\n\
         export { Code, TupletError, newReader, readInt, Writer, DEFAULT_LIMITS, createDispatcher, attachServer, direction, envelope, send, codec, Tracker, Mirror } from \"./runtime/support.js\";\n\
         export type { Issue, Result, Limits, Reader, MessageCodec, DeltaCodec, Sent, StandardSchemaV1, EncodeOptions, Direction, Dispatcher, DispatcherOptions, Handlers, MessageOf, Mirrors, RoomLike, ClientLike, SocketLike, SendOptions, ServerRoomLike, ServerHandlers, ServerDispatcher, ServerDispatcherOptions } from \"./runtime/support.js\";\n",
    );
    text.push_str(super::server_dispatch::EXPORTS);
    text
}

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
    out.push(("src/index.ts".into(), index(schema, names, source, modules)));
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
    let mut codec_types = String::new();
    let mut ids = Vec::new();
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
        codec_types.push_str(&format!("\n  | MessageCodec<{ident}, {name}, {}>", msg.id));
        ids.push(msg.id.to_string());
    }
    let mut text = header(&format!("{source} (every message sent {d})"));
    // `MessageCodec` names the codecs' types in `{Dir}Codec`: none in a direction without messages.
    let codec_ty = if ids.is_empty() {
        ""
    } else {
        "type MessageCodec, "
    };
    text.push_str(&format!(
        "import {{ direction, type Direction, {codec_ty}type MessagesOf }} from \"./runtime/support.js\";\n"
    ));
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
    let first = schema
        .messages(dir)
        .next()
        .map(|(item, msg)| (names.item(&item.path).to_string(), lit(&msg.name)));
    text.push_str(&only(d, title, who, &codec_types, &ids, first));
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

/// `{Dir}Codec` (the union of the direction's codec types) and `{dir}Only`, a direction of
/// the codecs given: a page that reads a few messages bundles only their codecs (the ids of
/// the others are a list of numbers, for its dispatcher's `others` option).
fn only(
    d: &str,
    title: &str,
    who: &str,
    codec_types: &str,
    ids: &[String],
    first: Option<(String, String)>,
) -> String {
    let mut text = doc(
        &format!("The codec of one message {who} ({d}): its natural type, wire name and id."),
        "",
    );
    let codec_types = if codec_types.is_empty() {
        " never"
    } else {
        codec_types
    };
    text.push_str(&format!("export type {title}Codec ={codec_types};\n\n"));
    text.push_str(&format!(
        "const {d}Ids: readonly number[] = [{}];\n\n",
        ids.join(", ")
    ));
    let example = match first {
        Some((ident, name)) => format!(
            "\n\n```ts\nconst d = createDispatcher({d}Only([{ident}Codec]), {{ {name}: (m) => use(m) }}, {{ others: \"ignore\" }});\n```"
        ),
        None => String::new(),
    };
    text.push_str(&doc(
        &format!(
            "Only these {d} messages: a direction of the codecs given, for `createDispatcher` and \
             `send`.\nA bundle holds these codecs, not the direction's others; the dispatcher \
             ignores the others\n(counted in `ignored`) or drops them, as its `others` option \
             says.{example}"
        ),
        "",
    ));
    text.push_str(&format!(
        "export function {d}Only<const Cs extends readonly {title}Codec[]>(codecs: Cs): Direction<MessagesOf<Cs>> {{\n  return direction<MessagesOf<Cs>>({}, codecs, {d}Ids);\n}}\n\n",
        lit(d)
    ));
    text
}

fn index(
    schema: &ResolvedSchema,
    names: &Names,
    source: &str,
    modules: &BTreeMap<&str, Vec<&ResolvedItem>>,
) -> String {
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
                    if m.record.interp.is_some() {
                        values.push(format!("{ident}$interp"));
                    }
                }
                ItemKind::Record(r) if r.interp.is_some() => {
                    types.push(ident.clone());
                    values.push(format!("{ident}$interp"));
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
         export { Code, TupletError, newReader, readInt, Writer, DEFAULT_LIMITS, createDispatcher, attachServer, direction, envelope, send, connect, codec, Tracker, EntityRows, Mirror } from \"./runtime/support.js\";\n\
         export type { Issue, Result, Limits, Reader, MessageCodec, DeltaCodec, Sent, StandardSchemaV1, EncodeOptions, Direction, MessagesOf, DroppedName, Dispatcher, DispatcherOptions, Handlers, MessageOf, Mirrors, RoomLike, ClientLike, SocketLike, SendOptions, ServerRoomLike, ServerHandlers, ServerDispatcher, ServerDispatcherOptions, Transport, TransportKind, ConnectOptions, Counts } from \"./runtime/support.js\";\n",
    );
    text.push_str(super::server_dispatch::EXPORTS);
    text.push_str(&constants(schema, &text));
    text
}

/// The schema crate's root constants (`pub const PROTOCOL_VERSION: u16 = 2;`), each exported
/// under its Rust name with its doc; one whose name the package already exports is left out,
/// saying so in a comment.
fn constants(schema: &ResolvedSchema, index: &str) -> String {
    let taken = super::names::exports(index);
    let mut text = String::new();
    for c in &schema.constants {
        if taken.contains(&c.name) || super::names::PACKAGE.contains(&c.name.as_str()) {
            text.push_str(&format!(
                "// The schema's constant {} is not exported: the package has that name already.\n",
                c.name
            ));
            continue;
        }
        text.push_str(&doc(&c.doc, ""));
        // Beyond ±(2^53−1) a `number` would round: a bigint then.
        let big = if c.value.unsigned_abs() > (1u64 << 53) - 1 {
            "n"
        } else {
            ""
        };
        text.push_str(&format!("export const {} = {}{big};\n", c.name, c.value));
    }
    if !text.is_empty() {
        text.insert(0, '\n');
    }
    text
}

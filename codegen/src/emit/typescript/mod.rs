//! The TypeScript package (docs/frontend.md): one module per schema file
//! with, per type, an interface and straight-line functions (`X$read`, `X$write`, and
//! `X$validate` unless X is a message no field names: its codec walks the table `X$t`;
//! `fromWire` packs the JS value and reads it with `X$read`, `toWire` runs `X$write` on a
//! writer that builds JS data), per message a codec constant, per direction a
//! discriminated union and a direction object for the dispatcher, and the embedded runtime.
//!
//! One file per concern: `types` (interfaces), `decode` (bytes, both shapes), `encode` (bytes and `toWire`),
//! `table` (the per-type tables the runtime walks for `validate` and the named write), `validate`,
//! `dispatch` (directions and the index), `package` (package.json, tsconfig, runtime), and
//! `leaf` (every leaf kind's type, write, read, check and table descriptor: the others walk
//! containers and references and hand a leaf there). With `[ts] hot` set, a record that no
//! listed message reaches (`inline::cold_items`) has a one-line `X$read`/`X$write` calling
//! the runtime's table walkers (`readRecord`, `writeRecord`) instead of straight-line code,
//! and a cold closed unit enum's are lookups in its `X$numbers` object (`readUnit`, ...).

mod common;
mod decode;
mod decode_enum;
mod delta;
mod dispatch;
mod encode;
mod generator;
mod inline;
mod interp;
mod leaf;
mod names;
mod package;
mod server_dispatch;
mod table;
mod types;
mod validate;

use std::collections::BTreeMap;

use tuplet_schema::ir::ItemKind;
use tuplet_schema::{ResolvedItem, ResolvedSchema};

use super::common::Emitter;
pub use common::{
    doc, enum_num, enum_wide, header, int_lit, is_option, lit, num, relative, Out, MAX_SAFE,
};
pub use generator::Gen;
pub use names::{is_local, Names, GLOBALS, LOCALS, NUMBERED, PACKAGE};
pub use package::Package;

/// Every name the emitter puts in a generated module's scope besides the items' own: the
/// package's exports, the globals it names, its functions' locals (numbered ones by their
/// bases), the runtime's exports and `Codec`. No item takes one ([`Names`] renames it), and the
/// random-schema test draws type and field names from this list.
pub fn introduced_names() -> std::collections::BTreeSet<String> {
    let mut all = package::runtime_exports();
    for n in PACKAGE.iter().chain(GLOBALS).chain(LOCALS).chain(NUMBERED) {
        all.insert((*n).to_string());
    }
    for b in NUMBERED {
        all.insert(format!("{b}1"));
    }
    all.insert("Codec".into());
    all
}

/// The TypeScript emitter.
pub struct TypeScript {
    /// The schema crate's folder as `tuplet.toml` names it, for headers.
    pub source: String,
    /// What `package.json` says.
    pub package: Package,
    /// `[ts] hot`: the messages that keep straight-line compact code (with what they
    /// reach); unset, every type does.
    pub hot: Option<Vec<String>>,
}

/// The paths of the messages whose wire name is `name` (one per direction).
pub fn message_paths(schema: &ResolvedSchema, name: &str) -> Vec<String> {
    schema
        .items
        .values()
        .filter(|i| matches!(&i.item.kind, ItemKind::Message(m) if m.name == name))
        .map(|i| i.path.clone())
        .collect()
}

impl Emitter for TypeScript {
    fn name(&self) -> &'static str {
        "ts"
    }

    fn emit(&self, schema: &ResolvedSchema) -> BTreeMap<String, String> {
        let mut files = BTreeMap::new();
        let mut modules: BTreeMap<&str, Vec<&ResolvedItem>> = BTreeMap::new();
        for item in schema.items.values() {
            if !matches!(item.item.kind, ItemKind::Dispatch(_)) {
                modules.entry(item.module.as_str()).or_default().push(item);
            }
        }
        let names = Names::new(schema, &package::runtime_exports());
        let hot = std::rc::Rc::new(inline::hot_items(schema));
        let nested = std::rc::Rc::new(validate::nested(schema));
        let cold = std::rc::Rc::new(match &self.hot {
            Some(list) => {
                let roots = list.iter().flat_map(|n| message_paths(schema, n));
                inline::cold_items(schema, roots)
            }
            None => Default::default(),
        });
        for (module, items) in &modules {
            let mut g = Gen::new(schema, &names, module, hot.clone(), nested.clone());
            g.cold_items = cold.clone();
            let mut body = String::new();
            for item in items {
                body.push_str(&g.item(item));
            }
            let file = items.first().map_or("", |i| i.file.as_str());
            let text = format!(
                "{}{FUNCTIONS}{}\n{body}",
                header(&format!("{}/{file}", self.source)),
                g.imports()
            );
            files.insert(format!("src/{}.ts", names.file(module)), text);
        }
        for (path, text) in package::files(&self.source, &self.package) {
            files.insert(path, text);
        }
        for (path, text) in dispatch::files(schema, &names, &self.source, &modules) {
            files.insert(path, text);
        }
        files
    }
}

/// What a schema module's functions are, said once per module instead of per function.
const FUNCTIONS: &str = "\
// Per type X: X$read, X$write, its table X$t (runtime/table.ts) and, unless X is a message
// no other type names, X$validate.
";

// Here rather than in `generator`: it calls the per-concern modules, which all use `Gen`.
impl Gen<'_> {
    /// The declarations and functions of one item.
    pub fn item(&mut self, item: &ResolvedItem) -> String {
        let ident = &self.names.item(&item.path).to_string();
        self.hot = self.hot_items.contains(&item.path);
        self.cold = self.cold_items.contains(&item.path);
        let mut out = String::new();
        out.push_str(&types::declare(self, item));
        match &item.item.kind {
            ItemKind::Message(m) => {
                out.push_str(&decode::record_fns(self, ident, &m.record.slots));
                out.push_str(&encode::record_fns(self, ident, &m.record.slots));
                out.push_str(&table::record(self, ident, &m.record.slots));
                if self.nested.contains(&item.path) {
                    out.push_str(&validate::record_fn(self, ident));
                }
                // A delta message's codec holds its `X$delta` (declared first): the
                // dispatcher mirrors its payloads, `decode` recognizes a tracker's payload.
                let delta = if m.delta {
                    out.push_str(&delta::message(self, ident, &m.record));
                    format!(", {ident}$delta")
                } else if m.unreliable {
                    ", undefined".to_string()
                } else {
                    String::new()
                };
                // An `unreliable` message's codec says so: a transport with datagrams sends it
                // as one when it fits.
                let delta = if m.unreliable {
                    format!("{delta}, true")
                } else {
                    delta
                };
                out.push_str(&interp::adapter(self, ident, &m.record));
                let codec = self.rt("codec");
                let codec_ty = self.rt_type("MessageCodec");
                // No doc comment: the type, `MessageCodec<X, "wire:name", id>`, says it. Written
                // out, not inferred: the package compiles under `isolatedDeclarations`.
                out.push_str(&format!(
                    "export const {ident}Codec: {codec_ty}<{ident}, {name}, {id}> = /*@__PURE__*/ {codec}({name}, {id}, {ident}$read, {ident}$write, {ident}$t{delta});\n\n",
                    name = lit(&m.name),
                    id = m.id,
                ));
            }
            ItemKind::Record(r) => {
                out.push_str(&decode::record_fns(self, ident, &r.slots));
                out.push_str(&encode::record_fns(self, ident, &r.slots));
                out.push_str(&table::record(self, ident, &r.slots));
                out.push_str(&validate::record_fn(self, ident));
                out.push_str(&delta::entity(self, ident, r));
                out.push_str(&interp::adapter(self, ident, r));
            }
            ItemKind::Enum(e) => {
                out.push_str(&decode_enum::enum_fns(self, ident, e));
                out.push_str(&encode::enum_fns(self, ident, e));
                if !e.is_unit() {
                    out.push_str(&table::data_enum(self, ident, e));
                }
                out.push_str(&validate::enum_fn(self, ident, e));
            }
            ItemKind::Flags(f) => {
                out.push_str(&decode_enum::flags_fns(self, ident, f));
                out.push_str(&encode::flags_fns(self, ident, f));
                out.push_str(&validate::flags_fn(self, ident, f));
            }
            ItemKind::Dispatch(_) => {}
        }
        out
    }
}

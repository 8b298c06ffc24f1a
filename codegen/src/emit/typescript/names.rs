//! The TypeScript names of a schema: one identifier per item and one file per module, chosen
//! once for the whole package so that every valid schema gives a package that compiles.
//!
//! Rust allows what one flat TypeScript namespace does not: `a::Pos` beside `b::Pos` (both
//! re-exported by `index.ts`), a record named `Map`, `Extract` or `Reader` (a JS global, a
//! TypeScript utility type or a runtime export the generated code uses), a record named `v` or
//! `x1` (a local of the generated functions), a record `PingCodec` beside the message `Ping`
//! (whose codec constant is `PingCodec`), a module named `c2s` or `index` (the package's own
//! files). An item
//! keeps its Rust name when that name is unique among the schema's items and free in
//! TypeScript; otherwise it is qualified by its module (`a_Pos`, `b_Pos`), then suffixed with
//! `_` until free (`Map_` at the crate root). A module whose first segment is one of the
//! package's own names gets the suffix `-mod` (`src/c2s-mod.ts`): a Rust identifier never holds
//! a `-`, so the name is free.

use std::collections::{BTreeMap, BTreeSet};

use tuplet_schema::ir::ItemKind;
use tuplet_schema::ResolvedSchema;

/// Names exported by the package besides the items': the directions and their types.
pub const PACKAGE: &[&str] = &[
    "c2s",
    "s2c",
    "C2sMessages",
    "C2sMessage",
    "S2cMessages",
    "S2cMessage",
    "C2sCodec",
    "S2cCodec",
    "c2sOnly",
    "s2cOnly",
    "c2sIds",
    "s2cIds",
];

/// The locals of generated functions (parameters, bindings, catch variables), exactly as the
/// emitter spells them. [`NUMBERED`] bases also take a counter (`a1`, `x12`); the scratch
/// locals of inline int reads (`$u`, `$p`, `$b`, `$x`, `$l`) start with `$`, which no Rust
/// name does. An item never takes one of these names, so no generated function shadows an
/// item it names (`tests/emitter_names.rs` checks the list against the emitted code).
pub const LOCALS: &[&str] = &[
    "_named", "a", "b", "c", "codecs", "e", "f", "i", "j", "k", "len", "m", "n", "name", "named",
    "o", "p", "r", "rest", "s", "t", "tag", "u", "v", "w", "x",
];

/// The bases of numbered locals (`Gen::fresh`, the field locals `f0`, `f1`...).
pub const NUMBERED: &[&str] = &["a", "f", "i", "j", "k", "m", "n", "o", "x"];

/// Whether `n` is one of the generated functions' locals ([`LOCALS`], or a [`NUMBERED`] base
/// and digits).
pub fn is_local(n: &str) -> bool {
    LOCALS.contains(&n)
        || NUMBERED.iter().any(|b| {
            n.strip_prefix(b)
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
        })
}

/// JavaScript globals and TypeScript keywords and built-in types an item must not shadow:
/// every global the emitted code and the runtime name (`Extract` in a data enum's variant
/// type, `Number`, `Map`...), TypeScript's utility types, and the keywords.
pub const GLOBALS: &[&str] = &[
    "Array",
    "ArrayBuffer",
    "ArrayBufferLike",
    "ArrayLike",
    "Awaited",
    "Capitalize",
    "ConstructorParameters",
    "Exclude",
    "Extract",
    "InstanceType",
    "Lowercase",
    "NoInfer",
    "NonNullable",
    "OmitThisParameter",
    "Parameters",
    "PropertyKey",
    "ReturnType",
    "ThisParameterType",
    "ThisType",
    "Uncapitalize",
    "Uppercase",
    "BigInt",
    "BigInt64Array",
    "BigUint64Array",
    "Boolean",
    "DataView",
    "Date",
    "Error",
    "EvalError",
    "Float32Array",
    "Float64Array",
    "Function",
    "Infinity",
    "Int16Array",
    "Int32Array",
    "Int8Array",
    "Iterable",
    "IterableIterator",
    "Iterator",
    "JSON",
    "Map",
    "Math",
    "NaN",
    "Number",
    "Object",
    "Omit",
    "Partial",
    "Pick",
    "Promise",
    "PromiseLike",
    "Proxy",
    "RangeError",
    "Readonly",
    "ReadonlyArray",
    "ReadonlyMap",
    "ReadonlySet",
    "Record",
    "Reflect",
    "RegExp",
    "Required",
    "Set",
    "String",
    "Symbol",
    "SyntaxError",
    "TextDecoder",
    "TextEncoder",
    "TypeError",
    "Uint16Array",
    "Uint32Array",
    "Uint8Array",
    "Uint8ClampedArray",
    "WeakMap",
    "WeakSet",
    "any",
    "arguments",
    "as",
    "async",
    "await",
    "bigint",
    "boolean",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "constructor",
    "continue",
    "debugger",
    "declare",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "eval",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "from",
    "function",
    "get",
    "globalThis",
    "if",
    "implements",
    "import",
    "in",
    "infer",
    "instanceof",
    "interface",
    "is",
    "keyof",
    "let",
    "module",
    "namespace",
    "never",
    "new",
    "null",
    "number",
    "object",
    "of",
    "package",
    "private",
    "protected",
    "public",
    "readonly",
    "require",
    "return",
    "set",
    "static",
    "string",
    "super",
    "switch",
    "symbol",
    "this",
    "throw",
    "true",
    "try",
    "type",
    "typeof",
    "undefined",
    "unique",
    "unknown",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// First segments of a module path that name the package's own files or folders.
const FILES: &[&str] = &["c2s", "s2c", "index", "lib", "runtime"];

/// The TypeScript identifier of every item and the file of every module.
#[derive(Debug, Default)]
pub struct Names {
    items: BTreeMap<String, String>,
    files: BTreeMap<String, String>,
}

impl Names {
    /// Chooses the names of `schema`'s items, avoiding `runtime`'s exports.
    pub fn new(schema: &ResolvedSchema, runtime: &BTreeSet<String>) -> Names {
        let reserved = |n: &str| {
            PACKAGE.contains(&n)
                || GLOBALS.contains(&n)
                || is_local(n)
                || runtime.contains(n)
                || n == "Codec"
        };
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        let items: Vec<_> = schema
            .items
            .values()
            .filter(|i| !matches!(i.item.kind, ItemKind::Dispatch(_)))
            .collect();
        for item in &items {
            *count.entry(item.item.ident.as_str()).or_default() += 1;
        }
        let mut taken: BTreeSet<String> = BTreeSet::new();
        let mut names = Names::default();
        for item in items {
            let ident = &item.item.ident;
            let message = matches!(item.item.kind, ItemKind::Message(_));
            let free = |n: &str, taken: &BTreeSet<String>| {
                let codec = format!("{n}Codec");
                !reserved(n)
                    && !taken.contains(n)
                    && !(message && (reserved(&codec) || taken.contains(&codec)))
            };
            let mut name = ident.clone();
            if count[ident.as_str()] > 1 || !free(&name, &taken) {
                name = qualified(&item.module, ident);
            }
            while !free(&name, &taken) {
                name.push('_');
            }
            if message {
                taken.insert(format!("{name}Codec"));
            }
            taken.insert(name.clone());
            names.items.insert(item.path.clone(), name);
            names
                .files
                .entry(item.module.clone())
                .or_insert_with(|| module_file(&item.module));
        }
        names
    }

    /// The TypeScript identifier of the item at `path` (its codec constant adds `Codec`).
    pub fn item(&self, path: &str) -> &str {
        self.items
            .get(path)
            .unwrap_or_else(|| panic!("no TypeScript name for `{path}`"))
    }

    /// The file of `module` under `src/`, without extension (`player`, `minigames/race`).
    pub fn file(&self, module: &str) -> String {
        self.files
            .get(module)
            .cloned()
            .unwrap_or_else(|| module_file(module))
    }
}

/// `crate::minigames::race` -> `minigames/race`; the crate root -> `lib`; a first segment
/// naming one of the package's own files gets `-mod` (`crate::c2s` -> `c2s-mod`).
pub fn module_file(module: &str) -> String {
    let rest = module.strip_prefix("crate").unwrap_or(module);
    let rest = rest.strip_prefix("::").unwrap_or(rest);
    if rest.is_empty() {
        return "lib".into();
    }
    let mut segs: Vec<String> = rest.split("::").map(str::to_string).collect();
    if FILES.contains(&segs[0].as_str()) {
        segs[0].push_str("-mod");
    }
    segs.join("/")
}

/// `crate::a::b` + `Pos` -> `a_b_Pos`; at the crate root the bare identifier.
fn qualified(module: &str, ident: &str) -> String {
    let rest = module.strip_prefix("crate").unwrap_or(module);
    let rest = rest.strip_prefix("::").unwrap_or(rest);
    if rest.is_empty() {
        ident.to_string()
    } else {
        format!("{}_{ident}", rest.replace("::", "_"))
    }
}

/// The names a TypeScript source exports (`export function f`, `export { a, type B }`...).
pub fn exports(source: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in source.lines() {
        let Some(rest) = line.strip_prefix("export ") else {
            continue;
        };
        let rest = rest
            .strip_prefix("type ")
            .filter(|r| r.starts_with('{'))
            .unwrap_or(rest);
        if let Some(list) = rest.strip_prefix('{') {
            let list = list.split('}').next().unwrap_or("");
            for part in list.split(',') {
                let part = part.trim().trim_start_matches("type ").trim();
                let name = part.rsplit(" as ").next().unwrap_or(part).trim();
                if !name.is_empty() {
                    out.insert(name.to_string());
                }
            }
            continue;
        }
        let words: Vec<&str> = rest
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .filter(|w| !w.is_empty())
            .collect();
        let skip = ["declare", "async", "abstract", "default"];
        let kinds = [
            "function",
            "const",
            "let",
            "var",
            "class",
            "interface",
            "type",
            "enum",
            "namespace",
        ];
        let mut it = words.iter().skip_while(|w| skip.contains(w));
        if let (Some(kind), Some(name)) = (it.next(), it.next()) {
            if kinds.contains(kind) {
                out.insert((*name).to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_reads_declarations_and_lists() {
        let src = "export function f() {}\nexport const C = 1;\nexport interface I {}\nexport type T = number;\nexport class K {}\nexport { a, type B, c as D } from \"./x.js\";\nexport type { E, F } from \"./y.js\";\nexport * from \"./z.js\";\nfunction hidden() {}\n";
        let names: Vec<String> = exports(src).into_iter().collect();
        assert_eq!(names, ["B", "C", "D", "E", "F", "I", "K", "T", "a", "f"]);
    }

    #[test]
    fn module_files_avoid_the_package_files() {
        assert_eq!(module_file("crate"), "lib");
        assert_eq!(module_file("crate::minigames::race"), "minigames/race");
        assert_eq!(module_file("crate::c2s"), "c2s-mod");
        assert_eq!(module_file("crate::index::inner"), "index-mod/inner");
        assert_eq!(
            module_file("crate::runtime::support"),
            "runtime-mod/support"
        );
        assert_eq!(module_file("crate::a::c2s"), "a/c2s");
    }
}

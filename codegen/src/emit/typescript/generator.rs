//! [`Gen`], the generator of one schema module: what it imports and its local names.

use std::collections::{BTreeMap, BTreeSet};

use tuplet_schema::{ResolvedItem, ResolvedSchema};

use tuplet_schema::ir::{Enum, Slot};

use super::common::{enum_wide, lit, relative};
use super::names::Names;

/// The inline int reads of the reader function being emitted (`inline::begin` starts one,
/// `inline::scratch` declares their scratch locals at its top).
#[derive(Debug, Default)]
pub struct InlineReads {
    /// Whether the function may have them (it will declare their scratch locals).
    pub allowed: bool,
    /// Whether it has one.
    pub used: bool,
    /// Whether one reads a marker longer than a byte (the length local `l`).
    pub long: bool,
}

/// The generator of one module: the schema, the module, its imports and a name counter.
pub struct Gen<'a> {
    /// The whole schema, to resolve references.
    pub schema: &'a ResolvedSchema,
    /// The TypeScript names of items and modules.
    pub names: &'a Names,
    /// The module being generated (`crate::player`).
    pub module: &'a str,
    /// Imports from other modules: module file -> (name, type only).
    imports: BTreeMap<String, BTreeSet<(String, bool)>>,
    /// Names imported from the runtime.
    runtime: BTreeSet<(String, bool)>,
    counter: usize,
    /// The items whose compact read gets inline fast paths (`inline::hot_items`).
    pub(super) hot_items: std::rc::Rc<BTreeSet<String>>,
    /// Whether the item being generated is one of them.
    pub hot: bool,
    /// Inline int reads of the function being emitted.
    pub inline: InlineReads,
    /// The items some field of another item names (`validate::nested`): they need an
    /// `X$validate` for the tables that name them; a message no field names has none.
    pub(super) nested: std::rc::Rc<BTreeSet<String>>,
    /// The items whose compact read and write are the runtime's table walkers
    /// (`inline::cold_items`; none unless `[ts] hot` is set). `hot_items` among them lose
    /// their inline reads with their straight-line code.
    pub(super) cold_items: std::rc::Rc<BTreeSet<String>>,
    /// Whether the item being generated is one of them.
    pub cold: bool,
}

impl<'a> Gen<'a> {
    /// A generator for `module`.
    pub fn new(
        schema: &'a ResolvedSchema,
        names: &'a Names,
        module: &'a str,
        hot_items: std::rc::Rc<BTreeSet<String>>,
        nested: std::rc::Rc<BTreeSet<String>>,
    ) -> Gen<'a> {
        Gen {
            schema,
            names,
            module,
            imports: BTreeMap::new(),
            runtime: BTreeSet::new(),
            counter: 0,
            hot_items,
            hot: false,
            inline: InlineReads::default(),
            nested,
            cold_items: Default::default(),
            cold: false,
        }
    }

    /// A fresh local name (`a3`).
    pub fn fresh(&mut self, base: &str) -> String {
        self.counter += 1;
        format!("{base}{}", self.counter)
    }

    /// Restarts local numbering (per function).
    pub fn reset(&mut self) {
        self.counter = 0;
    }

    /// A runtime value, imported.
    pub fn rt(&mut self, name: &str) -> String {
        self.runtime.insert((name.to_string(), false));
        name.to_string()
    }

    /// A runtime type, imported with `import type`.
    pub fn rt_type(&mut self, name: &str) -> String {
        self.runtime.insert((name.to_string(), true));
        name.to_string()
    }

    /// The referenced item.
    pub fn item_at(&self, path: &str) -> &'a ResolvedItem {
        self.schema
            .get(path)
            .unwrap_or_else(|| panic!("the resolved IR names `{path}`"))
    }

    fn import(&mut self, path: &str, name: String, ty: bool) -> String {
        let item = self.item_at(path);
        if item.module != self.module {
            self.imports
                .entry(self.names.file(&item.module))
                .or_default()
                .insert((name.clone(), ty));
        }
        name
    }

    /// The TS type of the item at `path` (imported as a type).
    pub fn type_ref(&mut self, path: &str) -> String {
        let ident = self.names.item(path).to_string();
        self.import(path, ident, true)
    }

    /// One generated function of the item at `path` (`X$read`), imported.
    pub fn fn_ref(&mut self, path: &str, suffix: &str) -> String {
        let name = format!("{}${suffix}", self.names.item(path));
        self.import(path, name, false)
    }

    /// The import lines.
    pub fn imports(&self) -> String {
        let me = self.names.file(self.module);
        let mut out = String::new();
        let mut line = |names: &BTreeSet<(String, bool)>, from: String| {
            let types: Vec<&str> = names
                .iter()
                .filter(|(_, t)| *t)
                .map(|(n, _)| n.as_str())
                .collect();
            let values: Vec<&str> = names
                .iter()
                .filter(|(n, t)| !*t && !names.contains(&(n.clone(), true)))
                .map(|(n, _)| n.as_str())
                .collect();
            if !types.is_empty() {
                out.push_str(&format!(
                    "import type {{ {} }} from {};\n",
                    types.join(", "),
                    lit(&from)
                ));
            }
            if !values.is_empty() {
                out.push_str(&format!(
                    "import {{ {} }} from {};\n",
                    values.join(", "),
                    lit(&from)
                ));
            }
        };
        if !self.runtime.is_empty() {
            line(&self.runtime, relative(&me, "runtime/support"));
        }
        for (file, names) in &self.imports {
            line(names, relative(&me, file));
        }
        out
    }
}

impl Gen<'_> {
    /// Whether a record's compact read and write are the runtime's table walkers: a cold item
    /// (`[ts] hot` set and the record not reached from a hot message) without reserved slots
    /// (its table has no row for them).
    pub fn walked(&self, slots: &[Slot]) -> bool {
        self.cold && slots.iter().all(|s| matches!(s, Slot::Field(_)))
    }

    /// Whether a unit enum's `X$read`, `X$num` and `X$write` are the runtime's lookups in its
    /// `as const` object: a cold item (`[ts] hot`), closed, every number a safe integer.
    pub fn walked_unit(&self, e: &Enum) -> bool {
        self.cold && e.is_unit() && !enum_wide(e)
    }
}

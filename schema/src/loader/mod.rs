//! The source loader: a schema crate's files -> the per-item IR (the same grammar the derive
//! runs, item by item) -> the resolved IR (references resolved across files, cross-item
//! checks done), from a crate directory on disk ([`load`]) or from files held in memory
//! ([`SourceTree`]).
//!
//! It reads source as written and never expands macros. It applies `cfg` and `cfg_attr` as
//! the compiler does before a derive runs where the predicate is the same in every build
//! (`configure`), and rejects what the compiler could see differently, each with
//! `file:line:col` and the fix:
//! - a build-dependent `cfg` on a tuplet item, field or variant, or on a module holding one,
//!   and a build-dependent `cfg_attr` guarding a `tuplet`, `doc` or tuplet `derive` attribute;
//! - an item-level macro invocation in a module holding tuplet types (types made by macros
//!   are invisible to the loader; `macro_rules!` definitions alone are fine);
//! - generics on a tuplet item (the grammar's own error);
//! - a missing module file, a `#[path]` to a missing file, a type defined twice, a `use` of
//!   a crate-local path that does not exist, a reference to an unknown type.
//!
//! Cross-item checks: a field names a record, enum or flags type (not a message nor a
//! dispatch enum: a message is a top-level unit; share fields through a record); a dispatch
//! variant names a message of its direction; ids and names are unique per direction and
//! avoid the dispatch enums' reserved ones; where a direction has a dispatch enum, every
//! message of that direction is in one.

mod accept_spans;
mod configure;
mod directions;
mod error;
mod loaded;
mod modules;
mod resolve;
mod sources;
mod spans;

use std::collections::BTreeMap;
use std::path::Path;

pub use error::{LoadError, LoadErrors};
pub use loaded::{Loaded, LoadedItem};
pub use sources::SourceTree;

use crate::grammar::parse_item;
use crate::resolved::ResolvedSchema;
use modules::Walk;
use sources::{Disk, Files};

impl Loaded {
    /// Resolves references and runs the cross-item checks.
    pub fn resolve(&self) -> Result<ResolvedSchema, LoadErrors> {
        resolve::resolve(self).map_err(|e| LoadErrors(e).sorted())
    }
}

impl SourceTree {
    /// Loads the crate rooted at `src/lib.rs` into the resolved IR, as [`load`] does from
    /// disk.
    pub fn load(&self) -> Result<ResolvedSchema, LoadErrors> {
        load_with(self, Path::new(""), Path::new("src/lib.rs"))
    }
}

/// Loads the crate at `crate_dir` (its root file is `src/lib.rs`) into the resolved IR.
pub fn load(crate_dir: &Path) -> Result<ResolvedSchema, LoadErrors> {
    load_from(crate_dir, &crate_dir.join("src").join("lib.rs"))
}

/// [`load`] from an explicit root file. Errors of every item are reported together: the
/// references of items that parsed are resolved even when others did not (a reference to
/// an item that failed is not reported again).
pub fn load_from(crate_dir: &Path, root: &Path) -> Result<ResolvedSchema, LoadErrors> {
    load_with(&Disk, crate_dir, root)
}

/// [`load_from`] reading through `files`.
fn load_with(
    files: &dyn Files,
    crate_dir: &Path,
    root: &Path,
) -> Result<ResolvedSchema, LoadErrors> {
    let (loaded, mut errors) = walk(files, crate_dir, root);
    match resolve::resolve(&loaded) {
        Ok(schema) if errors.is_empty() => Ok(schema),
        Ok(_) => Err(LoadErrors(errors).sorted()),
        Err(more) => {
            errors.extend(more);
            Err(LoadErrors(errors).sorted())
        }
    }
}

/// Loads the crate at `crate_dir` (root `src/lib.rs`) into the per-item IR, unresolved.
pub fn load_items(crate_dir: &Path) -> Result<Loaded, LoadErrors> {
    load_items_from(crate_dir, &crate_dir.join("src").join("lib.rs"))
}

/// Loads a crate from an explicit root file (`crate_dir` only shortens file names in the
/// resolved IR).
pub fn load_items_from(crate_dir: &Path, root: &Path) -> Result<Loaded, LoadErrors> {
    let (loaded, errors) = walk(&Disk, crate_dir, root);
    if errors.is_empty() {
        Ok(loaded)
    } else {
        Err(LoadErrors(errors).sorted())
    }
}

/// Walks and parses the crate: every item that parsed, and every error found.
/// The line of each member of an item as written: fields (and flags) by name, variants by
/// name, a struct variant's fields as `Variant.field`.
fn member_lines(input: &syn::DeriveInput) -> BTreeMap<String, usize> {
    fn fields(out: &mut BTreeMap<String, usize>, prefix: &str, fields: &syn::Fields) {
        for f in fields.iter() {
            if let Some(ident) = &f.ident {
                out.insert(format!("{prefix}{ident}"), ident.span().start().line);
            }
        }
    }
    let mut out = BTreeMap::new();
    match &input.data {
        syn::Data::Struct(s) => fields(&mut out, "", &s.fields),
        syn::Data::Enum(e) => {
            for v in &e.variants {
                out.insert(v.ident.to_string(), v.ident.span().start().line);
                fields(&mut out, &format!("{}.", v.ident), &v.fields);
            }
        }
        syn::Data::Union(_) => {}
    }
    out
}

fn walk(files: &dyn Files, crate_dir: &Path, root: &Path) -> (Loaded, Vec<LoadError>) {
    let walk = Walk::crate_from(files, root);
    let mut errors = walk.errors.clone();
    resolve::check_uses(&walk, &mut errors);
    let mut items = BTreeMap::new();
    for (index, found) in walk.items.iter().enumerate() {
        let module = &walk.modules[found.module];
        let file = module.file.clone();
        let ident = &found.input.ident;
        let path = format!("{}::{ident}", module.path);
        if module.cfg {
            errors.push(LoadError::at(
                &file,
                ident.span(),
                format!(
                    "`{ident}` is in `{}`, which is under a `#[cfg(...)]` that depends on the \
                     build: the Rust codec would follow the build, the generated TypeScript and \
                     the lock do not; declare the module unconditionally (gate its uses instead)",
                    module.path
                ),
            ));
        }
        match parse_item(&found.input, found.derive) {
            Ok(item) => {
                let start = ident.span().start();
                items.insert(
                    path.clone(),
                    LoadedItem {
                        path,
                        derive: found.derive,
                        file,
                        line: start.line,
                        col: start.column + 1,
                        member_lines: member_lines(&found.input),
                        accept_spans: accept_spans::accept_spans(&found.input),
                        item,
                        index,
                    },
                );
            }
            Err(e) => errors.extend(LoadError::from_syn(&file, e)),
        }
    }
    // Item-level macro invocations beside tuplet types.
    for (mi, module) in walk.modules.iter().enumerate() {
        if !walk.items.iter().any(|f| f.module == mi) {
            continue;
        }
        for (name, span) in &module.macros {
            errors.push(LoadError::at(
                &module.file,
                *span,
                format!(
                    "item-level macro `{name}!` in `{}`, a module with tuplet types: types made \
                     by macros are invisible to the loader; write the items out, or move the \
                     macro to a module without tuplet types",
                    module.path
                ),
            ));
        }
    }
    let loaded = Loaded {
        crate_dir: crate_dir.to_path_buf(),
        items,
        walk,
    };
    (loaded, errors)
}

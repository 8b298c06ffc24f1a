//! The module walk: from the root file, follow `mod x;` (`x.rs`, `x/mod.rs`, `#[path]`) and
//! inline `mod x { }`, and record per module what the type namespace holds (items, child
//! modules, `use` entries) and which items derive a tuplet trait.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Item, UseTree};

use super::configure::{self, tuplet_derive};
use super::error::LoadError;
use super::sources::Files;
use crate::grammar::Derive;

/// One module of the crate.
pub(crate) struct Module {
    /// `crate`, `crate::player`, `crate::minigames::race`.
    pub path: String,
    /// The enclosing module (`None` for the crate root).
    pub parent: Option<usize>,
    /// The file it is written in.
    pub file: PathBuf,
    /// Whether it, or a module around it, is under `#[cfg(...)]`.
    pub cfg: bool,
    /// Child modules by name.
    pub children: BTreeMap<String, usize>,
    /// Names of the type (and value) namespace declared here.
    pub defs: BTreeMap<String, Def>,
    /// `use` entries, in source order.
    pub uses: Vec<UseEntry>,
    /// Item-level macro invocations (not `macro_rules!` definitions): path and place.
    pub macros: Vec<(String, Span)>,
}

/// What a name declared in a module is.
#[derive(Clone, Copy)]
pub(crate) enum Def {
    /// A tuplet item: index into [`Walk::items`].
    Tuplet(usize),
    /// Anything else (a struct without a tuplet derive, a trait, a fn...): what it is.
    Other(&'static str),
}

/// One imported name, or a glob.
pub(crate) struct UseEntry {
    /// The name it binds (`None` for a glob `use a::*`).
    pub name: Option<String>,
    /// The path, as segments (`crate`, `common`, `Vec3`).
    pub path: Vec<String>,
    /// Where it is written.
    pub span: Span,
}

/// A struct or enum with a tuplet derive.
pub(crate) struct Found {
    /// The module it is declared in.
    pub module: usize,
    /// Which derive.
    pub derive: Derive,
    /// The item, as the derive would see it (`cfg` and `cfg_attr` applied).
    pub input: syn::DeriveInput,
}

/// The whole crate as walked.
#[derive(Default)]
pub(crate) struct Walk {
    /// Modules; index 0 is the crate root.
    pub modules: Vec<Module>,
    /// Tuplet items, in walk order (file by file, in source order).
    pub items: Vec<Found>,
    /// Problems found on the way.
    pub errors: Vec<LoadError>,
    /// The crate root's `pub const` integer literals, in source order.
    pub constants: Vec<crate::resolved::Constant>,
}

/// Where a module's `mod x;` children live, and how `#[path]` is resolved.
struct Dirs {
    /// The directory holding the children's files (`src/` for the root, `src/a/` for a).
    children: PathBuf,
    /// Whether the module is an inline `mod x { }` (then `#[path]` is relative to
    /// `children`, else to the file's own directory).
    inline: bool,
}

impl Walk {
    /// Walks the crate whose root file is `root` (`src/lib.rs`), reading through `files`.
    pub fn crate_from(files: &dyn Files, root: &Path) -> Walk {
        let mut walk = Walk::default();
        let items = match files.items(root) {
            Ok(items) => items,
            Err(e) => {
                walk.errors.push(e);
                return walk;
            }
        };
        let dirs = Dirs {
            children: root.parent().unwrap_or(Path::new("")).to_path_buf(),
            inline: false,
        };
        let root = root.to_path_buf();
        walk.module(files, "crate".into(), None, root, false, items, dirs);
        walk
    }

    #[allow(clippy::too_many_arguments)]
    fn module(
        &mut self,
        files: &dyn Files,
        path: String,
        parent: Option<usize>,
        file: PathBuf,
        cfg: bool,
        items: Vec<Item>,
        dirs: Dirs,
    ) -> usize {
        let index = self.modules.len();
        self.modules.push(Module {
            path: path.clone(),
            parent,
            file: file.clone(),
            cfg,
            children: BTreeMap::new(),
            defs: BTreeMap::new(),
            uses: Vec::new(),
            macros: Vec::new(),
        });
        // Type-namespace names seen so far, with where, to report a second definition.
        let mut seen: BTreeMap<String, Span> = BTreeMap::new();
        for item in items {
            match item {
                Item::Mod(m) => {
                    let name = m.ident.to_string();
                    self.define(index, &mut seen, &file, &m.ident, "module");
                    if let Some(child) = self.child(files, index, &path, &file, cfg, &dirs, m) {
                        self.modules[index].children.insert(name, child);
                    }
                }
                Item::Struct(s) => self.data_item(index, &mut seen, &file, s.into(), "struct"),
                Item::Enum(e) => self.data_item(index, &mut seen, &file, e.into(), "enum"),
                Item::Union(u) => {
                    self.define(index, &mut seen, &file, &u.ident, "union");
                }
                Item::Type(t) => {
                    self.define(index, &mut seen, &file, &t.ident, "type alias");
                }
                Item::Trait(t) => {
                    self.define(index, &mut seen, &file, &t.ident, "trait");
                }
                Item::TraitAlias(t) => {
                    self.define(index, &mut seen, &file, &t.ident, "trait alias");
                }
                Item::Fn(f) => self.value(index, &f.sig.ident, "function"),
                Item::Const(c) => {
                    if index == 0 {
                        self.constants.extend(constant(&c));
                    }
                    self.value(index, &c.ident, "constant")
                }
                Item::Static(s) => self.value(index, &s.ident, "static"),
                Item::Use(u) => {
                    let mut entries = Vec::new();
                    flatten_use(&u.tree, &mut Vec::new(), &mut entries);
                    self.modules[index].uses.extend(entries);
                }
                Item::Macro(m) if m.ident.is_none() => {
                    let name = path_string(&m.mac.path);
                    self.modules[index].macros.push((name, m.mac.path.span()));
                }
                _ => {}
            }
        }
        index
    }

    /// Records a type-namespace name; reports a second definition and returns false.
    fn define(
        &mut self,
        module: usize,
        seen: &mut BTreeMap<String, Span>,
        file: &Path,
        ident: &syn::Ident,
        what: &'static str,
    ) -> bool {
        let name = ident.to_string();
        if let Some(first) = seen.get(&name) {
            let start = first.start();
            self.errors.push(LoadError::at(
                file,
                ident.span(),
                format!(
                    "`{name}` is defined twice in `{}` (first at line {}): rename or remove one",
                    self.modules[module].path, start.line
                ),
            ));
            return false;
        }
        seen.insert(name.clone(), ident.span());
        self.modules[module].defs.insert(name, Def::Other(what));
        true
    }

    /// Records a value-namespace name (only for `use` resolution).
    fn value(&mut self, module: usize, ident: &syn::Ident, what: &'static str) {
        self.modules[module]
            .defs
            .entry(ident.to_string())
            .or_insert(Def::Other(what));
    }

    /// A struct or enum: configured as the derive sees it (`configure`), then defined, and
    /// recorded when it has a tuplet derive.
    fn data_item(
        &mut self,
        module: usize,
        seen: &mut BTreeMap<String, Span>,
        file: &Path,
        input: syn::DeriveInput,
        what: &'static str,
    ) {
        let ident = input.ident.clone();
        let input = match configure::item(input) {
            Ok(Some(input)) => input,
            Ok(None) => return,
            Err(refusals) => {
                for (span, message) in refusals {
                    self.errors.push(LoadError::at(file, span, message));
                }
                self.define(module, seen, file, &ident, what);
                return;
            }
        };
        if self.define(module, seen, file, &ident, what) {
            let derive = tuplet_derive(&input.attrs);
            self.found(module, derive, input);
        }
    }

    fn found(&mut self, module: usize, derive: Option<Derive>, input: syn::DeriveInput) {
        let Some(derive) = derive else { return };
        let name = input.ident.to_string();
        let index = self.items.len();
        self.items.push(Found {
            module,
            derive,
            input,
        });
        self.modules[module].defs.insert(name, Def::Tuplet(index));
    }

    /// Walks the module declared by `m`, returning its index; `None` when its file is
    /// missing (reported unless the module is `#[cfg]`'d).
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        files: &dyn Files,
        parent: usize,
        parent_path: &str,
        file: &Path,
        cfg: bool,
        dirs: &Dirs,
        m: syn::ItemMod,
    ) -> Option<usize> {
        let name = m.ident.to_string();
        let path = format!("{parent_path}::{name}");
        let cfg = match configure::module(&m.attrs) {
            Some(false) => return None,
            Some(true) => cfg,
            None => true,
        };
        let path_attr = path_attr(&m.attrs);
        if let Some((_, items)) = m.content {
            // mod x { ... }: its `mod y;` children live in <children>/x/ (or the #[path] dir).
            let sub = match &path_attr {
                Some((p, _)) => dirs.children.join(p),
                None => dirs.children.join(&name),
            };
            let dirs = Dirs {
                children: sub,
                inline: true,
            };
            let file = file.to_path_buf();
            return Some(self.module(files, path, Some(parent), file, cfg, items, dirs));
        }
        let (target, children) = match &path_attr {
            Some((p, span)) => {
                let base = if dirs.inline {
                    dirs.children.clone()
                } else {
                    file.parent().unwrap_or(Path::new("")).to_path_buf()
                };
                let target = base.join(p);
                if !files.is_file(&target) {
                    if !cfg {
                        self.errors.push(LoadError::at(
                            file,
                            *span,
                            format!(
                                "`#[path = \"{p}\"]` on `mod {name}` points at {}, which does not \
                                 exist: fix the path (it is relative to {})",
                                target.display(),
                                base.display()
                            ),
                        ));
                    }
                    return None;
                }
                let children = target.parent().unwrap_or(Path::new("")).to_path_buf();
                (target, children)
            }
            None => {
                let flat = dirs.children.join(format!("{name}.rs"));
                let nested = dirs.children.join(&name).join("mod.rs");
                if files.is_file(&flat) {
                    (flat, dirs.children.join(&name))
                } else if files.is_file(&nested) {
                    (nested, dirs.children.join(&name))
                } else {
                    if !cfg {
                        self.errors.push(LoadError::at(
                            file,
                            m.ident.span(),
                            format!(
                                "module `{name}` has no file: looked for {} and {}; create one, \
                                 or point at it with `#[path = \"...\"]`",
                                flat.display(),
                                nested.display()
                            ),
                        ));
                    }
                    return None;
                }
            }
        };
        let items = match files.items(&target) {
            Ok(items) => items,
            Err(e) => {
                self.errors.push(e);
                return None;
            }
        };
        let dirs = Dirs {
            children,
            inline: false,
        };
        Some(self.module(files, path, Some(parent), target, cfg, items, dirs))
    }
}

/// The `#[path = "..."]` of a module, with its span.
fn path_attr(attrs: &[Attribute]) -> Option<(String, Span)> {
    attrs.iter().find_map(|a| {
        let nv = a.meta.require_name_value().ok()?;
        if !nv.path.is_ident("path") {
            return None;
        }
        match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some((s.value(), a.span())),
            _ => None,
        }
    })
}

/// `a::b::C` without spaces.
pub(crate) fn path_string(p: &syn::Path) -> String {
    let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
    let joined = segs.join("::");
    if p.leading_colon.is_some() {
        format!("::{joined}")
    } else {
        joined
    }
}

/// Flattens a use tree into one entry per bound name or glob.
fn flatten_use(tree: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<UseEntry>) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                if let Some(last) = prefix.last() {
                    out.push(UseEntry {
                        name: Some(last.clone()),
                        path: prefix.clone(),
                        span: n.ident.span(),
                    });
                }
                return;
            }
            let mut path = prefix.clone();
            path.push(name.clone());
            out.push(UseEntry {
                name: Some(name),
                path,
                span: n.ident.span(),
            });
        }
        UseTree::Rename(r) => {
            let mut path = prefix.clone();
            let orig = r.ident.to_string();
            if orig != "self" {
                path.push(orig);
            }
            out.push(UseEntry {
                name: Some(r.rename.to_string()),
                path,
                span: r.ident.span(),
            });
        }
        UseTree::Glob(g) => out.push(UseEntry {
            name: None,
            path: prefix.clone(),
            span: g.star_token.span(),
        }),
        UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(t, prefix, out);
            }
        }
    }
}

/// A `pub const NAME: {integer type} = {integer literal};` (a leading `-` allowed) as a schema
/// constant; anything else (another type, an expression, a private constant) is none.
fn constant(c: &syn::ItemConst) -> Option<crate::resolved::Constant> {
    const INTS: &[&str] = &[
        "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
    ];
    if !matches!(c.vis, syn::Visibility::Public(_)) {
        return None;
    }
    let syn::Type::Path(ty) = c.ty.as_ref() else {
        return None;
    };
    if !ty
        .path
        .get_ident()
        .is_some_and(|i| INTS.contains(&i.to_string().as_str()))
    {
        return None;
    }
    let (negative, lit) = match c.expr.as_ref() {
        syn::Expr::Lit(l) => (false, &l.lit),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => match expr.as_ref() {
            syn::Expr::Lit(l) => (true, &l.lit),
            _ => return None,
        },
        _ => return None,
    };
    let syn::Lit::Int(n) = lit else { return None };
    let value: i64 = n.base10_parse().ok()?;
    let mut doc = Vec::new();
    for a in &c.attrs {
        if let syn::Meta::NameValue(nv) = &a.meta {
            if nv.path.is_ident("doc") {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = &nv.value
                {
                    doc.push(s.value().trim().to_string());
                }
            }
        }
    }
    Some(crate::resolved::Constant {
        name: c.ident.to_string(),
        value: if negative { -value } else { value },
        doc: doc.join("\n"),
    })
}

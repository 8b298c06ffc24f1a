//! Where the loader reads a crate's files: the disk, or a [`SourceTree`] held in memory.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use syn::Item;

use super::error::LoadError;

/// The file access the module walk needs.
pub(crate) trait Files {
    /// Whether `path` names a file.
    fn is_file(&self, path: &Path) -> bool;
    /// The items of the file at `path`, or why it cannot be read or parsed.
    fn items(&self, path: &Path) -> Result<Vec<Item>, LoadError>;
}

/// The files on disk.
pub(crate) struct Disk;

impl Files for Disk {
    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn items(&self, path: &Path) -> Result<Vec<Item>, LoadError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| LoadError::at_line(path, 0, 0, format!("cannot read the file: {e}")))?;
        parse(path, &text)
    }
}

/// Parses one file's text.
fn parse(path: &Path, text: &str) -> Result<Vec<Item>, LoadError> {
    syn::parse_file(text)
        .map(|f| f.items)
        .map_err(|e| LoadError::at(path, e.span(), format!("does not parse as Rust: {e}")))
}

/// A schema crate's source files held in memory, each parsed once, when inserted: the
/// loader without the disk, for tools and fuzzers that change one file and load again.
///
/// Paths are relative to the crate directory (`src/lib.rs`, `src/player.rs`,
/// `src/minigames/mod.rs`) and compared after dropping `.` and resolving `..` lexically;
/// the root file is `src/lib.rs`. [`SourceTree::load`] gives what [`load`](super::load)
/// gives on a crate directory holding the same files, with file names relative to it.
///
/// Parsed files keep their spans in the current thread's span table, so a tree stays on
/// the thread that built it (it is neither `Send` nor `Sync`) and clones share the parsed
/// files.
#[derive(Clone, Default)]
pub struct SourceTree {
    files: BTreeMap<PathBuf, Rc<Result<Vec<Item>, LoadError>>>,
}

impl SourceTree {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the file at `path` (relative to the crate directory) with `text`, or replaces
    /// it, and parses it. A text that does not parse is kept as its error, reported when
    /// the walk reaches the file.
    pub fn insert(&mut self, path: impl AsRef<Path>, text: &str) {
        let path = normal(path.as_ref());
        let parsed = parse(&path, text);
        self.files.insert(path, Rc::new(parsed));
    }
}

impl Files for SourceTree {
    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(&normal(path))
    }

    fn items(&self, path: &Path) -> Result<Vec<Item>, LoadError> {
        match self.files.get(&normal(path)) {
            Some(parsed) => parsed.as_ref().clone(),
            None => Err(LoadError::at_line(
                path,
                0,
                0,
                "cannot read the file: not in the source tree",
            )),
        }
    }
}

/// `path` without `.` components, `..` applied to what precedes it.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_compare_lexically_normalized() {
        assert_eq!(normal(Path::new("src/./a/../b.rs")), Path::new("src/b.rs"));
        assert_eq!(
            normal(Path::new("../x/../../y.rs")),
            Path::new("../../y.rs")
        );
    }

    #[test]
    fn a_tree_loads_like_the_disk_and_reports_the_replaced_file() {
        let lib = "mod player;\n";
        let player = "#[derive(tuplet::Message)]\n#[tuplet(name = \"p:hello\", id = 1, dir = \"c2s\")]\npub struct Hello {\n    pub name: String,\n}\n";
        let mut tree = SourceTree::new();
        tree.insert("src/lib.rs", lib);
        tree.insert("./src/player.rs", player);
        let schema = tree.load().expect("the tree loads");
        assert_eq!(
            schema.c2s.get(&1).map(String::as_str),
            Some("crate::player::Hello")
        );

        let mut broken = tree.clone();
        broken.insert("src/player.rs", "pub struct {");
        let errors = broken.load().expect_err("a file that does not parse");
        let first = &errors.0[0];
        assert_eq!(first.file, Path::new("src/player.rs"));
        assert!(first.message.contains("does not parse"), "{first}");
        assert!(tree.load().is_ok(), "the clone shares nothing mutable");

        let mut missing = SourceTree::new();
        missing.insert("src/lib.rs", lib);
        let errors = missing.load().expect_err("a module without a file");
        assert!(
            errors.0[0].message.contains("has no file"),
            "{}",
            errors.0[0]
        );
    }
}

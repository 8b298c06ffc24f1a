//! Writes emitted files, touching only those whose bytes changed, and compares them with
//! the disk for `gen --check`. An output folder belongs to tuplet: files in it that the
//! emitter did not produce are removed by `gen` and reported by `--check`.

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// How a file on disk differs from what `gen` would write.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// Not on disk.
    Missing(PathBuf),
    /// On disk with other bytes.
    Stale(PathBuf),
    /// On disk, not produced by the emitter.
    Extra(PathBuf),
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Missing(p) => write!(f, "missing: {}", p.display()),
            Change::Stale(p) => write!(f, "stale:   {}", p.display()),
            Change::Extra(p) => write!(f, "extra:   {}", p.display()),
        }
    }
}

/// What a write did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Written {
    /// Files created or rewritten.
    pub written: Vec<PathBuf>,
    /// Files removed (not produced any more).
    pub removed: Vec<PathBuf>,
    /// Files left untouched (same bytes).
    pub unchanged: usize,
}

/// Compares `files` (relative to `root`) with the disk.
pub fn diff(root: &Path, files: &BTreeMap<String, String>) -> io::Result<Vec<Change>> {
    let mut changes = Vec::new();
    for (rel, text) in files {
        let path = root.join(rel);
        match std::fs::read(&path) {
            Ok(bytes) if bytes == text.as_bytes() => {}
            Ok(_) => changes.push(Change::Stale(path)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => changes.push(Change::Missing(path)),
            Err(e) => return Err(e),
        }
    }
    for rel in existing(root)? {
        if !files.contains_key(&rel) {
            changes.push(Change::Extra(root.join(rel)));
        }
    }
    changes.sort();
    Ok(changes)
}

/// Writes `files` under `root`: only files whose bytes changed, then removes extra files.
pub fn write(root: &Path, files: &BTreeMap<String, String>) -> io::Result<Written> {
    let mut out = Written::default();
    for change in diff(root, files)? {
        match change {
            Change::Missing(path) | Change::Stale(path) => {
                let rel = path.strip_prefix(root).expect("under the root");
                let rel = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                std::fs::write(&path, &files[&rel])?;
                out.written.push(path);
            }
            Change::Extra(path) => {
                std::fs::remove_file(&path)?;
                out.removed.push(path);
            }
        }
    }
    out.unchanged = files.len() - out.written.len();
    remove_empty_dirs(root)?;
    Ok(out)
}

/// Every file under `root`, relative, with `/` separators (none when `root` is absent).
fn existing(root: &Path) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let dir = root.join(&rel);
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        for entry in entries {
            let entry = entry?;
            let child = rel.join(entry.file_name());
            if entry.file_type()?.is_dir() {
                stack.push(child);
            } else {
                let s = child
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                out.push(s);
            }
        }
    }
    out.sort();
    Ok(out)
}

fn remove_empty_dirs(dir: &Path) -> io::Result<bool> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(false);
    };
    let mut empty = true;
    for entry in entries {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            if remove_empty_dirs(&entry.path())? {
                std::fs::remove_dir(entry.path())?;
            } else {
                empty = false;
            }
        } else {
            empty = false;
        }
    }
    Ok(empty)
}

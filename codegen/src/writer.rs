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
                write_atomic(&path, files[&rel].as_bytes())?;
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

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, then a rename
/// over `path`, so an interrupted write leaves the old file or the new one, never a part.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".tuplet-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    // A temporary file is private (0600); the file keeps the old one's mode, or gets a
    // plain file's.
    let mode = match std::fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => plain_permissions(tmp.as_file())?,
    };
    tmp.as_file().set_permissions(mode)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(unix)]
fn plain_permissions(_: &std::fs::File) -> io::Result<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Ok(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn plain_permissions(file: &std::fs::File) -> io::Result<std::fs::Permissions> {
    Ok(file.metadata()?.permissions())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_atomic_replaces_the_file_and_leaves_no_temporary() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("a.txt");
        std::fs::write(&file, "old").unwrap();
        write_atomic(&file, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.txt")]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let fresh = tmp.path().join("b.txt");
            write_atomic(&fresh, b"b").unwrap();
            let mode = std::fs::metadata(&fresh).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o644);
        }
    }
}

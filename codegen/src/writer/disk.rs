//! The disk side of the writer: atomic writes (with the test hook that stops a run between
//! them), the temporary files' names, and walking an output folder.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use super::owned;

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, then a rename
/// over `path`, so an interrupted write leaves the old file or the new one, never a part.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(TMP_PREFIX)
        .suffix(TMP_SUFFIX)
        .rand_bytes(TMP_RANDOM)
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
    checkpoint();
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

/// The test hook `TUPLET_ABORT_AFTER_WRITES=N`: the process finishes N writes and removals,
/// then stops during the next one (a write's temporary file already on disk, not yet
/// renamed) with exit code [`ABORTED`], running no destructors, as a kill at the worst
/// moment would. Tests use it to prove an interrupted `gen` leaves every file old or new;
/// unset, nothing happens.
pub(super) fn checkpoint() {
    static LIMIT: OnceLock<Option<usize>> = OnceLock::new();
    static DONE: AtomicUsize = AtomicUsize::new(0);
    let limit = LIMIT.get_or_init(|| {
        std::env::var("TUPLET_ABORT_AFTER_WRITES")
            .ok()
            .and_then(|v| v.parse().ok())
    });
    if let Some(limit) = limit {
        if DONE.fetch_add(1, Ordering::SeqCst) >= *limit {
            std::process::exit(ABORTED);
        }
    }
}

/// The exit code of a process stopped by the test hook `TUPLET_ABORT_AFTER_WRITES=N`: it
/// finishes N writes and removals, then stops during the next one.
pub const ABORTED: i32 = 99;

/// Whether a file name is one of [`write_atomic`]'s temporary files.
pub(super) fn is_temporary(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.len() == TMP_PREFIX.len() + TMP_RANDOM + TMP_SUFFIX.len()
        && name.starts_with(TMP_PREFIX)
        && name.ends_with(TMP_SUFFIX)
}

const TMP_PREFIX: &str = ".tuplet-";
const TMP_SUFFIX: &str = ".tmp";
const TMP_RANDOM: usize = 6;

/// `path` relative to `dir`, with `/` separators.
pub(super) fn relative(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir)
        .expect("under the folder")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The symbolic links among the folders `rel` passes through under `dir`.
pub(super) fn linked_folders(dir: &Path, rel: &str) -> io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut at = dir.to_path_buf();
    let parts: Vec<&str> = rel.split('/').collect();
    for part in &parts[..parts.len() - 1] {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                out.push(at.clone());
                break;
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => break,
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// Every file under `root` but its manifest, relative, with `/` separators (none when
/// `root` is absent). Symbolic links are listed as files, not followed.
pub(super) fn existing(root: &Path) -> io::Result<Vec<String>> {
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
            } else if child != Path::new(owned::FILE_NAME) {
                out.push(relative(Path::new(""), &child));
            }
        }
    }
    out.sort();
    Ok(out)
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

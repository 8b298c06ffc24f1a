//! What differs between an output folder and what `gen` writes, what a write did, and
//! why it wrote nothing.

use std::fmt;
use std::io;
use std::path::PathBuf;

use super::owned;

/// How a path in an output folder differs from what `gen` would write, or why `gen` refuses.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// Not on disk: `gen` writes it.
    Missing(PathBuf),
    /// On disk with other bytes that tuplet wrote: `gen` rewrites it.
    Stale(PathBuf),
    /// Written by tuplet, not produced any more: `gen` removes it.
    Extra(PathBuf),
    /// A temporary file of an interrupted `gen`: `gen` removes it.
    Leftover(PathBuf),
    /// Refused: tuplet wrote it, but its bytes changed since.
    Edited(PathBuf),
    /// Refused: a file tuplet did not write is where `gen` writes one.
    Foreign(PathBuf),
    /// Refused: a symbolic link is where `gen` writes a folder.
    Link(PathBuf),
    /// Refused: the folder is not empty and has no manifest, so tuplet did not make it.
    Unowned {
        /// The folder.
        dir: PathBuf,
        /// A few of its files, relative.
        sample: Vec<String>,
        /// How many files it holds.
        total: usize,
    },
    /// Refused: the manifest cannot be read.
    BadManifest {
        /// The manifest file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl Change {
    /// Whether `gen` refuses to run because of it: it would overwrite or remove a file that
    /// tuplet did not write, or write into a folder it does not own.
    pub fn refused(&self) -> bool {
        !matches!(
            self,
            Change::Missing(_) | Change::Stale(_) | Change::Extra(_) | Change::Leftover(_)
        )
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Missing(p) => write!(f, "missing: {}", p.display()),
            Change::Stale(p) => write!(f, "stale:   {}", p.display()),
            Change::Extra(p) => write!(
                f,
                "extra:   {} (tuplet wrote it, no longer produced)",
                p.display()
            ),
            Change::Leftover(p) => {
                write!(
                    f,
                    "extra:   {} (a temporary file of an interrupted run)",
                    p.display()
                )
            }
            Change::Edited(p) => write!(
                f,
                "edited:  {} (changed since tuplet wrote it; gen would overwrite or remove it)",
                p.display()
            ),
            Change::Foreign(p) => write!(
                f,
                "foreign: {} (tuplet did not write it; gen would overwrite it)",
                p.display()
            ),
            Change::Link(p) => write!(
                f,
                "link:    {} (a symbolic link where gen writes a folder; it writes only inside \
                 its own folder)",
                p.display()
            ),
            Change::Unowned { dir, sample, total } => {
                let mut list = sample.join(", ");
                if *total > sample.len() {
                    list.push_str(&format!(" and {} more", total - sample.len()));
                }
                write!(
                    f,
                    "unowned: {} (not empty and no {}, so tuplet did not make it; it holds {list})",
                    dir.display(),
                    owned::FILE_NAME
                )
            }
            Change::BadManifest { path, message } => {
                write!(
                    f,
                    "unowned: {} is not a manifest tuplet reads: {message}",
                    path.display()
                )
            }
        }
    }
}

/// What a write did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Written {
    /// Files created or rewritten.
    pub written: Vec<PathBuf>,
    /// Files removed (written by tuplet, not produced any more).
    pub removed: Vec<PathBuf>,
    /// Produced files left untouched (same bytes).
    pub unchanged: usize,
    /// Files in the folder that tuplet did not write (or no longer claims), left alone.
    pub kept: Vec<PathBuf>,
    /// The manifest, when it changed.
    pub manifest: Option<PathBuf>,
}

/// Why [`super::write`] wrote nothing.
#[derive(Debug)]
pub enum WriteError {
    /// A refusal: it would overwrite or remove what tuplet did not write.
    Refused(Vec<Change>),
    /// The disk failed.
    Io(io::Error),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Refused(changes) => {
                for c in changes {
                    writeln!(f, "{c}")?;
                }
                write!(f, "refused; nothing written")
            }
            WriteError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WriteError {}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}

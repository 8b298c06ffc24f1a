//! Writes emitted files into the output folders tuplet owns, and compares them with the
//! disk for `gen --check`. Each folder keeps a manifest of the files tuplet wrote there
//! ([`owned`]); a write touches only files whose bytes changed, removes only listed files
//! that are no longer produced, and refuses, before touching anything, to overwrite or
//! remove a file tuplet did not write (or one changed since). Every write is atomic, and the
//! manifest is written first with the old and new hashes and last with the new ones, so an
//! interrupted `gen` leaves each file old or new and the next run picks up where it stopped.

mod change;
mod disk;
pub mod owned;
pub mod place;

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

pub use change::{Change, WriteError, Written};
pub use disk::{write_atomic, ABORTED};

use disk::{checkpoint, existing, is_temporary, linked_folders, relative};
use owned::{hash, Manifest};

/// The files of one output folder: relative path (`/` separators) to contents.
pub type Files = BTreeMap<String, String>;

/// What `gen` would do in one output folder ([`plan`]), and does ([`apply`]).
#[derive(Debug, Clone)]
pub struct Plan {
    /// The output folder.
    pub dir: PathBuf,
    /// Every difference from what `gen` writes, refusals included, sorted.
    pub changes: Vec<Change>,
    /// Files tuplet did not write (or no longer claims) that stay as they are.
    pub kept: Vec<PathBuf>,
    /// How many produced files are already as `gen` writes them.
    pub unchanged: usize,
    /// The manifest written before the files: old and new hashes.
    pending: Manifest,
    /// The manifest written last: the produced files' hashes.
    last: Manifest,
    /// The manifest's text on disk, if any.
    on_disk: Option<String>,
}

impl Plan {
    /// The refusals among the changes.
    pub fn refusals(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.refused())
    }
}

/// How many of a folder's files an [`Change::Unowned`] names.
const SAMPLE: usize = 5;

/// Compares `files` (relative to `dir`) with the disk and the folder's manifest. With
/// `adopt`, files tuplet did not write (or that changed since) at paths it writes are
/// overwritten, listed files changed since and no longer produced are kept (and unlisted),
/// and a folder without a manifest is taken over; nothing else changes.
pub fn plan(dir: &Path, files: &Files, adopt: bool) -> io::Result<Plan> {
    let manifest_path = dir.join(owned::FILE_NAME);
    let mut changes = Vec::new();
    let mut kept = Vec::new();
    let on_disk = match std::fs::read_to_string(&manifest_path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) if e.kind() == io::ErrorKind::InvalidData => Some(String::new()),
        Err(e) => return Err(e),
    };
    let (temps, present): (Vec<_>, Vec<_>) = existing(dir)?
        .into_iter()
        .partition(|rel| is_temporary(rel));
    let last = Manifest::of(files);
    let mut plan = Plan {
        dir: dir.to_path_buf(),
        changes: Vec::new(),
        kept: Vec::new(),
        unchanged: 0,
        pending: Manifest::default(),
        last,
        on_disk: on_disk.clone(),
    };
    let old = match &on_disk {
        Some(text) => match Manifest::parse(text) {
            Ok(m) => m,
            Err(_) if adopt => Manifest::default(),
            Err(message) => {
                plan.changes.push(Change::BadManifest {
                    path: manifest_path,
                    message,
                });
                return Ok(plan);
            }
        },
        None if present.is_empty() || adopt => Manifest::default(),
        None => {
            plan.changes.push(Change::Unowned {
                dir: dir.to_path_buf(),
                sample: present.iter().take(SAMPLE).cloned().collect(),
                total: present.len(),
            });
            return Ok(plan);
        }
    };
    let mut pending = old.clone();
    let mut links = BTreeSet::new();
    for (rel, text) in files {
        let path = dir.join(rel);
        for link in linked_folders(dir, rel)? {
            if links.insert(link.clone()) {
                changes.push(Change::Link(link));
            }
        }
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                pending.add(rel, hash(text.as_bytes()));
                changes.push(Change::Missing(path));
                continue;
            }
            Err(e) => return Err(e),
        };
        let bytes = if meta.is_file() {
            Some(std::fs::read(&path)?)
        } else {
            None
        };
        match bytes {
            Some(b) if b == text.as_bytes() => plan.unchanged += 1,
            Some(b) if old.wrote(rel, &b) || adopt => {
                pending.add(rel, hash(&b));
                pending.add(rel, hash(text.as_bytes()));
                changes.push(Change::Stale(path));
            }
            _ if old.lists(rel) => changes.push(Change::Edited(path)),
            _ => changes.push(Change::Foreign(path)),
        }
    }
    for rel in present.iter().filter(|rel| !files.contains_key(*rel)) {
        let path = dir.join(rel);
        if !old.lists(rel) {
            kept.push(path);
            continue;
        }
        let meta = std::fs::symlink_metadata(&path)?;
        let ours = meta.is_file() && old.wrote(rel, &std::fs::read(&path)?);
        if ours {
            changes.push(Change::Extra(path));
        } else if adopt {
            kept.push(path);
        } else {
            changes.push(Change::Edited(path));
        }
    }
    for rel in temps {
        changes.push(Change::Leftover(dir.join(rel)));
    }
    let last_text = plan.last.render();
    let manifest_fresh = on_disk.as_deref() == Some(last_text.as_str());
    // Nothing produced into a folder that does not exist: nothing to list either.
    let nothing = files.is_empty() && on_disk.is_none() && !dir.exists();
    if !manifest_fresh && !nothing {
        changes.push(match on_disk {
            None => Change::Missing(manifest_path),
            Some(_) => Change::Stale(manifest_path),
        });
    }
    changes.sort();
    plan.changes = changes;
    plan.kept = kept;
    plan.pending = pending;
    Ok(plan)
}

/// Does what `plan` says: the manifest with old and new hashes first (when any file
/// changes), then each file (atomically) and each removal, then the final manifest. Panics
/// when the plan has a refusal: check [`Plan::refusals`] first.
pub fn apply(plan: &Plan, files: &Files) -> io::Result<Written> {
    assert!(
        plan.refusals().next().is_none(),
        "a refused plan is not applied"
    );
    let dir = &plan.dir;
    let manifest_path = dir.join(owned::FILE_NAME);
    let mut out = Written {
        kept: plan.kept.clone(),
        unchanged: plan.unchanged,
        ..Written::default()
    };
    let work: Vec<&Change> = plan
        .changes
        .iter()
        .filter(|c| !matches!(c, Change::Missing(p) | Change::Stale(p) if *p == manifest_path))
        .collect();
    std::fs::create_dir_all(dir)?;
    let mut on_disk = plan.on_disk.clone();
    if !work.is_empty() {
        let pending = plan.pending.render();
        if on_disk.as_deref() != Some(pending.as_str()) {
            write_atomic(&manifest_path, pending.as_bytes())?;
            on_disk = Some(pending);
        }
    }
    let mut emptied = BTreeSet::new();
    for change in work {
        match change {
            Change::Missing(path) | Change::Stale(path) => {
                let rel = relative(dir, path);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                write_atomic(path, files[&rel].as_bytes())?;
                out.written.push(path.clone());
            }
            Change::Extra(path) | Change::Leftover(path) => {
                checkpoint();
                std::fs::remove_file(path)?;
                if let Some(parent) = path.parent() {
                    emptied.insert(parent.to_path_buf());
                }
                if matches!(change, Change::Extra(_)) {
                    out.removed.push(path.clone());
                }
            }
            _ => unreachable!("refusals are not applied"),
        }
    }
    // Deepest first, so a folder emptied by its emptied subfolder goes too.
    let mut emptied: Vec<PathBuf> = emptied.into_iter().collect();
    emptied.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for start in emptied {
        for d in start
            .ancestors()
            .take_while(|d| d.starts_with(dir) && *d != dir.as_path())
        {
            if std::fs::read_dir(d)
                .map(|mut e| e.next().is_none())
                .unwrap_or(false)
            {
                std::fs::remove_dir(d)?;
            } else {
                break;
            }
        }
    }
    let last = plan.last.render();
    if on_disk.as_deref() != Some(last.as_str()) {
        write_atomic(&manifest_path, last.as_bytes())?;
    }
    if plan.on_disk.as_deref() != Some(last.as_str()) {
        out.manifest = Some(manifest_path);
    }
    Ok(out)
}

/// Compares `files` (relative to `root`) with the disk: what `gen --check` reports.
pub fn diff(root: &Path, files: &Files) -> io::Result<Vec<Change>> {
    Ok(plan(root, files, false)?.changes)
}

/// Writes `files` under `root` as `gen` does (without adopting): [`plan`], then [`apply`]
/// unless something is refused.
pub fn write(root: &Path, files: &Files) -> Result<Written, WriteError> {
    let plan = plan(root, files, false)?;
    let refused: Vec<Change> = plan.refusals().cloned().collect();
    if !refused.is_empty() {
        return Err(WriteError::Refused(refused));
    }
    Ok(apply(&plan, files)?)
}

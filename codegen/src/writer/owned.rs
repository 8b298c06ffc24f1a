//! The manifest of an output folder, `.tuplet-manifest`: every file `tuplet gen` wrote
//! there, with the SHA-256 of the bytes it wrote. `gen` overwrites or removes a file only
//! when the manifest lists it with the hash of the bytes on disk.
//!
//! A header line, then one line per file, sorted by path: `<sha256 hex>  <path>` (`/`
//! separators, relative to the folder). While `gen` writes, the manifest lists each changing
//! file twice, with its old hash and its new one, so an interrupted run leaves every file
//! accounted for; the run's last write is the final manifest, one line per file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path};

use sha2::{Digest, Sha256};

/// The manifest's file name, in the output folder's root.
pub const FILE_NAME: &str = ".tuplet-manifest";

/// The first line, which says what the file is and names its format.
const HEADER: &str = "# tuplet-manifest 1: the files `tuplet gen` wrote in this folder (sha256, \
                      path); it overwrites or removes only these. Do not edit.";

/// The prefix of the first line that identifies a manifest of this format.
const MAGIC: &str = "# tuplet-manifest 1:";

/// Which files tuplet wrote in a folder, each with the hashes its bytes may have.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    /// Relative path (`/` separators) to the hashes tuplet wrote there: one, or two while a
    /// `gen` is under way (old and new).
    pub files: BTreeMap<String, BTreeSet<String>>,
}

impl Manifest {
    /// The manifest of `files` (relative path to contents), one hash each.
    pub fn of<'a>(files: impl IntoIterator<Item = (&'a String, &'a String)>) -> Manifest {
        let mut m = Manifest::default();
        for (rel, text) in files {
            m.add(rel, hash(text.as_bytes()));
        }
        m
    }

    /// Lists `hash` for `rel`, beside the hashes already listed.
    pub fn add(&mut self, rel: &str, hash: String) {
        self.files.entry(rel.to_owned()).or_default().insert(hash);
    }

    /// Whether tuplet wrote `bytes` at `rel`.
    pub fn wrote(&self, rel: &str, bytes: &[u8]) -> bool {
        self.files
            .get(rel)
            .is_some_and(|h| h.contains(&hash(bytes)))
    }

    /// Whether `rel` is listed at all.
    pub fn lists(&self, rel: &str) -> bool {
        self.files.contains_key(rel)
    }

    /// The file's text: the header, then `hash  path` lines sorted by path, then by hash.
    pub fn render(&self) -> String {
        let mut s = String::with_capacity(80 * (self.files.len() + 1));
        s.push_str(HEADER);
        s.push('\n');
        for (rel, hashes) in &self.files {
            for h in hashes {
                s.push_str(h);
                s.push_str("  ");
                s.push_str(rel);
                s.push('\n');
            }
        }
        s
    }

    /// Parses a manifest's text; `Err` says which line is wrong. Every path must be a plain
    /// relative one (no `..`, no root), so a damaged manifest never names a file outside.
    pub fn parse(text: &str) -> Result<Manifest, String> {
        let mut lines = text.lines();
        if !lines.next().is_some_and(|l| l.starts_with(MAGIC)) {
            return Err(format!("the first line is not `{MAGIC} ...`"));
        }
        let mut m = Manifest::default();
        for (i, line) in lines.enumerate() {
            let n = i + 2;
            let (h, rel) = line
                .split_once("  ")
                .ok_or(format!("line {n}: not `<sha256>  <path>`"))?;
            if h.len() != 64 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(format!("line {n}: `{h}` is not a SHA-256 in hex"));
            }
            if !plain_relative(rel) {
                return Err(format!("line {n}: `{rel}` is not a path inside the folder"));
            }
            m.add(rel, h.to_ascii_lowercase());
        }
        Ok(m)
    }
}

/// Whether `rel` names a file strictly inside a folder: only normal components.
fn plain_relative(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.contains('\\')
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// The SHA-256 of `bytes`, lowercase hex.
pub fn hash(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut s = String::with_capacity(64);
    for b in digest {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_sha256() {
        // FIPS 180-2's "abc" vector.
        assert_eq!(
            hash(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn render_parse_round_trip_sorted_by_path() {
        let mut m = Manifest::default();
        m.add("b/x.ts", hash(b"2"));
        m.add("a.json", hash(b"1"));
        m.add("a.json", hash(b"0"));
        let text = m.render();
        let paths: Vec<&str> = text.lines().skip(1).map(|l| &l[66..]).collect();
        assert_eq!(paths, ["a.json", "a.json", "b/x.ts"]);
        assert_eq!(Manifest::parse(&text).unwrap(), m);
        assert!(m.wrote("a.json", b"0") && m.wrote("a.json", b"1"));
        assert!(!m.wrote("a.json", b"2") && !m.wrote("c", b"1"));
    }

    #[test]
    fn parse_refuses_paths_outside_and_foreign_files() {
        let h = hash(b"");
        for rel in ["../x", "/etc/passwd", "a/../../b", "", "a\\b"] {
            let text = format!("{HEADER}\n{h}  {rel}\n");
            assert!(Manifest::parse(&text).is_err(), "{rel}");
        }
        assert!(Manifest::parse("{\"name\": \"x\"}\n").is_err());
        assert!(Manifest::parse(&format!("{HEADER}\nnot-a-hash  a\n")).is_err());
    }
}

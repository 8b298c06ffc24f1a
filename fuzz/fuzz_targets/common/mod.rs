//! The checks of the fuzz targets, one function per target, shared with the stable test
//! that replays the committed corpora (`tests/tests/fuzz_corpus.rs`).

#![allow(dead_code)] // each target uses a part

use std::cell::RefCell;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use tuplet::{Dispatch, Encoding, Error};
use tuplet_codegen::commands::decode::plain;
use tuplet_codegen::commands::payload::{base64, parse_payload, unbase64};
use tuplet_codegen::ircodec;
use tuplet_schema::compat::{check, Deploy, Lock};
use tuplet_schema::ir::Dir;
use tuplet_schema::loader::SourceTree;
use tuplet_schema::ResolvedSchema;
use village::dispatch::{ClientMessage, ServerMessage};

/// The village crate's folder, seen from the fuzz crate or from the workspace test crate
/// (`tests/`, whose corpus replay includes this file): both are siblings of `examples/`.
fn village_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/village")
}

/// The village schema, loaded once.
pub fn schema() -> &'static ResolvedSchema {
    static SCHEMA: OnceLock<ResolvedSchema> = OnceLock::new();
    SCHEMA.get_or_init(|| tuplet_schema::loader::load(&village_dir()).expect("village loads"))
}

/// The two decoders agree: both accept, or both reject with the same code and path.
pub fn agree<T: Debug, U: Debug>(what: &str, derived: &Result<T, Error>, ir: &Result<U, Error>) {
    match (derived, ir) {
        (Ok(_), Ok(_)) => {}
        (Err(a), Err(b)) => assert_eq!(
            (a.code(), a.path().to_string()),
            (b.code(), b.path().to_string()),
            "{what}: the two decoders disagree"
        ),
        (a, b) => panic!("{what}: derived {a:?}, IR codec {b:?}"),
    }
}

/// A decoded value is valid and re-encodes, in both shapes, to bytes that decode to itself.
pub fn round_trips<D: Dispatch + PartialEq + Debug>(value: &D) {
    assert!(
        value.validate().is_empty(),
        "decoded an invalid value: {value:?}"
    );
    for encoding in [Encoding::Compact, Encoding::Named] {
        let bytes = value
            .to_envelope(encoding)
            .expect("a decoded value encodes");
        assert_eq!(&D::from_envelope(&bytes).expect("re-decodes"), value);
    }
}

/// `envelope_c2s` and `envelope_s2c`: an envelope of direction `dir` through both decoders.
/// Returns whether it decoded.
pub fn envelope<D: Dispatch + PartialEq + Debug>(data: &[u8], dir: Dir) -> bool {
    let derived = D::from_envelope(data);
    let ir = ircodec::decode_envelope(schema(), dir, data);
    agree("envelope", &derived, &ir);
    let Ok(value) = derived else { return false };
    round_trips(&value);
    true
}

/// `named_shape`: two bytes pick the direction (low bit) and the message (the other 15
/// bits); the rest is its payload, through both decoders. Returns whether it decoded.
pub fn named_shape(data: &[u8]) -> bool {
    let [lo, hi, rest @ ..] = data else {
        return false;
    };
    let pick = usize::from(u16::from_le_bytes([*lo, *hi]) >> 1);
    if lo & 1 == 0 {
        by_name::<ClientMessage>(pick, rest, Dir::C2s)
    } else {
        by_name::<ServerMessage>(pick, rest, Dir::S2c)
    }
}

fn by_name<D: Dispatch + PartialEq + Debug>(pick: usize, data: &[u8], dir: Dir) -> bool {
    let (name, _) = D::MESSAGES[pick % D::MESSAGES.len()];
    let derived = D::from_payload(name, data);
    let path = ircodec::message_named(schema(), dir, name).expect("loaded");
    let ir = ircodec::decode(schema(), &path, data);
    agree(name, &derived, &ir);
    let Ok(value) = derived else { return false };
    round_trips(&value);
    true
}

/// `decode_input`: the first byte's low bits are `--hex` and `--base64`, the rest is the
/// pasted text; what parses goes through the envelope decoder of both directions and the
/// plain-msgpack view. Hex and base64 parse what `hex` and `base64` print. Returns whether
/// the text parsed.
pub fn decode_input(data: &[u8]) -> bool {
    let Some((&flags, rest)) = data.split_first() else {
        return false;
    };
    let text = String::from_utf8_lossy(rest);
    let parsed = parse_payload(&text, flags & 1 != 0, flags & 2 != 0);
    if let Ok(bytes) = &parsed {
        let _ = plain(bytes);
        for dir in [Dir::C2s, Dir::S2c] {
            let _ = ircodec::decode_envelope(schema(), dir, bytes);
        }
    }
    let printed = ircodec::hex(rest);
    assert_eq!(
        parse_payload(&printed, true, false).ok().as_deref(),
        Some(rest),
        "hex"
    );
    assert_eq!(unbase64(&base64(rest)).as_deref(), Some(rest), "base64");
    parsed.is_ok()
}

/// The village's own lock (`tuplet.lock.json` at the repository root).
fn village_lock() -> &'static Lock {
    static LOCK: OnceLock<Lock> = OnceLock::new();
    LOCK.get_or_init(|| {
        let text = include_str!("../../../tuplet.lock.json");
        Lock::from_json(text).expect("the village lock reads")
    })
}

/// `lock_file`: any text through the lock reader behind `tuplet compat`; a lock that reads
/// is checked against the village's lock both ways, and against itself, under every deploy
/// order. Returns whether it read.
pub fn lock_file(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let Ok(lock) = Lock::from_json(text) else {
        return false;
    };
    for deploy in Deploy::ALL {
        let _ = check(village_lock(), &lock, deploy).text();
        let _ = check(&lock, village_lock(), deploy).json();
        let _ = check(&lock, &lock, deploy).exit_code();
    }
    let _ = lock.to_json();
    true
}

/// The village's source files, as (path relative to the crate, text), sorted by path.
fn village_files() -> &'static [(PathBuf, String)] {
    static FILES: OnceLock<Vec<(PathBuf, String)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut files = Vec::new();
        collect(&village_dir(), Path::new("src"), &mut files);
        files.sort();
        files
    })
}

fn collect(base: &Path, dir: &Path, files: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(base.join(dir)).unwrap() {
        let entry = entry.unwrap();
        let path = dir.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            collect(base, &path, files);
        } else {
            files.push((path, std::fs::read_to_string(entry.path()).unwrap()));
        }
    }
}

thread_local! {
    /// The village's files, parsed once per thread: parsing the 63 files is most of a
    /// load's cost, and a run replaces only one.
    static VILLAGE_TREE: RefCell<Option<SourceTree>> = const { RefCell::new(None) };
}

/// `source_loader`: the first byte picks one of the village's source files, the rest
/// (as UTF-8, invalid sequences replaced) replaces its text in memory, and the crate is
/// loaded. A bad file is a `LoadErrors`, never a panic, and each error names one of the
/// crate's files and a line. Returns whether it loaded.
pub fn source_loader(data: &[u8]) -> bool {
    let Some((&pick, text)) = data.split_first() else {
        return false;
    };
    let files = village_files();
    let (file, _) = &files[pick as usize % files.len()];
    let text = String::from_utf8_lossy(text);
    let loaded = VILLAGE_TREE.with(|cell| {
        let mut cell = cell.borrow_mut();
        let village = cell.get_or_insert_with(|| {
            let mut tree = SourceTree::new();
            for (path, text) in files {
                tree.insert(path, text);
            }
            tree
        });
        let mut tree = village.clone();
        tree.insert(file, &text);
        tree.load()
    });
    let Err(errors) = loaded else { return true };
    assert!(!errors.0.is_empty(), "a failed load without errors");
    for e in &errors.0 {
        assert!(
            files.iter().any(|(path, _)| path == &e.file),
            "an error without a file of the crate: {e}"
        );
        // Built for fuzzing (cargo-fuzz sets `--cfg fuzzing`), proc-macro2 keeps no span
        // locations: every line is 0.
        #[allow(unexpected_cfgs)]
        let fuzzing = cfg!(fuzzing);
        assert!(fuzzing || e.line >= 1, "an error without a line: {e}");
    }
    false
}

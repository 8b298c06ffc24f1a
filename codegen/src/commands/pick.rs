//! Which message a command-line word names: a wire name, an envelope id or a type name, in
//! the direction `--dir` gives or whichever direction has it; shared by `decode` and
//! `encode`.

use clap::ValueEnum;
use tuplet::wire::Reader;
use tuplet::Error;
use tuplet_schema::ir::Dir;
use tuplet_schema::ResolvedSchema;

use super::shared::print_issue;
use crate::exit::Exit;
use crate::ircodec;

/// A direction on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Direction {
    /// Client to server.
    C2s,
    /// Server to client.
    S2c,
}

impl Direction {
    /// The IR direction.
    pub fn ir(self) -> Dir {
        match self {
            Direction::C2s => Dir::C2s,
            Direction::S2c => Dir::S2c,
        }
    }
}

/// Why a command-line word names no single message.
#[derive(Debug)]
pub enum Pick {
    /// No message of the direction(s) looked in: `unknown_message`.
    Unknown(Error),
    /// Two different messages, one per direction, and no `--dir`: what to pass.
    Ambiguous(String),
}

impl Pick {
    /// Prints it; returns the exit code (1 unknown, 2 ambiguous).
    pub fn report(&self) -> Exit {
        match self {
            Pick::Unknown(e) => {
                print_issue(e);
                Exit::Failed
            }
            Pick::Ambiguous(m) => {
                eprintln!("error: {m}");
                Exit::BadInput
            }
        }
    }
}

/// The one message that `found` (per direction) names, or why not.
fn pick_one(
    schema: &ResolvedSchema,
    what: &str,
    found: [(Dir, Result<String, Error>); 2],
) -> Result<(Dir, String), Pick> {
    match found {
        [(dir, Ok(path)), (_, Err(_))] | [(_, Err(_)), (dir, Ok(path))] => Ok((dir, path)),
        [(dir, Ok(a)), (_, Ok(b))] if a == b => Ok((dir, a)),
        [(d1, Ok(a)), (d2, Ok(b))] => {
            let describe = |d: Dir, path: &str| {
                let (_, m) = ircodec::message_at(schema, path).expect("a message");
                format!("{} `{}` (id {}, {path})", d.as_str(), m.name, m.id)
            };
            Err(Pick::Ambiguous(format!(
                "{what} names a message in both directions: {} and {}; pass --dir {} or --dir {}",
                describe(d1, &a),
                describe(d2, &b),
                d1.as_str(),
                d2.as_str()
            )))
        }
        [(_, Err(e)), (_, Err(_))] => Err(Pick::Unknown(e)),
    }
}

/// The message a command-line word names, in `dir` or, without one, in whichever direction
/// has it (see [`find_message`]).
pub fn pick_message(
    schema: &ResolvedSchema,
    dir: Option<Direction>,
    word: &str,
) -> Result<(Dir, String), Pick> {
    if let Some(d) = dir {
        let d = d.ir();
        return find_message(schema, d, word)
            .map(|p| (d, p))
            .map_err(Pick::Unknown);
    }
    let found = [Dir::C2s, Dir::S2c].map(|d| (d, find_message(schema, d, word)));
    pick_one(schema, &format!("`{word}`"), found)
}

/// The direction of an envelope: `dir`, or the one direction whose ids include the
/// envelope's leading id (c2s when the id cannot be read or is in neither, so decoding
/// reports why).
pub fn pick_envelope_dir(
    schema: &ResolvedSchema,
    dir: Option<Direction>,
    bytes: &[u8],
) -> Result<Dir, Pick> {
    if let Some(d) = dir {
        return Ok(d.ir());
    }
    let Ok(id) = Reader::new(bytes).read_u64(0, u64::from(u32::MAX)) else {
        return Ok(Dir::C2s);
    };
    let id = id as u32;
    let found = [Dir::C2s, Dir::S2c].map(|d| {
        let path = ircodec::message_with_id(schema, d, id)
            .ok_or_else(|| tuplet::__private_0_1::unknown_id(id));
        (d, path)
    });
    match pick_one(schema, &format!("the envelope's id {id}"), found) {
        Ok((d, _)) => Ok(d),
        Err(Pick::Unknown(_)) => Ok(Dir::C2s),
        Err(ambiguous) => Err(ambiguous),
    }
}

/// The message of direction `dir` a command-line word names: a wire name, an envelope id
/// or a type name (`PlayerMove`, `crate::player::PlayerMove`).
pub fn find_message(schema: &ResolvedSchema, dir: Dir, word: &str) -> Result<String, Error> {
    if let Some(p) = ircodec::message_named(schema, dir, word) {
        return Ok(p);
    }
    if let Ok(id) = word.parse::<u32>() {
        return ircodec::message_with_id(schema, dir, id)
            .ok_or_else(|| tuplet::__private_0_1::unknown_id(id));
    }
    schema
        .messages(dir)
        .find(|(i, _)| i.path == word || i.path.rsplit("::").next() == Some(word))
        .map(|(i, _)| i.path.clone())
        .ok_or_else(|| tuplet::__private_0_1::unknown_message_name(word))
}

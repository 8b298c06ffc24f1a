//! `tuplet decode`: a captured payload (hex as copied from anywhere, base64 as browser
//! devtools copy a binary frame, a JSON byte array, or `-` for stdin) printed as natural
//! JSON (the convention of [`crate::ircodec`]), or, when it does not decode, the issue with
//! its code, path and message plus the bytes as plain msgpack.
//!
//! Exit codes: 0 decoded; 1 the payload does not decode (or names no message); 2 bad
//! arguments, config or schema.

use std::io::Read;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::{json, Value};
use tuplet::wire::{Kind, Reader};
use tuplet::Error;
use tuplet_schema::ir::Dir;
use tuplet_schema::ResolvedSchema;

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

/// `tuplet decode`.
#[derive(Debug, Args)]
#[command(
    override_usage = "tuplet decode [OPTIONS] <MESSAGE> <PAYLOAD>\n       \
                            tuplet decode [OPTIONS] --envelope <PAYLOAD>"
)]
pub struct DecodeArgs {
    /// The message: wire name such as `player:move`, envelope id, or type name (none with
    /// `--envelope`, whose id names it).
    #[arg(value_name = "MESSAGE", required = true)]
    pub message: Option<String>,
    /// The payload: hex, base64 or a JSON byte array; `-` reads it from stdin.
    #[arg(value_name = "PAYLOAD")]
    pub payload: Option<String>,
    /// Which way the message travels; needed only when the message (or the envelope's id)
    /// exists in both directions as different messages.
    #[arg(long, value_enum)]
    pub dir: Option<Direction>,
    /// The payload is a binary envelope: the message id, then the message.
    #[arg(long)]
    pub envelope: bool,
    /// The payload is hex (default: detected).
    #[arg(long, conflicts_with = "base64")]
    pub hex: bool,
    /// The payload is base64 (default: detected).
    #[arg(long)]
    pub base64: bool,
    /// The config file (default: tuplet.toml in this folder or the nearest one above).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// Exit code: decoded.
pub const OK: u8 = 0;
/// Exit code: the payload (or value) is invalid.
pub const INVALID: u8 = 1;
/// Exit code: bad arguments, config or schema.
pub const BAD_INPUT: u8 = 2;

/// Reads `-` as stdin, anything else as itself.
pub fn arg_or_stdin(arg: &str) -> Result<String, u8> {
    if arg != "-" {
        return Ok(arg.to_owned());
    }
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).map_err(|e| {
        eprintln!("error: stdin: {e}");
        BAD_INPUT
    })?;
    Ok(s)
}

/// Loads the configured schema, printing loader errors.
pub fn load_schema(config: Option<&std::path::Path>) -> Result<ResolvedSchema, u8> {
    let config = crate::commands::compat::read_config(config)?;
    crate::load(&config).map_err(|errors| {
        eprintln!("{errors}");
        BAD_INPUT
    })
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
    pub fn report(&self) -> u8 {
        match self {
            Pick::Unknown(e) => {
                print_issue(e);
                INVALID
            }
            Pick::Ambiguous(m) => {
                eprintln!("error: {m}");
                BAD_INPUT
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

/// The bytes of a payload as pasted: hex (any spacing, commas, `0x`), a JSON array of byte
/// values, or base64 (standard or URL-safe, padding optional).
pub fn parse_payload(text: &str, hex: bool, base64: bool) -> Result<Vec<u8>, String> {
    let t = text.trim();
    if base64 {
        return unbase64(t).ok_or_else(|| "the payload is not base64".to_owned());
    }
    if let Some(bytes) = ircodec::unhex(t) {
        return Ok(bytes);
    }
    let spaced_hex = t.contains([' ', ',', '\n'])
        && t.replace("0x", "")
            .bytes()
            .all(|b| b.is_ascii_hexdigit() || b" ,\t\r\n:-[]".contains(&b));
    if hex || spaced_hex {
        return Err("the payload is not hex (an even number of hex digits)".into());
    }
    if t.starts_with('[') {
        if let Ok(v) = serde_json::from_str::<Vec<u8>>(t) {
            return Ok(v);
        }
    }
    unbase64(t).ok_or_else(|| "the payload is neither hex nor base64".to_owned())
}

/// Decodes base64 (standard or URL-safe alphabet, padding and whitespace optional).
pub fn unbase64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' | b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Encodes base64 (standard alphabet, padded).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |a, b| (a << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// `1 byte`, `2 bytes`: a count with its noun, plural unless one.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Prints an issue as `code at path: message`.
pub fn print_issue(e: &Error) {
    let path = e.path().to_string();
    let path = if path.is_empty() {
        "(root)".into()
    } else {
        path
    };
    eprintln!("{} at {path}: {}", e.code(), e.issue().message);
}

/// Any msgpack value as JSON (maps with non-string keys get their keys as text), for a
/// look at bytes that do not decode as the message.
pub fn plain(bytes: &[u8]) -> Result<Value, Error> {
    let mut r = Reader::new(bytes);
    let v = plain_value(&mut r)?;
    r.finish()?;
    Ok(v)
}

fn plain_value(r: &mut Reader<'_>) -> Result<Value, Error> {
    Ok(match r.peek_kind()? {
        Kind::Nil => {
            r.try_nil()?;
            Value::Null
        }
        Kind::Bool => Value::Bool(r.read_bool()?),
        Kind::Int => {
            let mut probe = r.clone();
            match probe.read_i64(i64::MIN, i64::MAX) {
                Ok(v) => {
                    *r = probe;
                    Value::from(v)
                }
                Err(_) => Value::from(r.read_u64(0, u64::MAX)?),
            }
        }
        Kind::Float => json!(r.read_f64()?),
        Kind::Str => Value::String(r.read_str(0, u32::MAX)?.to_owned()),
        Kind::Bin => json!({ "bin": ircodec::hex(r.read_bin(0, u32::MAX)?) }),
        Kind::Array => {
            let n = r.read_array_len()?;
            let mut a = Vec::with_capacity(n as usize);
            for _ in 0..n {
                a.push(plain_value(r)?);
            }
            r.leave();
            Value::Array(a)
        }
        Kind::Map => {
            let n = r.read_map_len()?;
            let mut o = serde_json::Map::new();
            for _ in 0..n {
                let k = key_text(plain_value(r)?);
                o.insert(k, plain_value(r)?);
            }
            r.leave();
            Value::Object(o)
        }
        Kind::Ext => {
            r.skip_value()?;
            json!("<ext>")
        }
    })
}

/// A map key as text: a string as itself, anything else written out without escaping the
/// strings inside it. (JSON text of a key holding keys would escape them again at every level,
/// doubling the backslashes: 40 nested maps as keys made gigabytes.)
fn key_text(key: Value) -> String {
    match key {
        Value::String(s) => s,
        Value::Array(a) => {
            let items: Vec<String> = a.into_iter().map(key_text).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(o) => {
            let entries: Vec<String> = o
                .into_iter()
                .map(|(k, v)| format!("{k}:{}", key_text(v)))
                .collect();
            format!("{{{}}}", entries.join(","))
        }
        other => other.to_string(),
    }
}

/// `tuplet decode`.
pub fn run(args: &DecodeArgs) -> u8 {
    // Clap fills MESSAGE first: with --envelope, a lone argument is the payload.
    let (message, payload) = match (args.envelope, &args.message, &args.payload) {
        (true, Some(p), None) => (None, p),
        (false, Some(m), Some(p)) => (Some(m.as_str()), p),
        (true, _, _) => {
            eprintln!("error: with --envelope, give the payload alone (its id names the message)");
            return BAD_INPUT;
        }
        (false, _, _) => {
            eprintln!("error: give the message and the payload (or --envelope and the payload)");
            return BAD_INPUT;
        }
    };
    let schema = match load_schema(args.config.as_deref()) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let text = match arg_or_stdin(payload) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let bytes = match parse_payload(&text, args.hex, args.base64) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return BAD_INPUT;
        }
    };
    let result = match message {
        Some(word) => match pick_message(&schema, args.dir, word) {
            Ok((_, path)) => ircodec::decode(&schema, &path, &bytes),
            Err(pick) => return pick.report(),
        },
        None => match pick_envelope_dir(&schema, args.dir, &bytes) {
            Ok(dir) => ircodec::decode_envelope(&schema, dir, &bytes).map(|(path, v)| {
                let (_, m) = ircodec::message_at(&schema, &path).expect("a message");
                json!({ "message": m.name, "id": m.id, "value": v })
            }),
            Err(pick) => return pick.report(),
        },
    };
    match result {
        Ok(v) => {
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
            OK
        }
        Err(e) => {
            print_issue(&e);
            eprintln!("({}: {})", count(bytes.len(), "byte"), ircodec::hex(&bytes));
            if let Ok(p) = plain(&bytes) {
                eprintln!("as plain msgpack: {p}");
            }
            INVALID
        }
    }
}

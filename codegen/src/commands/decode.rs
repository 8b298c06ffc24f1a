//! `tuplet decode`: a captured payload (hex as copied from anywhere, base64 as browser
//! devtools copy a binary frame, a JSON byte array, or `-` for stdin) printed as natural
//! JSON (the convention of [`crate::ircodec`]), or, when it does not decode, the issue with
//! its code, path and message plus the bytes as plain msgpack.
//!
//! With `--delta`, the payload is read as a delta payload (`ircodec::delta`); a plain decode
//! of bytes that fail as a whole message but read as a delta payload fails with the runtime's
//! `delta_payload` issue (`Code::DeltaPayload`, the message dispatch and TypeScript give).
//!
//! Exit codes: 0 decoded; 1 the payload does not decode (or names no message); 2 bad
//! arguments, config or schema.

use std::path::PathBuf;

use clap::Args;
use serde_json::{json, Value};
use tuplet::wire::{Kind, Reader};
use tuplet::Error;

use super::payload::parse_payload;
use super::pick::{pick_envelope_dir, pick_message, Direction};
use super::shared::{arg_or_stdin, count, load_schema, print_issue};
use crate::exit::Exit;
use crate::ircodec::{self, delta::Mirror};
use tuplet_schema::ResolvedSchema;

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
    /// The payload is a delta payload of a message declared `delta` (what a `Tracker`
    /// sends): print its number, whether it is a keyframe, and what it carries per field and
    /// per entity (entered whole, changed fields with their values or differences, removed).
    #[arg(long, conflicts_with = "envelope")]
    pub delta: bool,
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

/// When the message at `path` is declared `delta` and `bytes` read as one of its delta
/// payloads: the runtime's own `delta_payload` error (the code and message typed dispatch
/// and TypeScript's `decode` give for it), and a note saying what to run instead.
fn delta_hint(schema: &ResolvedSchema, path: &str, bytes: &[u8]) -> Option<(Error, String)> {
    let payload = Mirror::new(schema, path).ok()?.describe(bytes).ok()?;
    let (_, m) = ircodec::message_at(schema, path)?;
    let form = if payload.is_keyframe() {
        "a keyframe"
    } else {
        "a delta"
    };
    let note = format!(
        "`{name}` is declared `delta`, and these bytes are one of its payloads ({form}, seq \
         {seq}); read them with `tuplet decode --delta {name} <PAYLOAD>`",
        name = m.name,
        seq = payload.seq
    );
    Some((tuplet::delta::delta_payload(form), note))
}

/// `tuplet decode`.
pub fn run(args: &DecodeArgs) -> Exit {
    // Clap fills MESSAGE first: with --envelope, a lone argument is the payload.
    let (message, payload) = match (args.envelope, &args.message, &args.payload) {
        (true, Some(p), None) => (None, p),
        (false, Some(m), Some(p)) => (Some(m.as_str()), p),
        (true, _, _) => {
            eprintln!("error: with --envelope, give the payload alone (its id names the message)");
            return Exit::BadInput;
        }
        (false, _, _) => {
            eprintln!("error: give the message and the payload (or --envelope and the payload)");
            return Exit::BadInput;
        }
    };
    let schema = match load_schema(args.config.as_deref(), "decode") {
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
            return Exit::BadInput;
        }
    };
    let result = match message {
        Some(word) => match pick_message(&schema, args.dir, word) {
            Ok((_, path)) if args.delta => match Mirror::new(&schema, &path) {
                Ok(m) => m.describe(&bytes).map(|p| p.to_json()),
                Err(_) => {
                    let name =
                        ircodec::message_at(&schema, &path).map_or(word, |(_, m)| m.name.as_str());
                    eprintln!(
                        "error: `{name}` is not declared `#[tuplet(delta)]`, so it has no delta \
                         payloads; decode it without --delta"
                    );
                    return Exit::BadInput;
                }
            },
            Ok((_, path)) => {
                let plain_decode = ircodec::decode(&schema, &path, &bytes);
                match delta_hint(&schema, &path, &bytes) {
                    Some((issue, note)) if plain_decode.is_err() => {
                        print_issue(&issue);
                        eprintln!("note: {note}");
                        eprintln!("({}: {})", count(bytes.len(), "byte"), ircodec::hex(&bytes));
                        return Exit::Failed;
                    }
                    Some((_, note)) => {
                        eprintln!("note: these bytes decode as a whole message, but {note}")
                    }
                    None => {}
                }
                plain_decode
            }
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
            Exit::Ok
        }
        Err(e) => {
            print_issue(&e);
            eprintln!("({}: {})", count(bytes.len(), "byte"), ircodec::hex(&bytes));
            if let Ok(p) = plain(&bytes) {
                eprintln!("as plain msgpack: {p}");
            }
            Exit::Failed
        }
    }
}

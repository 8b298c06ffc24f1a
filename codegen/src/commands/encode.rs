//! `tuplet encode`: a natural JSON value (the convention of [`crate::ircodec`]) encoded as
//! the message, printed as hex (or base64): the reverse of `tuplet decode`.
//!
//! Exit codes: 0 encoded; 1 the value is invalid (each issue printed with code and path);
//! 2 bad arguments, config or schema.

use std::path::PathBuf;

use clap::Args;
use tuplet::wire::write;

use super::payload::base64;
use super::pick::{pick_message, Direction};
use super::shared::{arg_or_stdin, load_schema, print_issue};
use crate::exit::Exit;
use crate::ircodec::{self, Shape};

/// `tuplet encode`.
#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// The message: wire name (`player:move`), envelope id or type name.
    pub message: String,
    /// The value as natural JSON; `-` reads it from stdin.
    pub json: String,
    /// Which way the message travels; needed only when the message exists in both
    /// directions as different messages.
    #[arg(long, value_enum)]
    pub dir: Option<Direction>,
    /// Write the named (legacy map) shape instead of the compact one.
    #[arg(long)]
    pub named: bool,
    /// Prefix the message id (a binary envelope).
    #[arg(long)]
    pub envelope: bool,
    /// Print base64 instead of hex.
    #[arg(long)]
    pub base64: bool,
    /// The config file (default: tuplet.toml in this folder or the nearest one above).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// `tuplet encode`.
pub fn run(args: &EncodeArgs) -> Exit {
    let schema = match load_schema(args.config.as_deref(), "encode") {
        Ok(s) => s,
        Err(code) => return code,
    };
    let text = match arg_or_stdin(&args.json) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: the value is not JSON: {e}");
            return Exit::BadInput;
        }
    };
    let path = match pick_message(&schema, args.dir, &args.message) {
        Ok((_, p)) => p,
        Err(pick) => return pick.report(),
    };
    let shape = if args.named {
        Shape::Named
    } else {
        Shape::Compact
    };
    let payload = match ircodec::encode(&schema, &path, &value, shape) {
        Ok(b) => b,
        Err(e) => {
            print_issue(&e);
            return Exit::Failed;
        }
    };
    let mut out = Vec::with_capacity(payload.len() + 5);
    if args.envelope {
        let (_, m) = ircodec::message_at(&schema, &path).expect("a message");
        write::uint(&mut out, u64::from(m.id));
    }
    out.extend_from_slice(&payload);
    if args.base64 {
        println!("{}", base64(&out));
    } else {
        println!("{}", ircodec::hex(&out));
    }
    Exit::Ok
}

//! What the commands share: reading the config and loading the schema with their errors
//! printed, reading `-` as stdin, and printing an issue or a count.

use std::io::Read;
use std::path::Path;

use tuplet::Error;
use tuplet_schema::ResolvedSchema;

use crate::config::Config;
use crate::exit::Exit;

/// Reads the config named by `--config`, or discovers it ([`Config::locate`]), printing why
/// it cannot.
pub fn config(path: Option<&Path>) -> Result<Config, Exit> {
    Config::locate(path).map_err(|e| {
        eprintln!("error: {e}");
        Exit::BadInput
    })
}

/// Loads the schema crate `config` names, printing the loader's errors and a summary line
/// naming `command` and the crate.
pub fn load(config: &Config, command: &str) -> Result<ResolvedSchema, Exit> {
    crate::load(config).map_err(|errors| {
        eprintln!("{errors}");
        eprintln!(
            "tuplet {command}: {} error(s) in the schema crate {}",
            errors.0.len(),
            config.schema_crate().display()
        );
        Exit::BadInput
    })
}

/// Reads the config (`--config` or discovered) and loads its schema: [`config`] then [`load`].
pub fn load_schema(path: Option<&Path>, command: &str) -> Result<ResolvedSchema, Exit> {
    load(&config(path)?, command)
}

/// Reads `-` as stdin, anything else as itself.
pub fn arg_or_stdin(arg: &str) -> Result<String, Exit> {
    if arg != "-" {
        return Ok(arg.to_owned());
    }
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).map_err(|e| {
        eprintln!("error: stdin: {e}");
        Exit::BadInput
    })?;
    Ok(s)
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

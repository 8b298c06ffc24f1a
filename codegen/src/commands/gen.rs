//! `tuplet gen`: runs every configured emitter and writes the output folders tuplet owns
//! (only files whose bytes changed, see [`crate::writer`]), or with `--check` compares them
//! with the disk and writes nothing. Before writing anything it checks every folder: inside
//! the config's folder (or allowed by name), made by tuplet (or adopted), and no file in the
//! way that tuplet did not write.
//!
//! Exit codes: 0 written (or fresh); 1 `--check` found files that differ; 2 bad config,
//! schema or I/O, or a refusal (`gen` and `--check` alike).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use serde_json::json;

use super::annotate::{self, CheckFormat, Level, Note, Paths};
use super::shared;
use crate::config::Config;
use crate::exit::Exit;
use crate::writer::{self, Change, Plan};

/// `tuplet gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// Write nothing; exit 1, listing the files, when the outputs are not what `gen` writes
    /// (2 when `gen` would refuse).
    #[arg(long)]
    pub check: bool,
    /// Take over output folders and files tuplet did not write: overwrite the files at the
    /// paths it writes, keep every other file. Once, for a folder made before manifests or
    /// by hand.
    #[arg(long, conflicts_with = "check")]
    pub adopt: bool,
    /// The format of `--check`'s report and of an error that stops the command: `text`
    /// (stderr), `json`, `github` (an annotation per file) or `sarif` (stdout).
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// The config file (default: tuplet.toml in this folder or the nearest one above).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// `tuplet gen`.
pub fn run(args: &GenArgs) -> Exit {
    let start = Instant::now();
    let command = if args.check { "gen --check" } else { "gen" };
    let format = args.format;
    let fail = |msg: String| annotate::fail(format, command, &[annotate::error(command, msg)]);
    let config = match crate::config::Config::locate(args.config.as_deref()) {
        Ok(c) => c,
        Err(e) => return fail(e.to_string()),
    };
    if let Err(errors) = writer::place::outputs(&config) {
        if format == CheckFormat::Text {
            for e in &errors {
                eprintln!("error: {e}");
            }
            eprintln!("tuplet {command}: refused; nothing written");
            return Exit::BadInput;
        }
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        return fail(format!("{}; refused, nothing written", text.join("; ")));
    }
    let schema = if format == CheckFormat::Text {
        match shared::load(&config, "gen") {
            Ok(s) => s,
            Err(code) => return code,
        }
    } else {
        match crate::load(&config) {
            Ok(s) => s,
            Err(errors) => return fail(errors.to_string()),
        }
    };
    if let Err(e) = crate::emit::check(&config, &schema) {
        return fail(e.to_string());
    }
    let outputs = match crate::generate(&config, &schema) {
        Ok(o) => o,
        Err(e) => return fail(e.to_string()),
    };
    let mut plans = Vec::new();
    for (dir, files) in &outputs {
        match writer::plan(dir, files, args.adopt) {
            Ok(p) => plans.push(p),
            Err(e) => return fail(format!("{}: {e}", dir.display())),
        }
    }
    let refused: Vec<&Change> = plans.iter().flat_map(Plan::refusals).collect();
    if args.check && format != CheckFormat::Text {
        let changes: Vec<&Change> = plans.iter().flat_map(|p| &p.changes).collect();
        return check_report(&config, format, &changes, !refused.is_empty());
    }
    if args.check {
        let mut stale = 0;
        for c in plans.iter().flat_map(|p| &p.changes) {
            eprintln!("{c}");
            stale += 1;
        }
        if !refused.is_empty() {
            eprintln!("{}", refusal_help(&refused));
            eprintln!("tuplet gen --check: `tuplet gen` would refuse; nothing written");
            return Exit::BadInput;
        }
        if stale > 0 {
            eprintln!(
                "tuplet gen --check: {stale} file(s) differ from what `tuplet gen` writes; run \
                 `cargo run --release -p tuplet-codegen -- gen` and commit the result"
            );
            return Exit::Failed;
        }
        eprintln!(
            "tuplet gen --check: {} item(s), outputs fresh ({} ms)",
            schema.items.len(),
            start.elapsed().as_millis()
        );
        return Exit::Ok;
    }
    if !refused.is_empty() {
        for c in &refused {
            eprintln!("error: {c}");
        }
        eprintln!("{}", refusal_help(&refused));
        eprintln!("tuplet gen: refused; nothing written");
        return Exit::BadInput;
    }
    for plan in &plans {
        let files = &outputs[&plan.dir];
        match writer::apply(plan, files) {
            Ok(w) => {
                for p in &w.written {
                    eprintln!("wrote   {}", p.display());
                }
                if let Some(p) = &w.manifest {
                    eprintln!("wrote   {} (the files tuplet wrote here)", p.display());
                }
                for p in &w.removed {
                    eprintln!("removed {}", p.display());
                }
                for p in &w.kept {
                    eprintln!("kept    {} (tuplet did not write it)", p.display());
                }
                let kept = if w.kept.is_empty() {
                    String::new()
                } else {
                    format!(", {} kept", w.kept.len())
                };
                eprintln!(
                    "tuplet gen: {}: {} files ({} written, {} removed, {} unchanged{kept})",
                    plan.dir.display(),
                    files.len(),
                    w.written.len(),
                    w.removed.len(),
                    w.unchanged
                );
            }
            Err(e) => {
                eprintln!("error: {}: {e}", plan.dir.display());
                return Exit::BadInput;
            }
        }
    }
    eprintln!(
        "tuplet gen: {} item(s) in {} ms",
        schema.items.len(),
        start.elapsed().as_millis()
    );
    Exit::Ok
}

/// What to do about the refusals: one paragraph per kind present.
fn refusal_help(refused: &[&Change]) -> String {
    let any = |f: fn(&Change) -> bool| refused.iter().any(|c| f(c));
    let mut help = Vec::new();
    if any(|c| matches!(c, Change::Unowned { .. } | Change::BadManifest { .. })) {
        help.push(
            "tuplet writes only into a folder it made (new, empty, or holding its \
             .tuplet-manifest). Point the output at a new folder in tuplet.toml, or run \
             `tuplet gen --adopt` once to take this one over (files at the paths tuplet writes \
             are overwritten; every other file is kept)."
                .to_string(),
        );
    }
    if any(|c| matches!(c, Change::Edited(_) | Change::Foreign(_))) {
        help.push(
            "tuplet overwrites or removes only the files it wrote, unchanged. Move your edits \
             into the schema (or a file outside the output folder) and delete those files, or \
             run `tuplet gen --adopt` to overwrite them (a changed file tuplet no longer \
             produces is then kept and no longer listed)."
                .to_string(),
        );
    }
    if any(|c| matches!(c, Change::Link(_))) {
        help.push(
            "tuplet writes only inside its output folder: replace each symbolic link with a \
             plain folder, or point the output at the link's target (allowed by name under \
             [outputs] allow-outside when it is outside)."
                .to_string(),
        );
    }
    help.join("\n")
}

/// The path a change is about.
fn change_path(c: &Change) -> &Path {
    match c {
        Change::Missing(p)
        | Change::Stale(p)
        | Change::Extra(p)
        | Change::Leftover(p)
        | Change::Edited(p)
        | Change::Foreign(p)
        | Change::Link(p) => p,
        Change::Unowned { dir, .. } => dir,
        Change::BadManifest { path, .. } => path,
    }
}

/// `gen --check`'s report in a machine format: a note per file that differs (JSON: `{command,
/// fresh, refused, changes: [{change, file}]}`), each file relative to the repository root.
/// Exit 1 when any differs, 2 when `gen` would refuse.
fn check_report(config: &Config, format: CheckFormat, changes: &[&Change], refused: bool) -> Exit {
    let paths = Paths::of(config);
    let notes: Vec<Note> = changes
        .iter()
        .map(|c| {
            let p = change_path(c);
            let rel = p.strip_prefix(&config.base).unwrap_or(p);
            let text = c.to_string();
            let kind = text.split(':').next().unwrap_or("stale").to_string();
            Note {
                level: Level::Error,
                rule: format!("output-{kind}"),
                title: format!("tuplet gen --check: {kind}"),
                message: format!(
                    "{text}: run `tuplet gen` and commit the result{}",
                    if c.refused() {
                        " (`tuplet gen` refuses this file: see `tuplet gen --check`)"
                    } else {
                        ""
                    }
                ),
                file: Some(paths.config_relative(&rel.to_string_lossy())),
                line: None,
                column: None,
                fix: None,
            }
        })
        .collect();
    if format == CheckFormat::Json {
        let list: Vec<_> = notes
            .iter()
            .map(|n| json!({"change": n.rule.trim_start_matches("output-"), "file": n.file, "message": n.message}))
            .collect();
        let v = json!({"command": "gen --check", "fresh": notes.is_empty(), "refused": refused, "changes": list});
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        annotate::print(format, "gen --check", &notes);
    }
    if refused {
        Exit::BadInput
    } else {
        Exit::failed_unless(notes.is_empty())
    }
}

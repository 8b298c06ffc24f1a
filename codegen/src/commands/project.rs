//! The project `tuplet lock` and `tuplet compat` work on: `tuplet.toml`, where its files are
//! (for findings' paths), and the schema it names, loaded once; and how its findings become
//! located notes.

use std::path::Path;

use tuplet_schema::compat::{self, DeployAccept, Finding, Judge};
use tuplet_schema::ResolvedSchema;

use super::annotate::{self, CheckFormat, Level, Note, Paths};
use crate::config::Config;
use crate::exit::Exit;

/// What a command works with: the config, where its files are, the schema.
pub(super) struct Project {
    pub(super) config: Config,
    pub(super) config_name: String,
    pub(super) paths: Paths,
    pub(super) schema: ResolvedSchema,
}

impl Project {
    /// Reads the config and loads the schema, each failure reported in `format` (exit 2).
    pub(super) fn open(
        path: Option<&Path>,
        format: CheckFormat,
        command: &str,
    ) -> Result<Project, Exit> {
        let config = Config::locate(path).map_err(|e| {
            let mut note = annotate::error(command, e.to_string());
            note.file = Some(e.file.display().to_string());
            note.line = line_of(&e.message);
            annotate::fail(format, command, &[note])
        })?;
        let config_name = path
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| crate::config::FILE_NAME.to_string());
        let paths = Paths::of(&config);
        let schema = match crate::load(&config) {
            Ok(s) => s,
            Err(errors) => {
                let krate = config.schema_crate();
                let notes: Vec<Note> = errors
                    .0
                    .iter()
                    .map(|e| {
                        let rel = e.file.strip_prefix(&krate).unwrap_or(&e.file);
                        Note {
                            level: Level::Error,
                            rule: "schema".into(),
                            title: format!("tuplet {command}: the schema does not load"),
                            message: e.message.clone(),
                            file: Some(paths.crate_relative(&rel.to_string_lossy())),
                            line: (e.line > 0).then_some(e.line),
                            column: (e.col > 0).then_some(e.col),
                            fix: None,
                        }
                    })
                    .collect();
                if format == CheckFormat::Text {
                    eprintln!("{errors}");
                    eprintln!(
                        "tuplet {command}: {} error(s) in the schema crate {}",
                        errors.0.len(),
                        krate.display()
                    );
                    return Err(Exit::BadInput);
                }
                return Err(annotate::fail(format, command, &notes));
            }
        };
        Ok(Project {
            config,
            config_name,
            paths,
            schema,
        })
    }

    /// The deploy orders to judge by, the old side's being `was`.
    pub(super) fn judge(&self, was: compat::Deploy) -> Judge {
        let at = |line: usize| {
            if line == 0 {
                self.config_name.clone()
            } else {
                format!("{}:{line}", self.config_name)
            }
        };
        let (deploy_line, accept_line) = self.config.deploy_lines;
        Judge {
            was,
            now: self.config.deploy,
            accept: self.config.accept_deploy.as_ref().map(|a| DeployAccept {
                was: a.was,
                now: a.now,
                reason: a.reason.clone(),
                location: at(accept_line),
            }),
            location: at(deploy_line),
        }
    }

    /// The findings of a move of the schema crate from `was` (the base's folder,
    /// repository-relative) to where this config points.
    pub(super) fn moves(&self, was: &str) -> Vec<Finding> {
        let krate = self.config.schema.krate.to_string_lossy();
        let now = compat::moved::normal(&self.paths.config_relative(&krate));
        let at = |line: usize| match line {
            0 => self.config_name.clone(),
            l => format!("{}:{l}", self.config_name),
        };
        let (crate_line, accept_line) = self.config.schema_lines;
        let accept = self
            .config
            .accept_schema_move
            .as_ref()
            .map(|a| compat::moved::MoveAccept {
                was: compat::moved::normal(&a.was),
                now: compat::moved::normal(&a.now),
                reason: a.reason.clone(),
                location: at(accept_line),
            });
        compat::moved::findings(was, &now, &at(crate_line), accept.as_ref())
    }

    /// A finding as a note. `base_lock`: lock lines are the base's (no line in the working
    /// tree's lock to point at).
    pub(super) fn note(&self, f: &Finding, lock_name: &str, base_lock: bool) -> Note {
        let (file, mut line, mut column) = self
            .paths
            .locate_at(&f.location, &[lock_name, self.config_name.as_str()]);
        if base_lock && f.location.starts_with(lock_name) {
            (line, column) = (None, None);
        }
        let level = if f.fails() {
            Level::Error
        } else {
            Level::Notice
        };
        let what = match (f.item.as_str(), f.member.as_str()) {
            ("", _) => String::new(),
            (item, "") => format!(" at {item}"),
            (item, m) => format!(" at {item}, `{m}`"),
        };
        Note {
            level,
            rule: f.rule.clone(),
            title: format!("{}{what}", f.rule),
            message: compat::finding_body(f).trim_end().to_string(),
            file: Some(file),
            line,
            column,
            fix: compat::finding_fix(f),
        }
    }
}

/// The line a TOML error names (`TOML parse error at line 3, column 9`), if any.
fn line_of(message: &str) -> Option<usize> {
    let rest = message.split("at line ").nth(1)?;
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An exit-2 error of `tuplet.toml` carries its line: a TOML error's, or the line of an
    /// `accept-deploy` / `accept-schema-move` whose reason is the report's template.
    #[test]
    fn config_errors_name_their_line() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("tuplet.toml");
        let cases = [
            ("deploy = \"any-order\"\n[schema]\ncrate = 5\n", 3),
            (
                "deploy = \"client-first\"\naccept-deploy = { was = \"any-order\", now = \
                 \"client-first\", reason = \"...\" }\n[schema]\ncrate = \"s\"\n",
                2,
            ),
            (
                "deploy = \"any-order\"\n\naccept-schema-move = { was = \"a\", now = \"s\", \
                 reason = \" ... \" }\n[schema]\ncrate = \"s\"\n",
                3,
            ),
        ];
        for (text, line) in cases {
            std::fs::write(&path, text).unwrap();
            let e = Config::read(&path).unwrap_err();
            assert_eq!(line_of(&e.message), Some(line), "{}", e.message);
            assert!(e.message.contains("line"), "{}", e.message);
        }
    }
}

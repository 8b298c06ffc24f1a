//! `tuplet.toml`: where the schema crate and the outputs are, and the deploy order the
//! compatibility rules judge by. Paths are relative to the file's own folder.
//!
//! ```toml
//! deploy = "any-order"            # or "server-first", "client-first"
//!
//! [schema]
//! crate = "examples/village"      # a crate folder; its root is src/lib.rs
//!
//! [outputs]
//! jsonschema = "generated/jsonschema"
//! ts = "generated/ts"
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The file name looked for in the current folder and its ancestors.
pub const FILE_NAME: &str = "tuplet.toml";

/// A parsed `tuplet.toml`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Which side deploys first, for the compatibility rules (`any-order` by default).
    #[serde(default)]
    pub deploy: Deploy,
    /// The schema crate.
    pub schema: Schema,
    /// The output folders, one per emitter; an absent one is not generated.
    #[serde(default)]
    pub outputs: Outputs,
    /// The folder holding the file: the base of every relative path.
    #[serde(skip)]
    pub base: PathBuf,
}

/// `[schema]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schema {
    /// The schema crate's folder.
    #[serde(rename = "crate")]
    pub krate: PathBuf,
}

/// `[outputs]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outputs {
    /// The JSON Schema folder.
    pub jsonschema: Option<PathBuf>,
    /// The TypeScript package folder.
    pub ts: Option<PathBuf>,
}

/// The deploy order (RULES.md, "Deploy order").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Deploy {
    /// Server and clients deploy in either order: a change must be safe both ways.
    #[default]
    AnyOrder,
    /// The server always deploys first.
    ServerFirst,
    /// Clients always deploy first.
    ClientFirst,
}

/// A config that cannot be found, read or parsed.
#[derive(Debug)]
pub struct ConfigError {
    /// The file concerned.
    pub file: PathBuf,
    /// What is wrong (toml's message carries the line and column).
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.message)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Reads and parses the file at `path`.
    pub fn read(path: &Path) -> Result<Config, ConfigError> {
        let err = |message: String| ConfigError {
            file: path.to_path_buf(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?;
        let mut config = Config::parse(&text).map_err(|e| err(e.trim_end().to_string()))?;
        config.base = path.parent().unwrap_or(Path::new("")).to_path_buf();
        config.check().map_err(err)?;
        Ok(config)
    }

    /// Parses a config's text (paths stay relative to an empty base).
    pub fn parse(text: &str) -> Result<Config, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    /// Finds `tuplet.toml` in the current folder or its nearest ancestor that has one.
    pub fn discover() -> Result<Config, ConfigError> {
        let cwd = std::env::current_dir().map_err(|e| ConfigError {
            file: FILE_NAME.into(),
            message: format!("cannot read the current folder: {e}"),
        })?;
        if Path::new(FILE_NAME).is_file() {
            return Config::read(Path::new(FILE_NAME));
        }
        for dir in cwd.ancestors().skip(1) {
            let candidate = dir.join(FILE_NAME);
            if candidate.is_file() {
                return Config::read(&candidate);
            }
        }
        Err(ConfigError {
            file: FILE_NAME.into(),
            message: format!(
                "not found in {} or any folder above it; pass `--config PATH`",
                cwd.display()
            ),
        })
    }

    /// The schema crate's folder.
    pub fn schema_crate(&self) -> PathBuf {
        self.base.join(&self.schema.krate)
    }

    /// An output folder, resolved against the base.
    pub fn output(&self, dir: &Path) -> PathBuf {
        self.base.join(dir)
    }

    /// Output folders belong to tuplet (extra files in them are removed), so none may be
    /// the config's folder or hold the schema crate.
    fn check(&self) -> Result<(), String> {
        for dir in [&self.outputs.jsonschema, &self.outputs.ts]
            .into_iter()
            .flatten()
        {
            let normal: PathBuf = dir.components().collect();
            if normal.as_os_str().is_empty()
                || normal == Path::new(".")
                || self.schema.krate.starts_with(&normal)
            {
                return Err(format!(
                    "output folder `{}` would hold the config or the schema crate; tuplet owns \
                     its output folders (it removes files it did not write): use a folder of \
                     its own, such as `generated/jsonschema`",
                    dir.display()
                ));
            }
        }
        Ok(())
    }
}

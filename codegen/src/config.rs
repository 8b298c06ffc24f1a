//! `tuplet.toml`: where the schema crate and the outputs are, and the deploy order the
//! compatibility rules judge by. Paths are relative to the file's own folder.
//!
//! ```toml
//! deploy = "any-order"            # or "server-first", "client-first"
//! # acknowledges a change of `deploy` (RULES.md, `deploy-changed`):
//! # accept-deploy = { was = "any-order", now = "client-first", reason = "..." }
//!
//! [schema]
//! crate = "examples/village"      # a crate folder; its root is src/lib.rs
//!
//! [outputs]                       # folders tuplet owns (see docs/cli.md)
//! jsonschema = "generated/jsonschema"
//! ts = "generated/ts"
//! allow-outside = ["../client/src/protocol"]  # outputs that may be outside this folder
//!
//! [ts]                            # the TypeScript package's package.json; every key optional
//! name = "village-protocol"       # default: the schema crate's name (Cargo.toml)
//! version = "1.4.0"               # default: the schema crate's version
//! description = "..."             # default: the schema crate's description
//! js = true                       # also emit dist/*.js and *.d.ts (a pinned tsc, see `js`)
//! hot = ["player:move"]           # only these messages (and what they reach) keep
//!                                 # straight-line compact code; see `TsPackage::hot`
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
    /// `accept-deploy = { was, now, reason }`: acknowledges a change of `deploy` (RULES.md,
    /// `deploy-changed`).
    #[serde(default, rename = "accept-deploy")]
    pub accept_deploy: Option<AcceptDeploy>,
    /// The 1-based lines of `deploy` and `accept-deploy` in the file (0 when absent or not
    /// read from a file).
    #[serde(skip)]
    pub deploy_lines: (usize, usize),
    /// `accept-schema-move = { was, now, reason }`: acknowledges that `[schema] crate` points
    /// at another folder than the base's (RULES.md, `schema-moved`).
    #[serde(default, rename = "accept-schema-move")]
    pub accept_schema_move: Option<AcceptMove>,
    /// The 1-based lines of `[schema] crate` and `accept-schema-move` (0 when absent).
    #[serde(skip)]
    pub schema_lines: (usize, usize),
    /// The schema crate.
    pub schema: Schema,
    /// The output folders, one per emitter; an absent one is not generated.
    #[serde(default)]
    pub outputs: Outputs,
    /// `[ts]`: the TypeScript package's metadata and whether it ships JavaScript.
    #[serde(default)]
    pub ts: TsPackage,
    /// The folder holding the file: the base of every relative path.
    #[serde(skip)]
    pub base: PathBuf,
}

/// `accept-deploy`: the acknowledgement of a change of the deploy order.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptDeploy {
    /// The order before (the base's).
    pub was: Deploy,
    /// The order after (`deploy`).
    pub now: Deploy,
    /// Why every peer now follows the new order.
    pub reason: String,
}

/// `accept-schema-move`: the acknowledgement of a move of the schema crate.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptMove {
    /// The base's `[schema] crate`, relative to the repository's root.
    pub was: String,
    /// This one's, relative to the repository's root.
    pub now: String,
    /// Why the new folder holds the schema the deployed peers were built from.
    pub reason: String,
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
    /// The TypeScript package folder (with `[ts] js = true`, its `dist/` too).
    pub ts: Option<PathBuf>,
    /// Output folders that may lie outside the folder holding `tuplet.toml`, each written as
    /// its output's key writes it (compared after resolving both canonically). Any other
    /// output outside is refused by `tuplet gen`.
    #[serde(default, rename = "allow-outside")]
    pub allow_outside: Vec<PathBuf>,
}

impl Outputs {
    /// Every configured output folder with its key, as written.
    pub fn folders(&self) -> Vec<(&'static str, &PathBuf)> {
        [("jsonschema", &self.jsonschema), ("ts", &self.ts)]
            .into_iter()
            .filter_map(|(k, d)| d.as_ref().map(|d| (k, d)))
            .collect()
    }
}

/// `[ts]`: what the TypeScript package's `package.json` says. Unset keys default from the
/// schema crate's `Cargo.toml` ([`Config::read`] fills them in).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TsPackage {
    /// The npm package name (default: the schema crate's name, lowercased).
    pub name: Option<String>,
    /// The package version (default: the schema crate's version).
    pub version: Option<String>,
    /// The package description (default: the schema crate's description).
    pub description: Option<String>,
    /// `"private": true` in package.json, so `npm publish` refuses it (default: false).
    #[serde(default)]
    pub private: bool,
    /// Also emit JavaScript and `.d.ts` under `dist/` (compiled by the pinned TypeScript
    /// compiler, [`crate::js`]), so plain node and any bundler import the package.
    #[serde(default)]
    pub js: bool,
    /// The messages (wire names, as `#[tuplet(name = ...)]`) sent or received at a high
    /// rate. When set, only they and the types they reach keep straight-line compact read
    /// and write code; every other record (and closed unit enum) is read and written by the
    /// runtime walking its table (smaller, slower), the elements of long lists in unlisted
    /// messages included. Unset: every type has straight-line code.
    pub hot: Option<Vec<String>>,
    /// The line in `tuplet.toml` of each `hot` name, 1-based, in the same order (empty
    /// when the config was not read from a file).
    #[serde(skip)]
    pub hot_lines: Vec<usize>,
}

/// The line of each `[ts] hot` name in a config's text (which has parsed), in order.
fn hot_lines(text: &str) -> Vec<usize> {
    #[derive(Deserialize)]
    struct Doc {
        #[serde(default)]
        ts: Ts,
    }
    #[derive(Default, Deserialize)]
    struct Ts {
        #[serde(default)]
        hot: Vec<toml::Spanned<String>>,
    }
    let Ok(doc) = toml::from_str::<Doc>(text) else {
        return Vec::new();
    };
    doc.ts
        .hot
        .iter()
        .map(|name| text[..name.span().start].matches('\n').count() + 1)
        .collect()
}

/// The lines of `deploy` and `accept-deploy` in a config's text (which has parsed).
fn deploy_lines(text: &str) -> (usize, usize) {
    #[derive(Deserialize)]
    struct Doc {
        deploy: Option<toml::Spanned<toml::Value>>,
        #[serde(rename = "accept-deploy")]
        accept: Option<toml::Spanned<toml::Value>>,
    }
    let line = |s: Option<toml::Spanned<toml::Value>>| {
        s.map_or(0, |s| text[..s.span().start].matches('\n').count() + 1)
    };
    match toml::from_str::<Doc>(text) {
        Ok(d) => (line(d.deploy), line(d.accept)),
        Err(_) => (0, 0),
    }
}

/// The lines of `[schema] crate` and `accept-schema-move` in a config's text.
fn schema_lines(text: &str) -> (usize, usize) {
    #[derive(Deserialize)]
    struct Doc {
        schema: Option<Krate>,
        #[serde(rename = "accept-schema-move")]
        accept: Option<toml::Spanned<toml::Value>>,
    }
    #[derive(Deserialize)]
    struct Krate {
        #[serde(rename = "crate")]
        krate: Option<toml::Spanned<toml::Value>>,
    }
    let line = |s: Option<toml::Spanned<toml::Value>>| {
        s.map_or(0, |s| text[..s.span().start].matches('\n').count() + 1)
    };
    match toml::from_str::<Doc>(text) {
        Ok(d) => (line(d.schema.and_then(|s| s.krate)), line(d.accept)),
        Err(_) => (0, 0),
    }
}

/// The deploy order, which the compatibility rules judge by: the one type (and parser) the
/// rules, `tuplet compat` and `assert_project_compatible` share.
pub use tuplet_schema::compat::Deploy;

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
        config.ts.hot_lines = hot_lines(&text);
        config.deploy_lines = deploy_lines(&text);
        config.schema_lines = schema_lines(&text);
        config.base = path.parent().unwrap_or(Path::new("")).to_path_buf();
        config.check().map_err(err)?;
        if config.outputs.ts.is_some() {
            config.fill_package_defaults()?;
        }
        Ok(config)
    }

    /// Parses a config's text (paths stay relative to an empty base).
    pub fn parse(text: &str) -> Result<Config, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    /// The config `--config` names (`explicit`), else the one [`Config::discover`] finds.
    pub fn locate(explicit: Option<&Path>) -> Result<Config, ConfigError> {
        match explicit {
            Some(path) => Config::read(path),
            None => Config::discover(),
        }
    }

    /// The deploy order, as the compatibility rules take it.
    pub fn deploy_order(&self) -> Deploy {
        self.deploy
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

    /// Fills `[ts]`'s unset name, version and description from the schema crate's
    /// `Cargo.toml` (following `version.workspace = true` to the workspace's).
    fn fill_package_defaults(&mut self) -> Result<(), ConfigError> {
        let ts = &self.ts;
        if ts.name.is_some() && ts.version.is_some() && ts.description.is_some() {
            return Ok(());
        }
        let manifest = self.schema_crate().join("Cargo.toml");
        let krate = crate::manifest::Package::read(&manifest).map_err(|message| ConfigError {
            file: manifest.clone(),
            message: format!(
                "{message} (the TypeScript package's name, version and description default \
                 from it; set them under [ts] in {FILE_NAME} instead)"
            ),
        })?;
        let ts = &mut self.ts;
        ts.name.get_or_insert_with(|| krate.name.to_lowercase());
        ts.version.get_or_insert(krate.version);
        if ts.description.is_none() {
            ts.description = Some(krate.description.unwrap_or_else(|| {
                format!(
                    "The {} protocol: types, codecs, validators and a typed dispatcher.",
                    krate.name
                )
            }));
        }
        Ok(())
    }

    /// Output folders belong to tuplet, so none may be the config's folder or hold the
    /// schema crate (as written; `tuplet gen` checks the resolved folders too, see
    /// [`crate::writer::place`]).
    fn check(&self) -> Result<(), String> {
        let reasons = [
            (
                "accept-deploy",
                self.accept_deploy.as_ref().map(|a| &a.reason),
                self.deploy_lines.1,
            ),
            (
                "accept-schema-move",
                self.accept_schema_move.as_ref().map(|a| &a.reason),
                self.schema_lines.1,
            ),
        ];
        for (key, reason, line) in reasons {
            if reason.is_some_and(|r| tuplet_schema::compat::is_template_reason(r)) {
                return Err(format!(
                    "`{key}` at line {line}: `reason = \"...\"` is the report's template; \
                     write why every deployed peer is safe with the change, so the lock's \
                     history records it"
                ));
            }
        }
        for (_, dir) in self.outputs.folders() {
            let normal: PathBuf = dir.components().collect();
            if normal.as_os_str().is_empty()
                || normal == Path::new(".")
                || self.schema.krate.starts_with(&normal)
            {
                return Err(format!(
                    "output folder `{}` would hold the config or the schema crate; tuplet owns \
                     its output folders: use a folder of its own, such as \
                     `generated/jsonschema`",
                    dir.display()
                ));
            }
        }
        Ok(())
    }
}

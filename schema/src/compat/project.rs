//! A project as `tuplet.toml` describes it: [`Project`] reads what the check needs (feature
//! `project`), so `cargo test` judges by the same deploy order as the CLI (a change from the
//! order the lock records is `deploy-changed`, as there), through
//! [`super::verdict_recorded`] (the check `tuplet compat` runs, budgets included).

use std::path::PathBuf;

use super::{Deploy, DeployAccept};

/// A project as `tuplet.toml` describes it to the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The `tuplet.toml` read.
    pub config: PathBuf,
    /// The schema crate (`[schema] crate`, relative to the file's folder).
    pub crate_dir: PathBuf,
    /// The lock: `tuplet.lock.json` beside the file, as `tuplet compat` finds it.
    pub lock: PathBuf,
    /// `deploy` (`any-order` when absent).
    pub deploy: Deploy,
    /// `accept-deploy`, the acknowledgement of a change of `deploy`, if written.
    pub accept_deploy: Option<DeployAccept>,
}

#[cfg(feature = "project")]
mod read {
    use std::path::Path;

    use super::*;
    use crate::compat::{verdict_recorded, CompatError};

    /// The keys of `tuplet.toml` the check reads; the others are the CLI's.
    #[derive(serde::Deserialize)]
    struct Toml {
        #[serde(default)]
        deploy: Deploy,
        #[serde(default, rename = "accept-deploy")]
        accept_deploy: Option<Accept>,
        schema: Schema,
    }

    #[derive(serde::Deserialize)]
    struct Accept {
        was: Deploy,
        now: Deploy,
        reason: String,
    }

    #[derive(serde::Deserialize)]
    struct Schema {
        #[serde(rename = "crate")]
        krate: PathBuf,
    }

    impl Project {
        /// Reads the `tuplet.toml` at `config`.
        pub fn read(config: &Path) -> Result<Project, CompatError> {
            let err = |m: String| CompatError::Config(format!("{}: {m}", config.display()));
            let text =
                std::fs::read_to_string(config).map_err(|e| err(format!("cannot read: {e}")))?;
            let toml: Toml = toml::from_str(&text).map_err(|e| err(e.to_string()))?;
            let base = config.parent().unwrap_or(Path::new(""));
            Ok(Project {
                config: config.to_path_buf(),
                crate_dir: base.join(toml.schema.krate),
                lock: base.join(crate::compat::lock::FILE_NAME),
                deploy: toml.deploy,
                accept_deploy: toml.accept_deploy.map(|a| DeployAccept {
                    was: a.was,
                    now: a.now,
                    reason: a.reason,
                    location: FILE_NAME.to_string(),
                }),
            })
        }

        /// Reads the `tuplet.toml` in `start` or the nearest folder above it that has one, as
        /// the CLI finds it from the current folder.
        pub fn discover(start: &Path) -> Result<Project, CompatError> {
            for dir in start.ancestors() {
                let candidate = dir.join(FILE_NAME);
                if candidate.is_file() {
                    return Project::read(&candidate);
                }
            }
            Err(CompatError::Config(format!(
                "{FILE_NAME} not found in {} or any folder above it",
                start.display()
            )))
        }
    }

    /// The config file's name.
    const FILE_NAME: &str = "tuplet.toml";

    /// The check for `cargo test`, as `tuplet compat` runs it: finds `tuplet.toml` in
    /// `start` or the nearest folder above (pass `env!("CARGO_MANIFEST_DIR")`), checks its
    /// schema crate against the lock beside it under its `deploy` order, and the byte
    /// budgets; panics with the report `tuplet compat` prints when it would exit nonzero.
    ///
    /// ```no_run
    /// tuplet_schema::compat::project::assert_project_compatible(env!("CARGO_MANIFEST_DIR"));
    /// ```
    pub fn assert_project_compatible(start: impl AsRef<Path>) {
        let project = match Project::discover(start.as_ref()) {
            Ok(p) => p,
            Err(e) => panic!("tuplet compat could not run: {e}"),
        };
        let verdict = verdict_recorded(
            &project.crate_dir,
            &project.lock,
            project.deploy,
            project.accept_deploy.clone(),
            FILE_NAME,
        );
        match verdict {
            Ok(v) if v.passes() => {}
            Ok(v) => panic!(
                "the schema at {} fails `tuplet compat` ({}):\n{}",
                project.crate_dir.display(),
                project.config.display(),
                v.text()
            ),
            Err(e) => panic!("tuplet compat could not run: {e}"),
        }
    }
}

#[cfg(feature = "project")]
pub use read::assert_project_compatible;

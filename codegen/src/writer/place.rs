//! Where an output folder really is, and whether `tuplet gen` may write there: inside the
//! folder that holds `tuplet.toml`, or outside it only where `[outputs] allow-outside`
//! names it; never the config's folder, a folder above it, or one holding the schema crate.
//! Paths are resolved canonically (every symbolic link of the part that exists followed),
//! so `..`, an absolute path and a link that leads out are all seen for what they are.

use std::io;
use std::path::{Component, Path, PathBuf};

use crate::config::{Config, FILE_NAME};

/// `path` made absolute (against the current folder) with `.` and `..` applied and every
/// symbolic link in its existing part resolved; the part that does not exist yet is
/// appended as written.
pub fn resolve(path: &Path) -> io::Result<PathBuf> {
    let path = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()?.join(path)
    };
    let mut out = PathBuf::new();
    let mut exists = true;
    for c in path.components() {
        match c {
            Component::Prefix(_) | Component::RootDir => out.push(c.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => {
                out.push(name);
                if exists {
                    match std::fs::symlink_metadata(&out) {
                        Ok(_) => out = std::fs::canonicalize(&out)?,
                        Err(e) if e.kind() == io::ErrorKind::NotFound => exists = false,
                        Err(e) => return Err(e),
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Every configured output folder, resolved, in the order `[outputs]` lists them; `Err`
/// lists each folder `tuplet gen` may not write, with what to write instead.
pub fn outputs(config: &Config) -> Result<Vec<(String, PathBuf)>, Vec<String>> {
    let mut ok = Vec::new();
    let mut errors = Vec::new();
    let io_err = |what: &Path, e: io::Error| format!("{}: {e}", what.display());
    let base = match resolve(&dot(&config.base)) {
        Ok(b) => b,
        Err(e) => return Err(vec![io_err(&config.base, e)]),
    };
    let krate = resolve(&config.schema_crate()).unwrap_or_else(|_| config.schema_crate());
    let allowed: Vec<PathBuf> = config
        .outputs
        .allow_outside
        .iter()
        .filter_map(|a| resolve(&config.base.join(a)).ok())
        .collect();
    let toml = config.base.join(FILE_NAME);
    for (key, dir) in config.outputs.folders() {
        let at = format!(
            "[outputs] {key} = {:?} in {}",
            dir.display().to_string(),
            toml.display()
        );
        let real = match resolve(&config.base.join(dir)) {
            Ok(r) => r,
            Err(e) => {
                errors.push(format!("{at}: {}", io_err(dir, e)));
                continue;
            }
        };
        if base.starts_with(&real) || krate.starts_with(&real) {
            errors.push(format!(
                "{at}: the folder {} holds {} or the schema crate; tuplet owns its output \
                 folders, so it needs one of its own: write a new folder, such as \
                 `{key} = \"generated/{key}\"`",
                real.display(),
                FILE_NAME
            ));
        } else if !real.starts_with(&base) && !allowed.contains(&real) {
            errors.push(format!(
                "{at}: the folder {} is outside {} (the folder holding {FILE_NAME}); write a \
                 folder inside it, such as `{key} = \"generated/{key}\"`, or allow this one \
                 by name: `allow-outside = [{:?}]` under [outputs]",
                real.display(),
                base.display(),
                dir.display().to_string()
            ));
        } else if let Some((other, _)) = ok
            .iter()
            .find(|(_, o): &&(String, PathBuf)| o.starts_with(&real) || real.starts_with(o))
        {
            errors.push(format!(
                "{at}: the folder {} overlaps the `{other}` output; give each output a \
                 folder of its own",
                real.display()
            ));
        } else {
            ok.push((key.to_owned(), real));
        }
    }
    if errors.is_empty() {
        Ok(ok)
    } else {
        Err(errors)
    }
}

/// An empty base (a config named by a bare file name) is the current folder.
fn dot(base: &Path) -> PathBuf {
    if base.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        base.to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_follows_links_and_dots() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(root.join("proj/a")).unwrap();
        std::fs::create_dir_all(root.join("elsewhere")).unwrap();
        assert_eq!(
            resolve(&root.join("proj/a/../b/./c")).unwrap(),
            root.join("proj/b/c")
        );
        assert_eq!(resolve(&root.join("proj/..")).unwrap(), root);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("elsewhere"), root.join("proj/link")).unwrap();
            assert_eq!(
                resolve(&root.join("proj/link/ts")).unwrap(),
                root.join("elsewhere/ts")
            );
        }
    }
}

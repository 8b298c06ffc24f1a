//! The schema crate's `Cargo.toml`, read for the TypeScript package's defaults: name,
//! version and description, following `key.workspace = true` to the workspace's
//! `[workspace.package]`.

use std::path::Path;

use toml::Value;

/// What the package.json defaults come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// `package.name`.
    pub name: String,
    /// `package.version` (Cargo's default `0.0.0` when absent).
    pub version: String,
    /// `package.description`, when set.
    pub description: Option<String>,
}

impl Package {
    /// Reads the manifest at `path`; `Err` says what is missing or malformed.
    pub fn read(path: &Path) -> Result<Package, String> {
        let table = read_table(path)?;
        let package = table
            .get("package")
            .and_then(Value::as_table)
            .ok_or("no [package] table")?;
        let mut workspace = None;
        let mut field = |key: &str| -> Result<Option<String>, String> {
            match package.get(key) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(Value::Table(t))
                    if t.get("workspace").and_then(Value::as_bool) == Some(true) =>
                {
                    if workspace.is_none() {
                        workspace = Some(workspace_package(path)?);
                    }
                    let ws = workspace.as_ref().expect("just read");
                    ws.get(key)
                        .and_then(Value::as_str)
                        .map(|s| Some(s.to_owned()))
                        .ok_or(format!(
                            "`{key}.workspace = true`, but the workspace sets no `{key}`"
                        ))
                }
                Some(_) => Err(format!("`package.{key}` is not a string")),
            }
        };
        let name = field("name")?.ok_or("no `package.name`")?;
        let version = field("version")?.unwrap_or_else(|| "0.0.0".into());
        let description = field("description")?;
        Ok(Package {
            name,
            version,
            description,
        })
    }
}

fn read_table(path: &Path) -> Result<toml::Table, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    text.parse::<toml::Table>()
        .map_err(|e| e.to_string().trim_end().to_owned())
}

/// `[workspace.package]` of the nearest manifest above `member` that has a `[workspace]`.
/// The search starts from `member`'s canonical absolute path: a relative `Cargo.toml` (a
/// `tuplet.toml` beside the crate's own manifest, `crate = "."`) has no parent to climb.
fn workspace_package(member: &Path) -> Result<toml::Table, String> {
    let member = std::fs::canonicalize(member).map_err(|e| format!("cannot read: {e}"))?;
    let start = member.parent().and_then(Path::parent);
    for dir in start.into_iter().flat_map(Path::ancestors) {
        let candidate = dir.join("Cargo.toml");
        if !candidate.is_file() {
            continue;
        }
        let table = read_table(&candidate).map_err(|e| format!("{}: {e}", candidate.display()))?;
        if let Some(ws) = table.get("workspace").and_then(Value::as_table) {
            return Ok(ws
                .get("package")
                .and_then(Value::as_table)
                .cloned()
                .unwrap_or_default());
        }
    }
    Err("a key says `workspace = true`, but no workspace manifest is above the crate".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_and_workspace_keys() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("proto")).unwrap();
        std::fs::write(
            root.join("Cargo.toml"),
            "[workspace]\nmembers = [\"proto\"]\n[workspace.package]\nversion = \"2.3.4\"\n",
        )
        .unwrap();
        let manifest = root.join("proto/Cargo.toml");
        std::fs::write(
            &manifest,
            "[package]\nname = \"My-Game\"\nversion.workspace = true\ndescription = \"d\"\n",
        )
        .unwrap();
        let p = Package::read(&manifest).unwrap();
        assert_eq!(
            p,
            Package {
                name: "My-Game".into(),
                version: "2.3.4".into(),
                description: Some("d".into())
            }
        );
        std::fs::write(&manifest, "[package]\nname = \"g\"\n").unwrap();
        let p = Package::read(&manifest).unwrap();
        assert_eq!((p.version.as_str(), p.description), ("0.0.0", None));
        std::fs::write(
            &manifest,
            "[package]\nname = \"g\"\ndescription.workspace = true\n",
        )
        .unwrap();
        let e = Package::read(&manifest).unwrap_err();
        assert!(e.contains("the workspace sets no `description`"), "{e}");
    }

    /// `crate = "."` beside a member's own manifest: the path is the bare `Cargo.toml`. The
    /// test runs in this crate's folder, whose manifest says `version.workspace = true`.
    #[test]
    fn a_relative_member_manifest_finds_its_workspace() {
        let p = Package::read(Path::new("Cargo.toml")).unwrap();
        assert_eq!(p.name, "tuplet-codegen");
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
        let ws = read_table(&root).unwrap();
        let version = ws["workspace"]["package"]["version"].as_str().unwrap();
        assert_eq!(p.version, version);
    }
}

//! `--against REF`: the base a pull request is judged against, read from git (`git show
//! REF:path`, the git CLI, no library) or, `--against path:FILE`, from a lock file. The base's lock, the base's
//! deploy order and (from git) the base's schema crate come from the base, so nothing the
//! pull request edits (its lock, `deploy`, a `tuplet lock --restart`) changes the verdict.

use std::path::{Path, PathBuf};
use std::process::Command;

use tuplet_schema::compat::{lock::FILE_NAME as LOCK_FILE, moved, Deploy, Lock};
use tuplet_schema::loader::SourceTree;
use tuplet_schema::ResolvedSchema;

use crate::config::Config;

/// The base of a comparison.
pub struct Base {
    /// How reports name it: `origin/main (3f2c1ab)` or the lock file's path.
    pub label: String,
    /// The base's lock; `None` when the base has none (every message is new).
    pub lock: Option<Lock>,
    /// The base's deploy order: `deploy` in the base's `tuplet.toml`, else the one its lock
    /// records, else this `tuplet.toml`'s.
    pub deploy: Deploy,
    /// The base's schema crate, loaded from git (for what grew against it); `None` for a
    /// lock file, or when the base's crate does not load.
    pub schema: Option<ResolvedSchema>,
    /// The base's schema folder, repository-relative (`[schema] crate` of the base's config
    /// at this config's place, or, when the base has none there, of the one it has
    /// elsewhere); `None` for a lock file or a base without a config.
    pub krate: Option<String>,
}

/// Where this project lies in its git repository.
pub struct Repo {
    /// The repository's root.
    pub root: PathBuf,
    /// The config's folder relative to the root, `/`-joined, empty or ending in `/`.
    pub prefix: String,
}

/// Runs git in `dir`; stdout when it succeeds, stderr when it does not.
fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

fn git_text(dir: &Path, args: &[&str]) -> Result<String, String> {
    git(dir, args).map(|b| String::from_utf8_lossy(&b).trim().to_string())
}

/// The config's folder (`.` for an empty base).
pub fn folder(config: &Config) -> PathBuf {
    if config.base.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        config.base.clone()
    }
}

impl Repo {
    /// The git repository holding the config's folder, if any.
    pub fn find(config: &Config) -> Option<Repo> {
        let dir = folder(config);
        let root = git_text(&dir, &["rev-parse", "--show-toplevel"]).ok()?;
        let prefix = git_text(&dir, &["rev-parse", "--show-prefix"]).ok()?;
        Some(Repo {
            root: PathBuf::from(root),
            prefix,
        })
    }
}

/// The prefix that makes `--against` a lock file's path rather than a git ref. A git ref
/// cannot hold `:`, so no file in the working tree can stand in for the base ref.
pub const PATH_PREFIX: &str = "path:";

/// Reads the base `against` names: a git ref (a branch, tag, commit or `origin/main`), or,
/// written `path:FILE`, a lock file. A file that happens to be named like the ref is never
/// read: a pull request could commit one to replace its base. `lock_name` is the lock's
/// file name beside the config; `config_name` the config's.
pub fn read(
    config: &Config,
    against: &str,
    lock_name: &str,
    config_name: &str,
) -> Result<Base, String> {
    if let Some(file) = against.strip_prefix(PATH_PREFIX) {
        let lock = tuplet_schema::compat::read_lock(Path::new(file)).map_err(|e| e.to_string())?;
        let deploy = lock.deploy.unwrap_or(config.deploy);
        return Ok(Base {
            label: file.to_string(),
            lock: Some(lock),
            deploy,
            schema: None,
            krate: None,
        });
    }
    let dir = folder(config);
    let Some(repo) = Repo::find(config) else {
        return Err(format!(
            "`--against {against}`: {} is not in a git repository (pass a git ref such as \
             `origin/main`, or a lock file as `--against path:FILE`)",
            dir.display()
        ));
    };
    let commit = match git_text(
        &dir,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{against}^{{commit}}"),
        ],
    ) {
        Ok(c) if !c.is_empty() => c,
        _ => return Err(missing_ref(&dir, against)),
    };
    let short: String = commit.chars().take(7).collect();
    let label = format!("{against} ({short})");
    let at = |name: &str| format!("{commit}:{}{name}", repo.prefix);
    let lock = match git(&dir, &["show", &at(lock_name)]) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            match Lock::from_json(&text) {
                Ok(lock) => Some(lock),
                Err(e) if e.to_string().contains("merge of two locks") => {
                    return before_merge(config, against, &commit, lock_name, config_name, &e)
                }
                Err(e) => {
                    return Err(format!(
                        "{against}:{}{lock_name} (the base's lock): {e}",
                        repo.prefix
                    ))
                }
            }
        }
        Err(_) => None,
    };
    let base_toml = git(&dir, &["show", &at(config_name)])
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned());
    let toml_deploy = base_toml.as_deref().and_then(deploy_of);
    let base_krate = match &base_toml {
        Some(text) => crate_of(text).map(|k| moved::normal(&format!("{}{k}", repo.prefix))),
        None => elsewhere(&dir, &commit, config_name),
    };
    let deploy = toml_deploy
        .or_else(|| lock.as_ref().and_then(|l| l.deploy))
        .unwrap_or(config.deploy);
    let krate = moved::normal(&format!(
        "{}{}",
        repo.prefix,
        config.schema.krate.to_string_lossy()
    ));
    let schema = load_at(&repo.root, &commit, &krate);
    Ok(Base {
        label,
        lock,
        deploy,
        schema,
        krate: base_krate,
    })
}

/// The base when its lock is a merge of two locks (a merge that reached the base branch):
/// the base's first parent, the branch before that merge, so the pull request that repairs
/// the lock can be judged. Its lock must read; the parent must be in the clone (`git fetch
/// --depth=2`).
fn before_merge(
    config: &Config,
    against: &str,
    commit: &str,
    lock_name: &str,
    config_name: &str,
    error: &impl std::fmt::Display,
) -> Result<Base, String> {
    let dir = folder(config);
    let parent = format!("{commit}^1");
    let found = git_text(
        &dir,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{parent}^{{commit}}"),
        ],
    );
    if !found.is_ok_and(|c| !c.is_empty()) {
        return Err(format!(
            "{against}'s lock (the base's): {error}. The base itself holds a merged lock, so \
             the lock before that merge (its first parent) judges; this clone lacks it: fetch \
             the base with `--depth=2`"
        ));
    }
    let mut base = read(config, &parent, lock_name, config_name)?;
    base.label = format!(
        "{against}^1, the base before its last merge ({against}'s lock is a merge of two locks: \
         {})",
        base.label
    );
    Ok(base)
}

/// `[schema] crate` of a `tuplet.toml`'s text.
fn crate_of(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Doc {
        schema: Krate,
    }
    #[derive(serde::Deserialize)]
    struct Krate {
        #[serde(rename = "crate")]
        krate: String,
    }
    toml::from_str::<Doc>(text).ok().map(|d| d.schema.krate)
}

/// The schema folder of a config named `config_name` the base has at another place (the
/// shallowest, when several): a pull request that moves the config moves the schema.
fn elsewhere(dir: &Path, commit: &str, config_name: &str) -> Option<String> {
    let list = git_text(dir, &["ls-tree", "-r", "--name-only", commit]).ok()?;
    let mut found: Vec<&str> = list
        .lines()
        .filter(|p| p.rsplit('/').next() == Some(config_name))
        .collect();
    found.sort_by_key(|p| (p.matches('/').count(), p.to_string()));
    let path = found.first()?;
    let text = git(dir, &["show", &format!("{commit}:{path}")]).ok()?;
    let folder = path.strip_suffix(config_name).unwrap_or("");
    let krate = crate_of(&String::from_utf8_lossy(&text))?;
    Some(moved::normal(&format!("{folder}{krate}")))
}

/// `deploy` of a `tuplet.toml`'s text (`any-order` when absent); `None` when it does not
/// parse.
fn deploy_of(text: &str) -> Option<Deploy> {
    #[derive(serde::Deserialize)]
    struct Only {
        #[serde(default)]
        deploy: Deploy,
    }
    toml::from_str::<Only>(text).ok().map(|o| o.deploy)
}

/// The schema crate at `krate` (repository-relative, `.` for the root) in `commit`, loaded
/// from git's blobs; `dir` is the repository's root (git reads pathspecs relative to it).
fn load_at(dir: &Path, commit: &str, krate: &str) -> Option<ResolvedSchema> {
    let krate = if krate == "." { "" } else { krate };
    let folder = |p: &str| {
        if krate.is_empty() {
            p.to_string()
        } else {
            format!("{krate}/{p}")
        }
    };
    let list = git_text(
        dir,
        &["ls-tree", "-r", "--name-only", commit, "--", &folder("src")],
    )
    .ok()?;
    let mut tree = SourceTree::new();
    for path in list.lines().filter(|p| p.ends_with(".rs")) {
        let text = git(dir, &["show", &format!("{commit}:{path}")]).ok()?;
        let rel = path.strip_prefix(&folder(""))?;
        tree.insert(rel, &String::from_utf8_lossy(&text));
    }
    tree.load().ok()
}

/// The error for a ref this clone does not have, saying how to fetch it.
fn missing_ref(dir: &Path, against: &str) -> String {
    let shallow =
        git_text(dir, &["rev-parse", "--is-shallow-repository"]).is_ok_and(|s| s == "true");
    let (remote, branch) = match against.split_once('/') {
        Some((r, b)) if !b.is_empty() => (r, b),
        _ => ("origin", against),
    };
    let clone = if shallow {
        " (this is a shallow clone: it holds only the commits it was cloned with)"
    } else {
        ""
    };
    format!(
        "`--against {against}`: no such commit in this clone{clone}. Fetch the base first: \
         `git fetch --no-tags --depth=1 {remote} {branch}:refs/remotes/{remote}/{branch}` and \
         pass `--against {remote}/{branch}` (in GitHub Actions, the base branch is \
         `$GITHUB_BASE_REF`; docs/compat.md has the job)"
    )
}

/// The empty lock: the base of a project whose base has no lock yet.
pub fn empty_lock() -> Lock {
    Lock::from_json(&format!(
        "{{\"format\": {}, \"messages\": {{}}, \"types\": {{}}}}",
        tuplet_schema::compat::lock::FORMAT
    ))
    .expect("the empty lock parses")
}

/// The lock file's name as the base holds it (the default name unless `--lock` names
/// another beside the config).
pub fn lock_name(lock_path: &Path) -> String {
    lock_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| LOCK_FILE.to_string())
}

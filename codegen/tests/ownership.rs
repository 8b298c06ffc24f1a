//! Output folders tuplet owns, and only those (docs/cli.md, "Which files tuplet owns"): one
//! test per case, each on a scratch project in a temporary folder, running the built binary.
//! Every test snapshots the whole temporary tree (the project, a neighbouring project and
//! any folder outside) before and after, and asserts that no file tuplet did not write was
//! removed or changed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const V1: &str = r#"
/// A position.
#[derive(tuplet::Record)]
pub struct Pos {
    #[tuplet(range(-1000, 1000))]
    pub x: i32,
    #[tuplet(range(-1000, 1000))]
    pub y: i32,
}

/// A move.
#[derive(tuplet::Message)]
#[tuplet(name = "game:move", id = 1, dir = "c2s")]
pub struct Move {
    pub to: Pos,
}

/// A chat line.
#[derive(tuplet::Message)]
#[tuplet(name = "game:chat", id = 2, dir = "c2s")]
pub struct Chat {
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
}
"#;

/// V1 with `game:chat` gone, `game:ping` added and `Pos` changed: files written, rewritten
/// and no longer produced.
const V2: &str = r#"
/// A position.
#[derive(tuplet::Record)]
pub struct Pos {
    #[tuplet(range(-5000, 5000))]
    pub x: i32,
    #[tuplet(range(-5000, 5000))]
    pub y: i32,
    pub z: u8,
}

/// A move.
#[derive(tuplet::Message)]
#[tuplet(name = "game:move", id = 1, dir = "c2s")]
pub struct Move {
    pub to: Pos,
}

/// A ping.
#[derive(tuplet::Message)]
#[tuplet(name = "game:ping", id = 3, dir = "c2s")]
pub struct Ping {
    pub at: u32,
}
"#;

const OUTPUTS: &str = "jsonschema = \"out/jsonschema\"\nts = \"out/ts\"\n";

/// A temporary world: `proj/` (a tuplet.toml, the schema crate `game`, a README and a
/// `.git` folder) beside `neighbour/`, another project with files of its own.
struct World {
    tmp: tempfile::TempDir,
}

impl World {
    fn new(outputs: &str) -> World {
        let tmp = tempfile::tempdir().unwrap();
        let w = World { tmp };
        let proj = w.proj();
        std::fs::create_dir_all(proj.join("game/src")).unwrap();
        std::fs::create_dir_all(proj.join(".git")).unwrap();
        std::fs::create_dir_all(w.root().join("neighbour/src")).unwrap();
        std::fs::write(proj.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(proj.join("README.md"), "# my game\n").unwrap();
        std::fs::write(
            proj.join("game/Cargo.toml"),
            "[package]\nname = \"game\"\nversion = \"0.1.0\"\n",
        )
        .unwrap();
        std::fs::write(w.root().join("neighbour/src/main.rs"), "fn main() {}\n").unwrap();
        w.schema(V1);
        w.outputs(outputs);
        w
    }

    fn root(&self) -> PathBuf {
        std::fs::canonicalize(self.tmp.path()).unwrap()
    }

    fn proj(&self) -> PathBuf {
        self.root().join("proj")
    }

    fn schema(&self, lib: &str) {
        std::fs::write(self.proj().join("game/src/lib.rs"), lib).unwrap();
    }

    fn outputs(&self, outputs: &str) {
        let toml = format!("[schema]\ncrate = \"game\"\n[outputs]\n{outputs}");
        std::fs::write(self.proj().join("tuplet.toml"), toml).unwrap();
    }

    /// Runs `tuplet ARGS` in the project, with `env` set.
    fn tuplet_env(&self, args: &[&str], env: &[(&str, String)]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tuplet"));
        cmd.args(args).current_dir(self.proj());
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    }

    fn tuplet(&self, args: &[&str]) -> Output {
        self.tuplet_env(args, &[])
    }

    /// The whole world: path -> bytes (a symbolic link as `-> target`).
    fn tree(&self) -> Tree {
        tree(&self.root())
    }

    /// Writes a file of the user's.
    fn user_file(&self, rel: &str, text: &str) {
        let path = self.root().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

type Tree = BTreeMap<PathBuf, Vec<u8>>;

fn tree(root: &Path) -> Tree {
    let mut out = Tree::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_path_buf();
            let kind = e.file_type().unwrap();
            if kind.is_symlink() {
                let target = std::fs::read_link(&p).unwrap();
                out.insert(rel, format!("-> {}", target.display()).into_bytes());
            } else if kind.is_dir() {
                stack.push(p);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// The files the manifests in `tree` list (world-relative), manifests included: what
/// tuplet wrote.
fn tuplet_files(tree: &Tree) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for (path, bytes) in tree {
        if path.file_name().is_some_and(|n| n == ".tuplet-manifest") {
            out.insert(path.clone());
            let dir = path.parent().unwrap();
            for line in String::from_utf8_lossy(bytes).lines().skip(1) {
                out.insert(dir.join(&line[66..]));
            }
        }
    }
    out
}

/// Every file of `before` that tuplet did not write (by the manifests before and after) is
/// in `after` with the same bytes.
fn assert_users_files_intact(before: &Tree, after: &Tree) {
    let ours: BTreeSet<PathBuf> = tuplet_files(before)
        .union(&tuplet_files(after))
        .cloned()
        .collect();
    let mut users = 0;
    for (path, bytes) in before {
        if ours.contains(path) {
            continue;
        }
        users += 1;
        assert_eq!(
            after
                .get(path)
                .map(|b| String::from_utf8_lossy(b).into_owned()),
            Some(String::from_utf8_lossy(bytes).into_owned()),
            "{} was not written by tuplet: it must be left as it was",
            path.display()
        );
    }
    assert!(users >= 4, "the world holds the user's files ({users})");
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The run exited with `code`.
fn assert_exit(o: &Output, code: i32) {
    assert_eq!(o.status.code(), Some(code), "{}", stderr(o));
}

/// The files a fresh `gen` of `lib` writes, relative to `proj/out` (manifests included).
fn fresh(lib: &str) -> Tree {
    let w = World::new(OUTPUTS);
    w.schema(lib);
    assert_exit(&w.tuplet(&["gen"]), 0);
    tree(&w.proj().join("out"))
}

/// The files under `proj/out` of `w`, relative to it.
fn out_tree(w: &World) -> Tree {
    tree(&w.proj().join("out"))
}

/// `ts = ".."`: the folder holding the project (and its neighbour) is refused, by `gen` and
/// `gen --check` alike, before anything is written.
#[test]
fn dot_dot_is_refused() {
    let w = World::new("ts = \"..\"\n");
    let before = w.tree();
    for args in [&["gen"][..], &["gen", "--check"], &["gen", "--adopt"]] {
        let o = w.tuplet(args);
        assert_exit(&o, 2);
        let e = stderr(&o);
        assert!(e.contains("[outputs] ts = \"..\""), "{e}");
        assert!(e.contains("holds tuplet.toml"), "{e}");
        assert!(
            e.contains("generated/ts"),
            "says what to write instead: {e}"
        );
        assert!(e.contains("refused; nothing written"), "{e}");
    }
    // The neighbour is outside: refused unless allowed by name.
    w.outputs("ts = \"../neighbour\"\n");
    let o = w.tuplet(&["gen"]);
    assert_exit(&o, 2);
    let e = stderr(&o);
    assert!(e.contains("is outside"), "{e}");
    assert!(e.contains("allow-outside = [\"../neighbour\"]"), "{e}");
    w.outputs("ts = \"proj/../..\"\n");
    assert_exit(&w.tuplet(&["gen"]), 2);
    w.outputs("ts = \"..\"\n");
    assert_eq!(w.tree(), before);
}

/// A folder holding a user's files, without a manifest, is refused (naming it and a few of
/// its files); `gen --adopt` takes it over, overwriting only the paths tuplet writes.
#[test]
fn a_folder_holding_a_users_files_is_refused_unless_adopted() {
    let w = World::new("ts = \"client\"\n");
    w.user_file("proj/client/index.html", "<main></main>\n");
    w.user_file("proj/client/src/app.ts", "export const app = 1;\n");
    w.user_file("proj/client/package.json", "{\"name\": \"my-client\"}\n");
    let before = w.tree();
    for args in [&["gen"][..], &["gen", "--check"]] {
        let o = w.tuplet(args);
        assert_exit(&o, 2);
        let e = stderr(&o);
        assert!(e.contains("unowned: client "), "{e}");
        assert!(e.contains("index.html, package.json, src/app.ts"), "{e}");
        assert!(e.contains("tuplet gen --adopt"), "{e}");
        assert!(e.contains("Point the output at a new folder"), "{e}");
    }
    assert_eq!(w.tree(), before);
    // Adopted: package.json (a path tuplet writes) is overwritten, the rest kept.
    let o = w.tuplet(&["gen", "--adopt"]);
    assert_exit(&o, 0);
    assert!(
        stderr(&o).contains("kept    client/index.html"),
        "{}",
        stderr(&o)
    );
    let after = w.tree();
    let mut expect = before.clone();
    expect.remove(Path::new("proj/client/package.json"));
    let mut rest = after.clone();
    rest.retain(|p, _| !tuplet_files(&after).contains(p));
    assert_eq!(rest, expect);
    assert_exit(&w.tuplet(&["gen", "--check"]), 0);
    assert_exit(&w.tuplet(&["gen"]), 0);
    assert_eq!(w.tree(), after);
}

/// An absolute path outside the project is refused unless `allow-outside` names it; one
/// inside the project is fine.
#[test]
fn an_absolute_path_outside_is_refused_unless_allowed() {
    let w = World::new("");
    let outside = w.root().join("elsewhere/ts");
    let quoted = format!("{:?}", outside.display().to_string());
    w.outputs(&format!("ts = {quoted}\n"));
    let before = w.tree();
    for args in [&["gen"][..], &["gen", "--check"]] {
        let o = w.tuplet(args);
        assert_exit(&o, 2);
        let e = stderr(&o);
        assert!(e.contains("is outside"), "{e}");
        assert!(e.contains(&format!("allow-outside = [{quoted}]")), "{e}");
    }
    assert_eq!(w.tree(), before);
    w.outputs(&format!("ts = {quoted}\nallow-outside = [{quoted}]\n"));
    let before = w.tree();
    assert_exit(&w.tuplet(&["gen"]), 0);
    let after = w.tree();
    assert!(after.contains_key(Path::new("elsewhere/ts/.tuplet-manifest")));
    assert_users_files_intact(&before, &after);
    assert_exit(&w.tuplet(&["gen", "--check"]), 0);
    let inside = format!("{:?}", w.proj().join("out/ts").display().to_string());
    w.outputs(&format!("ts = {inside}\n"));
    let before = w.tree();
    assert_exit(&w.tuplet(&["gen"]), 0);
    assert_users_files_intact(&before, &w.tree());
}

/// A symbolic link that leads out of the project is refused as the path it leads to; a link
/// inside an output folder where tuplet writes a folder is refused too.
#[cfg(unix)]
#[test]
fn a_symlink_that_leads_out_is_refused() {
    let w = World::new("ts = \"out/ts\"\n");
    std::fs::create_dir_all(w.root().join("elsewhere")).unwrap();
    w.user_file("elsewhere/keep.txt", "mine\n");
    std::os::unix::fs::symlink(w.root().join("elsewhere"), w.proj().join("out")).unwrap();
    let before = w.tree();
    for args in [&["gen"][..], &["gen", "--check"], &["gen", "--adopt"]] {
        let o = w.tuplet(args);
        assert_exit(&o, 2);
        let e = stderr(&o);
        assert!(e.contains("is outside"), "{e}");
        assert!(
            e.contains(&w.root().join("elsewhere/ts").display().to_string()),
            "{e}"
        );
    }
    assert_eq!(w.tree(), before);
    // A link inside tuplet's own folder, where it writes `src/`.
    std::fs::remove_file(w.proj().join("out")).unwrap();
    assert_exit(&w.tuplet(&["gen"]), 0);
    std::fs::remove_dir_all(w.proj().join("out/ts/src")).unwrap();
    std::os::unix::fs::symlink(w.root().join("elsewhere"), w.proj().join("out/ts/src")).unwrap();
    let before = w.tree();
    for args in [&["gen"][..], &["gen", "--check"], &["gen", "--adopt"]] {
        let o = w.tuplet(args);
        assert_exit(&o, 2);
        let e = stderr(&o);
        assert!(e.contains("link:    out/ts/src"), "{e}");
    }
    assert_eq!(w.tree(), before);
}

/// A folder tuplet made earlier: after a schema change, the files it no longer produces
/// are removed and nothing else; the user's files in it are kept.
#[test]
fn a_folder_tuplet_made_earlier_loses_only_what_it_no_longer_produces() {
    let w = World::new(OUTPUTS);
    assert_exit(&w.tuplet(&["gen"]), 0);
    let v1 = out_tree(&w);
    w.user_file("proj/out/ts/NOTES.md", "my notes\n");
    w.user_file("proj/out/jsonschema/c2s/mine.json", "{}\n");
    w.schema(V2);
    let before = w.tree();
    let o = w.tuplet(&["gen"]);
    assert_exit(&o, 0);
    let after = w.tree();
    assert_users_files_intact(&before, &after);
    let v2 = fresh(V2);
    let gone: BTreeSet<&PathBuf> = v1.keys().filter(|p| !v2.contains_key(*p)).collect();
    assert!(
        gone.contains(&PathBuf::from("jsonschema/c2s/game_chat.json")),
        "{gone:?}"
    );
    for p in &gone {
        assert!(
            stderr(&o).contains(&format!("removed out/{}", p.display())),
            "{}",
            stderr(&o)
        );
    }
    let mut expect = v2.clone();
    expect.insert("ts/NOTES.md".into(), b"my notes\n".to_vec());
    expect.insert("jsonschema/c2s/mine.json".into(), b"{}\n".to_vec());
    assert_eq!(out_tree(&w), expect);
    assert_exit(&w.tuplet(&["gen", "--check"]), 0);
}

/// A file a user added inside tuplet's folder is kept (and `--check` stays fresh); a file
/// tuplet wrote and the user changed, or a user's file where tuplet now writes one, is
/// refused until `--adopt`.
#[test]
fn a_file_a_user_added_is_kept_and_an_edited_one_refused() {
    let w = World::new(OUTPUTS);
    assert_exit(&w.tuplet(&["gen"]), 0);
    w.user_file("proj/out/ts/src/mine.ts", "export const mine = 1;\n");
    let before = w.tree();
    let o = w.tuplet(&["gen"]);
    assert_exit(&o, 0);
    assert!(
        stderr(&o).contains("kept    out/ts/src/mine.ts"),
        "{}",
        stderr(&o)
    );
    assert_exit(&w.tuplet(&["gen", "--check"]), 0);
    assert_eq!(w.tree(), before);

    // Edited since tuplet wrote it: refused, by gen and --check, nothing touched.
    let edited = w.proj().join("out/jsonschema/c2s/game_move.json");
    let mut text = std::fs::read_to_string(&edited).unwrap();
    text.push_str("\n// my change\n");
    std::fs::write(&edited, &text).unwrap();
    // Now produced at a path where the user has a file of their own.
    w.user_file(
        "proj/out/jsonschema/c2s/game_ping.json",
        "{\"mine\": true}\n",
    );
    w.schema(V2);
    let before = w.tree();
    for args in [&["gen"][..], &["gen", "--check"]] {
        let o = w.tuplet(args);
        assert_exit(&o, 2);
        let e = stderr(&o);
        assert!(
            e.contains("edited:  out/jsonschema/c2s/game_move.json"),
            "{e}"
        );
        assert!(
            e.contains("foreign: out/jsonschema/c2s/game_ping.json"),
            "{e}"
        );
        assert!(e.contains("Move your edits into the schema"), "{e}");
    }
    assert_eq!(w.tree(), before);
    // Adopted: both overwritten, the user's own file kept.
    assert_exit(&w.tuplet(&["gen", "--adopt"]), 0);
    let mut expect = fresh(V2);
    expect.insert(
        "ts/src/mine.ts".into(),
        b"export const mine = 1;\n".to_vec(),
    );
    assert_eq!(out_tree(&w), expect);
}

/// Runs `gen` on `lib` stopped after `n` writes and removals; asserts the user's files are
/// intact and every file tuplet produces is in `old` or `new` (or absent). Returns whether
/// the run finished and how many temporary files it left.
fn stopped_gen(w: &World, lib: &str, n: usize, old: &Tree, new: &Tree) -> (bool, usize) {
    w.schema(lib);
    let before = w.tree();
    let env = [("TUPLET_ABORT_AFTER_WRITES", n.to_string())];
    let o = w.tuplet_env(&["gen"], &env);
    let done = match o.status.code() {
        Some(0) => true,
        Some(99) => false,
        other => panic!("after {n} writes: exit {other:?}: {}", stderr(&o)),
    };
    assert_users_files_intact(&before, &w.tree());
    let mut temporaries = 0;
    for (rel, bytes) in out_tree(w) {
        let name = rel.file_name().unwrap().to_string_lossy().into_owned();
        if name == ".tuplet-manifest" || rel == Path::new("ts/NOTES.md") {
            continue;
        }
        if name.starts_with(".tuplet-") && name.ends_with(".tmp") {
            assert!(!done, "a finished run leaves no temporary file");
            temporaries += 1;
            continue;
        }
        assert!(
            old.get(&rel) == Some(&bytes) || new.get(&rel) == Some(&bytes),
            "after {n} writes, {} is neither old nor new",
            rel.display()
        );
    }
    (done, temporaries)
}

/// Runs `gen` on `lib`, which must succeed, and asserts the outputs are `expect` plus the
/// user's notes, and fresh.
fn finished_gen(w: &World, lib: &str, expect: &Tree, why: &str) {
    w.schema(lib);
    let o = w.tuplet(&["gen"]);
    assert_eq!(o.status.code(), Some(0), "{why}: {}", stderr(&o));
    let mut expect = expect.clone();
    expect.insert("ts/NOTES.md".into(), b"my notes\n".to_vec());
    assert_eq!(out_tree(w), expect, "{why}");
    assert_exit(&w.tuplet(&["gen", "--check"]), 0);
}

/// A `gen` stopped after each number of writes (its next temporary file on disk, not yet
/// renamed): every file is old or new, the user's files are intact, and the next `gen`
/// succeeds, whether it finishes the same change or goes back to the old schema. The first
/// `gen` into a new folder, stopped the same way, is finished by the next one.
#[test]
fn a_gen_killed_between_writes_leaves_every_file_old_or_new() {
    let (v1, v2) = (fresh(V1), fresh(V2));
    let w = World::new(OUTPUTS);
    assert_exit(&w.tuplet(&["gen"]), 0);
    w.user_file("proj/out/ts/NOTES.md", "my notes\n");
    let (mut stopped, mut temporaries) = (0, 0);
    for n in 0.. {
        let (done, t) = stopped_gen(&w, V2, n, &v1, &v2);
        temporaries += t;
        if done {
            break;
        }
        stopped += 1;
        // Back to the old schema: the files the stopped run wrote are tuplet's too.
        finished_gen(
            &w,
            V1,
            &v1,
            &format!("back to V1 after a stop at {n} writes"),
        );
        let (done, _) = stopped_gen(&w, V2, n, &v1, &v2);
        assert!(!done);
        finished_gen(&w, V2, &v2, &format!("V2 again after a stop at {n} writes"));
        finished_gen(&w, V1, &v1, "V1");
    }
    eprintln!("stopped after 0..{stopped} writes; {temporaries} temporary file(s) left behind");
    assert!(stopped >= 5, "the change takes several writes ({stopped})");
    assert!(
        temporaries > 0,
        "a stop mid-write leaves its temporary file"
    );
    // The first gen into a new folder.
    let empty = Tree::new();
    for n in 0.. {
        let w = World::new(OUTPUTS);
        let (done, _) = stopped_gen(&w, V1, n, &empty, &v1);
        if done {
            assert!(n > 5, "{n}");
            break;
        }
        let o = w.tuplet(&["gen"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "after a stop at {n}: {}",
            stderr(&o)
        );
        assert_eq!(out_tree(&w), v1, "the first gen after a stop at {n} writes");
    }
}

//! The TypeScript package's `package.json` from `[ts]` and the schema crate's Cargo.toml,
//! and `[ts] js = true`: `dist/` compiled by the pinned tsc, imported by plain node, kept
//! fresh by `gen --check`, and a clear error when npm is missing. Runs the built binary on
//! a scratch crate in a temporary folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const LIB: &str = r#"
/// A chat line.
#[derive(tuplet::Message)]
#[tuplet(name = "chat:send", id = 1, dir = "c2s")]
pub struct ChatSend {
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
    #[tuplet(range(0, 100))]
    pub volume: u8,
}
"#;

/// A scratch crate `game` (with `cargo_toml`) and a tuplet.toml with `[ts]` = `ts`.
fn scratch(cargo_toml: &str, ts: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::create_dir_all(root.join("game/src")).unwrap();
    std::fs::write(root.join("game/src/lib.rs"), LIB).unwrap();
    std::fs::write(root.join("game/Cargo.toml"), cargo_toml).unwrap();
    let toml = format!("[schema]\ncrate = \"game\"\n[outputs]\nts = \"out/ts\"\n{ts}");
    std::fs::write(root.join("tuplet.toml"), toml).unwrap();
    tmp
}

fn tuplet(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tuplet"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn package_json(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("out/ts/package.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn package_json_defaults_from_the_crates_cargo_toml() {
    let tmp = scratch(
        "[package]\nname = \"My-Game\"\nversion = \"1.4.2\"\ndescription = \"My game's messages\"\n",
        "",
    );
    let o = tuplet(tmp.path(), &["gen"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let p = package_json(tmp.path());
    assert_eq!(p["name"], "my-game");
    assert_eq!(p["version"], "1.4.2");
    assert_eq!(p["description"], "My game's messages");
    assert!(
        p.get("private").is_none(),
        "publishable unless [ts] private = true"
    );
    assert_eq!(p["exports"]["."]["default"], "./src/index.ts");
}

#[test]
fn package_json_keys_override_and_a_missing_description_is_not_a_path() {
    let tmp = scratch(
        "[package]\nname = \"game\"\nversion = \"0.2.0\"\n",
        "[ts]\nname = \"@studio/game-protocol\"\nprivate = true\n",
    );
    let o = tuplet(tmp.path(), &["gen"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let p = package_json(tmp.path());
    assert_eq!(p["name"], "@studio/game-protocol");
    assert_eq!(p["version"], "0.2.0");
    assert_eq!(
        p["description"],
        "The game protocol: types, codecs, validators and a typed dispatcher."
    );
    assert_eq!(p["private"], true);
    // An unknown key is refused with the file named.
    let tmp = scratch("[package]\nname = \"game\"\n", "[ts]\nnmae = \"x\"\n");
    let o = tuplet(tmp.path(), &["gen"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown field `nmae`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_crate_without_cargo_toml_says_which_keys_to_set() {
    let tmp = scratch("", "");
    std::fs::remove_file(tmp.path().join("game/Cargo.toml")).unwrap();
    let o = tuplet(tmp.path(), &["gen"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("Cargo.toml: cannot read"), "{e}");
    assert!(e.contains("set them under [ts] in tuplet.toml"), "{e}");
}

#[test]
fn js_is_compiled_imported_by_plain_node_and_checked() {
    let tmp = scratch(
        "[package]\nname = \"game\"\nversion = \"0.1.0\"\n",
        "[ts]\njs = true\n",
    );
    let dir = tmp.path();
    let o = tuplet(dir, &["gen"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = dir.join("out/ts");
    for f in [
        "dist/index.js",
        "dist/index.d.ts",
        "dist/lib.js",
        "dist/runtime/support.d.ts",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let p = package_json(dir);
    assert_eq!(p["exports"]["."]["default"], "./dist/index.js");
    assert_eq!(p["exports"]["."]["types"], "./dist/index.d.ts");
    // Plain node imports the package by its name (a file: dependency) and round-trips.
    let app = dir.join("app");
    std::fs::create_dir_all(app.join("node_modules")).unwrap();
    std::os::unix::fs::symlink(&out, app.join("node_modules/game")).unwrap();
    let script = r#"
import { ChatSendCodec } from "game";
const bytes = ChatSendCodec.encode({ text: "hi", volume: 7 });
const back = ChatSendCodec.decode(bytes);
console.log(Buffer.from(bytes).toString("hex"), JSON.stringify(back));
"#;
    std::fs::write(app.join("main.mjs"), script).unwrap();
    let o = Command::new("node")
        .arg("main.mjs")
        .current_dir(&app)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        r#"92a2686907 {"ok":true,"value":{"text":"hi","volume":7}}"#
    );
    // gen --check covers dist/ (listed in the folder's manifest): fresh, then a hand edit
    // that gen refuses to overwrite (2), then a missing file (1).
    let o = tuplet(dir, &["gen", "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let manifest = std::fs::read_to_string(out.join(".tuplet-manifest")).unwrap();
    assert!(manifest.contains("  dist/lib.js\n"), "{manifest}");
    std::fs::write(out.join("dist/lib.js"), "// edited\n").unwrap();
    let o = tuplet(dir, &["gen", "--check"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("edited:  out/ts/dist/lib.js"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_file(out.join("dist/lib.js")).unwrap();
    let o = tuplet(dir, &["gen", "--check"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("missing: out/ts/dist/lib.js"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn js_is_compiled_again_only_when_the_sources_change() {
    let tmp = scratch(
        "[package]\nname = \"game\"\nversion = \"0.1.0\"\n",
        "[ts]\njs = true\n",
    );
    let dir = tmp.path();
    let timed = |args: &[&str], with_npm: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_tuplet"));
        c.args(args).current_dir(dir);
        if !with_npm {
            // No npm, no node: any attempt to compile fails.
            c.env("PATH", dir.join("no-such-bin"));
        }
        let start = std::time::Instant::now();
        let o = c.output().unwrap();
        (o, start.elapsed())
    };
    let (o, first) = timed(&["gen"], true);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let stamp = std::fs::read_to_string(dir.join("out/ts/dist/.tuplet-build")).unwrap();
    assert!(
        stamp.contains("typescript 5.9.3\nsources sha256:"),
        "{stamp}"
    );
    // Unchanged sources: neither run reaches npm (there is none on PATH).
    let (o, check) = timed(&["gen", "--check"], false);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (o, again) = timed(&["gen"], false);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    eprintln!("gen with tsc {first:?}; gen --check reusing dist/ {check:?}; gen {again:?}");
    // A changed source compiles again: without npm that is the npm error.
    let lib = dir.join("game/src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(&lib, text.replace("max = 280", "max = 200")).unwrap();
    let (o, _) = timed(&["gen", "--check"], false);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("npm (or node) was not found"),
        "{}",
        stderr(&o)
    );
    let (o, _) = timed(&["gen"], true);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let js = std::fs::read_to_string(dir.join("out/ts/dist/lib.js")).unwrap();
    assert!(js.contains("200"), "recompiled");
    assert_ne!(
        std::fs::read_to_string(dir.join("out/ts/dist/.tuplet-build")).unwrap(),
        stamp
    );
}

#[test]
fn js_without_npm_names_the_fix() {
    let tmp = scratch("[package]\nname = \"game\"\n", "[ts]\njs = true\n");
    let o = Command::new(env!("CARGO_BIN_EXE_tuplet"))
        .arg("gen")
        .current_dir(tmp.path())
        .env("PATH", tmp.path().join("no-such-bin"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("npm (or node) was not found on PATH"), "{e}");
    assert!(e.contains("install Node.js 20 or later"), "{e}");
    assert!(e.contains("remove `js = true`"), "{e}");
}

#[test]
fn the_pinned_compiler_is_the_one_tests_ts_pins() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("tests/ts/package.json")).unwrap();
    let p: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        p["devDependencies"]["typescript"],
        tuplet_codegen::js::TYPESCRIPT
    );
}

//! Sizes and byte budgets on small schemas: `tuplet_schema::sizes` and `tuplet compat`
//! failing (exit 1) on a message whose largest size exceeds its budget, naming the field.

use std::path::Path;
use std::process::Command;

use tuplet_schema::sizes::{budget_findings, message_sizes};

const SRC: &str = r#"
#[derive(tuplet::Record)]
pub struct Item {
    #[tuplet(len(max = 40))]
    pub name: String,
    pub count: u16,
}

#[derive(tuplet::Message)]
#[tuplet(name = "bag:full", id = 1, dir = "s2c", budget = 100)]
pub struct BagFull {
    pub owner: u32,
    #[tuplet(len(max = 8))]
    pub items: Vec<Item>,
    pub note: Option<u8>,
}

#[derive(tuplet::Message)]
#[tuplet(name = "chat:say", id = 2, dir = "c2s", budget = 64)]
pub struct ChatSay {
    pub text: String,
}

#[derive(tuplet::Message)]
#[tuplet(name = "ping", id = 3, dir = "c2s", budget = 20)]
pub struct Ping {
    pub t: u64,
    pub seq: Option<u32>,
}
"#;

fn setup() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("s/src")).unwrap();
    std::fs::write(tmp.path().join("s/src/lib.rs"), SRC).unwrap();
    std::fs::write(tmp.path().join("tuplet.toml"), "[schema]\ncrate = \"s\"\n").unwrap();
    tmp
}

#[test]
fn sizes_and_budget_findings() {
    let tmp = setup();
    let schema = tuplet_schema::load(&tmp.path().join("s")).unwrap_or_else(|e| panic!("{e}"));
    let sizes = message_sizes(&schema);
    let bag = sizes.iter().find(|s| s.name == "bag:full").unwrap();
    // 1 + owner 5 + items (1 + 8 x (1 + name 2+40 + count 3)) + note 2 = 9 + 369 = 377.
    assert_eq!(bag.max, Ok(1 + 5 + 1 + 8 * 46 + 2));
    // [owner 0, []]: 1 + 1 + 1.
    assert_eq!(bag.min, 3);
    assert_eq!(bag.dominant, Some(("items".to_string(), Some(1 + 8 * 46))));
    let say = sizes.iter().find(|s| s.name == "chat:say").unwrap();
    let u = say.max.as_ref().unwrap_err();
    assert_eq!(u.field, "text");
    assert!(u.reason.contains("String without len(max)"));
    let findings = budget_findings(&schema);
    let names: Vec<&str> = findings.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        names,
        ["chat:say", "bag:full"],
        "ping (1 + 9 + 5 = 15) fits its 20"
    );
    let bag = &findings[1];
    assert_eq!(
        (bag.budget, bag.largest, bag.field.as_str()),
        (100, Some(377), "items")
    );
    assert_eq!(bag.file, "src/lib.rs");
    assert_eq!(bag.line, 11);
    assert!(bag
        .to_string()
        .contains("up to 377 bytes, over its budget of 100 bytes"));
}

#[test]
fn compat_fails_on_a_budget_naming_the_field() {
    let tmp = setup();
    let bin = env!("CARGO_BIN_EXE_tuplet");
    let config = tmp.path().join("tuplet.toml");
    let run = |args: &[&str]| {
        Command::new(bin)
            .args(args)
            .arg("--config")
            .arg(&config)
            .output()
            .unwrap()
    };
    let lock = run(&["lock"]);
    assert_eq!(
        lock.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&lock.stderr)
    );
    let o = run(&["compat"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("budget-exceeded:"), "{out}");
    assert!(out.contains("bag:full (s2c, id 1): up to 377 bytes, over its budget of 100 bytes; the largest field is `items`"), "{out}");
    assert!(out.contains("chat:say (c2s, id 2): unbounded, but its budget is 64 bytes: `text` is a String without len(max)"), "{out}");
    assert!(
        out.contains(&format!("{}:11", Path::new("s/src/lib.rs").display())),
        "{out}"
    );
    // The summary says what the exit code says, and each finding points at its explanation.
    assert!(
        out.contains("  rule: `tuplet explain budget-exceeded`"),
        "{out}"
    );
    assert!(
        out.ends_with("NOT compatible; 0 breaking, 0 accepted, 0 note(s), 2 over budget\n"),
        "{out}"
    );
    let explained = Command::new(env!("CARGO_BIN_EXE_tuplet"))
        .args(["explain", "budget-exceeded"])
        .output()
        .unwrap();
    assert_eq!(explained.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&explained.stdout).starts_with("### `budget-exceeded`\n"));
    // The JSON report carries the same findings and says it is not compatible.
    let o = run(&["compat", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["compatible"], false, "{json}");
    let budgets = json["budgets"].as_array().unwrap();
    assert_eq!(budgets.len(), 2, "{json}");
    assert_eq!(budgets[0]["rule"], "budget-exceeded");
    assert!(budgets
        .iter()
        .any(|b| b["message"] == "bag:full" && b["field"] == "items" && b["largest"] == 377));
    // Within budget: exit 0.
    let src = SRC
        .replace("budget = 100", "budget = 400")
        .replace(", budget = 64", "");
    std::fs::write(tmp.path().join("s/src/lib.rs"), src).unwrap();
    let o = run(&["compat"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("): compatible; "));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn village_readme_quotes_the_current_sizes_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let schema =
        tuplet_schema::load(&root.join("examples/village")).unwrap_or_else(|e| panic!("{e}"));
    let rows = tuplet_codegen::commands::sizes::rows(&schema);
    let table = tuplet_codegen::commands::sizes::table(&rows, Some(40));
    let readme = std::fs::read_to_string(root.join("examples/village/README.md")).unwrap();
    assert!(
        readme.contains(&table),
        "examples/village/README.md is stale: paste the output of `tuplet sizes --top 40` under \
         \"## Sizes (tuplet sizes)\""
    );
    assert!(
        budget_findings(&schema).is_empty(),
        "village fits its budgets"
    );
}

#[test]
fn a_map_with_bounded_keys_is_bounded_and_can_meet_a_budget() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("s/src")).unwrap();
    let src = |keys: &str| {
        format!(
            r#"
#[derive(tuplet::Message)]
#[tuplet(name = "score:board", id = 1, dir = "s2c", budget = 300)]
pub struct Board {{
    #[tuplet(len(max = 8){keys})]
    pub scores: std::collections::BTreeMap<String, u16>,
}}
"#
        )
    };
    let sizes_of = |keys: &str| {
        std::fs::write(tmp.path().join("s/src/lib.rs"), src(keys)).unwrap();
        let schema = tuplet_schema::load(&tmp.path().join("s")).unwrap_or_else(|e| panic!("{e}"));
        let board = message_sizes(&schema).remove(0);
        (board.max, budget_findings(&schema).len())
    };
    let (max, over) = sizes_of("");
    let u = max.unwrap_err();
    assert_eq!(u.field, "scores[key]");
    assert!(u.reason.contains("String without len(max)"), "{}", u.reason);
    assert_eq!(over, 1, "an unbounded message never meets its budget");
    // 1 + map header 1 + 8 x (key 1 + 24 + value 3) = 226.
    let (max, over) = sizes_of(", key_len(max = 24)");
    assert_eq!(max, Ok(1 + 1 + 8 * (1 + 24 + 3)));
    assert_eq!(over, 0, "226 bytes fit the budget of 300");
}

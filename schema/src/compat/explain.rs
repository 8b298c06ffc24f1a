//! The rules' documentation, embedded (every rule, and the checks that are not changes,
//! [`super::rules::CHECKS`], each with what it catches, why, whom it hurts and how to change safely): RULES.md is compiled into the crate, so `tuplet
//! explain RULE` (and anyone holding the binary) reads a rule's entry without the
//! repository at hand. The crate keeps its own copy (`schema/RULES.md`, which `cargo package`
//! includes); a test checks it equals the repository's RULES.md.

/// RULES.md, as built into this crate.
pub const RULES_MD: &str = include_str!("../../RULES.md");

/// The RULES.md entry of the rule named `name`: its `### \`name\`` section, heading
/// included, up to the next heading. `None` for a name RULES.md has no entry for.
pub fn explain(name: &str) -> Option<&'static str> {
    let heading = format!("### `{name}`\n");
    let start = RULES_MD.find(&heading)?;
    let body = &RULES_MD[start + heading.len()..];
    let end = body
        .match_indices("\n#")
        .map(|(i, _)| i + 1)
        .next()
        .unwrap_or(body.len());
    Some(RULES_MD[start..start + heading.len() + end].trim_end())
}

/// How a report points at a rule's entry: a command that works wherever the CLI does.
pub fn pointer(name: &str) -> String {
    format!("`tuplet explain {name}`")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compat::rules;

    #[test]
    fn every_rule_has_an_entry_that_stops_at_the_next_heading() {
        for r in rules::ALL.iter().chain(rules::CHECKS) {
            let text = explain(r.name).unwrap_or_else(|| panic!("no entry for {}", r.name));
            assert!(text.starts_with(&format!("### `{}`\n", r.name)));
            assert!(
                !text[4..].contains("\n#"),
                "{} runs into the next one",
                r.name
            );
            assert!(text.lines().count() > 2, "{} has an empty entry", r.name);
        }
        assert_eq!(explain("no-such-rule"), None);
    }

    /// Every entry says what it catches, why it breaks (what breaks), whom it hurts and how
    /// to make the change safely, as `tuplet explain` promises.
    #[test]
    fn every_entry_is_complete() {
        let mut incomplete = Vec::new();
        for r in rules::ALL.iter().chain(rules::CHECKS) {
            let text = explain(r.name).unwrap_or_default();
            for part in ["**Catches**", "**Why", "**Hurts**", "**Safely:**"] {
                if !text.contains(part) {
                    incomplete.push(format!("{} lacks {part}", r.name));
                }
            }
        }
        assert!(incomplete.is_empty(), "RULES.md: {incomplete:#?}");
    }

    #[test]
    fn the_crate_copy_is_the_repository_rules_md() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../RULES.md");
        // Absent only in a packaged crate, whose copy is the one it was packaged with.
        if let Ok(text) = std::fs::read_to_string(root) {
            assert!(
                text == RULES_MD,
                "schema/RULES.md differs from RULES.md: `cp RULES.md schema/RULES.md`"
            );
        }
    }
}

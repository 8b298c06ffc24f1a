//! `tuplet explain [RULE]`: a compatibility rule's RULES.md entry (what it catches, why it
//! breaks peers, how to make the change safely), embedded in the binary; without a rule,
//! every rule (and every check that is not a change: `budget-exceeded`, `deploy-changed`,
//! `lock-stale`) with its one-line reason. Reports point here, so the help works outside the
//! repository.
//!
//! Exit codes: 0 printed; 2 no such rule (the valid names are listed).

use clap::Args;
use tuplet_schema::compat::{explain, rules};

use crate::exit::Exit;

/// `tuplet explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The rule, as reports print it (`message-removed`); none lists every rule.
    pub rule: Option<String>,
}

/// `tuplet explain`.
pub fn run(args: &ExplainArgs) -> Exit {
    let Some(name) = &args.rule else {
        for r in rules::ALL.iter().chain(rules::CHECKS) {
            println!("{:<24} {:<7} {}", r.name, r.category.as_str(), r.why);
        }
        println!("\n`tuplet explain RULE` prints a rule's entry: what it catches, why, and how to change safely.");
        return Exit::Ok;
    };
    match explain::explain(name) {
        Some(text) => {
            println!("{text}");
            Exit::Ok
        }
        None => {
            let names: Vec<&str> = rules::ALL
                .iter()
                .chain(rules::CHECKS)
                .map(|r| r.name)
                .collect();
            eprintln!(
                "error: no rule is named `{name}`; the rules: {}",
                names.join(", ")
            );
            Exit::BadInput
        }
    }
}

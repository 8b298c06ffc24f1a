//! Emitters: one file per target, each behind the one `Emitter` trait. An emitter turns the
//! resolved IR into files; it never touches the disk (the writer does).

mod common;
pub mod jsonschema;
pub mod typescript;

use std::path::PathBuf;

use crate::config::Config;

pub use common::{to_json, Emitter};

/// The emitters `config` names, each with its output folder.
pub fn configured(config: &Config) -> Vec<(Box<dyn Emitter>, PathBuf)> {
    let mut out: Vec<(Box<dyn Emitter>, PathBuf)> = Vec::new();
    if let Some(dir) = &config.outputs.jsonschema {
        out.push((Box::new(jsonschema::JsonSchema), config.output(dir)));
    }
    if let Some(dir) = &config.outputs.ts {
        let source = config.schema.krate.to_string_lossy().replace('\\', "/");
        let ts = &config.ts;
        let name = ts.name.clone().unwrap_or_else(|| "protocol".into());
        let package = typescript::Package {
            description: ts.description.clone().unwrap_or_else(|| {
                format!("The {name} protocol: types, codecs, validators and a typed dispatcher.")
            }),
            name,
            version: ts.version.clone().unwrap_or_else(|| "0.0.0".into()),
            private: ts.private,
            js: ts.js,
        };
        let hot = ts.hot.clone();
        out.push((
            Box::new(typescript::TypeScript {
                source,
                package,
                hot,
            }),
            config.output(dir),
        ));
    }
    out
}

/// Checks what `config` says about `schema` beyond what parsing checks: every `[ts] hot`
/// name is a message of the schema. The error has one line per unknown name, each with its
/// line in `tuplet.toml` and the nearest message name when one is close.
pub fn check(config: &Config, schema: &tuplet_schema::ResolvedSchema) -> Result<(), String> {
    let file = config.base.join(crate::config::FILE_NAME);
    let names: Vec<&str> = schema
        .items
        .values()
        .filter_map(|i| match &i.item.kind {
            tuplet_schema::ir::ItemKind::Message(m) => Some(m.name.as_str()),
            _ => None,
        })
        .collect();
    let mut errors = Vec::new();
    for (i, name) in config.ts.hot.iter().flatten().enumerate() {
        if !typescript::message_paths(schema, name).is_empty() {
            continue;
        }
        let at = match config.ts.hot_lines.get(i) {
            Some(line) => format!("{}:{line}", file.display()),
            None => file.display().to_string(),
        };
        let near = tuplet_schema::suggest::did_you_mean(name, names.iter().copied());
        errors.push(format!(
            "{at}: [ts] hot: `{name}` is not a message of the schema; {near}hot names a \
             message by its wire name, as #[tuplet(name = \"...\")] spells it"
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\nerror: "))
    }
}

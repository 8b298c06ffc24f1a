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
/// name is a message of the schema.
pub fn check(config: &Config, schema: &tuplet_schema::ResolvedSchema) -> Result<(), String> {
    for name in config.ts.hot.iter().flatten() {
        if typescript::message_paths(schema, name).is_empty() {
            return Err(format!(
                "[ts] hot in {}: `{name}` is not a message of the schema (hot names a message by its wire name, as #[tuplet(name = \"...\")] spells it)",
                config.base.join(crate::config::FILE_NAME).display()
            ));
        }
    }
    Ok(())
}

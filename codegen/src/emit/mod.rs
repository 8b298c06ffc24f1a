//! Emitters: one file per target behind one trait (as typeshare's `language` module). An
//! emitter turns the resolved IR into files; it never touches the disk (the writer does).

pub mod jsonschema;
pub mod typescript;

use std::collections::BTreeMap;
use std::path::PathBuf;

use tuplet_schema::ResolvedSchema;

use crate::config::Config;

/// One output target.
pub trait Emitter {
    /// The target's name, as `[outputs]` spells it (`jsonschema`).
    fn name(&self) -> &'static str;

    /// Every file of the target: path relative to the output folder (with `/`) -> contents.
    /// Deterministic: the same schema gives the same bytes.
    fn emit(&self, schema: &ResolvedSchema) -> BTreeMap<String, String>;
}

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
        out.push((
            Box::new(typescript::TypeScript { source, package }),
            config.output(dir),
        ));
    }
    out
}

/// Pretty JSON with object keys sorted and a trailing newline, whatever features
/// `serde_json` was built with.
pub fn to_json(value: &serde_json::Value) -> String {
    struct Sorted<'a>(&'a serde_json::Value);
    impl serde::Serialize for Sorted<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{SerializeMap, SerializeSeq};
            match self.0 {
                serde_json::Value::Object(map) => {
                    let sorted: BTreeMap<&String, &serde_json::Value> = map.iter().collect();
                    let mut m = s.serialize_map(Some(sorted.len()))?;
                    for (k, v) in sorted {
                        m.serialize_entry(k, &Sorted(v))?;
                    }
                    m.end()
                }
                serde_json::Value::Array(items) => {
                    let mut seq = s.serialize_seq(Some(items.len()))?;
                    for v in items {
                        seq.serialize_element(&Sorted(v))?;
                    }
                    seq.end()
                }
                other => other.serialize(s),
            }
        }
    }
    let mut text = serde_json::to_string_pretty(&Sorted(value)).expect("JSON values serialize");
    text.push('\n');
    text
}

//! What every emitter shares: the [`Emitter`] trait and the JSON text they write.

use std::collections::BTreeMap;

use tuplet_schema::ResolvedSchema;

/// One output target.
pub trait Emitter {
    /// The target's name, as `[outputs]` spells it (`jsonschema`).
    fn name(&self) -> &'static str;

    /// Every file of the target: path relative to the output folder (with `/`) -> contents.
    /// Deterministic: the same schema gives the same bytes.
    fn emit(&self, schema: &ResolvedSchema) -> BTreeMap<String, String>;
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

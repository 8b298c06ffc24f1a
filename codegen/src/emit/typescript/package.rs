//! The package around the modules: `package.json` (ESM, `exports`, `types`,
//! `"sideEffects": false`), a strict `tsconfig.json`, and the embedded runtime: the
//! hand-written files of `codegen/ts-runtime/` (the wire runtime, value helpers, the codec
//! constant, the dispatcher), each under `src/runtime/` with a header.

use super::common::header;

/// The runtime files: name under `src/runtime/`, the source path it is copied from, text.
const RUNTIME: &[(&str, &str, &str)] = &[
    (
        "checks.ts",
        "codegen/ts-runtime/checks.ts",
        include_str!("../../../ts-runtime/checks.ts"),
    ),
    (
        "delta.ts",
        "codegen/ts-runtime/delta.ts",
        include_str!("../../../ts-runtime/delta.ts"),
    ),
    (
        "delta_entity.ts",
        "codegen/ts-runtime/delta_entity.ts",
        include_str!("../../../ts-runtime/delta_entity.ts"),
    ),
    (
        "delta_list.ts",
        "codegen/ts-runtime/delta_list.ts",
        include_str!("../../../ts-runtime/delta_list.ts"),
    ),
    (
        "delta_mirror.ts",
        "codegen/ts-runtime/delta_mirror.ts",
        include_str!("../../../ts-runtime/delta_mirror.ts"),
    ),
    (
        "delta_ring.ts",
        "codegen/ts-runtime/delta_ring.ts",
        include_str!("../../../ts-runtime/delta_ring.ts"),
    ),
    (
        "delta_tracker.ts",
        "codegen/ts-runtime/delta_tracker.ts",
        include_str!("../../../ts-runtime/delta_tracker.ts"),
    ),
    (
        "errors.ts",
        "codegen/ts-runtime/errors.ts",
        include_str!("../../../ts-runtime/errors.ts"),
    ),
    (
        "fail.ts",
        "codegen/ts-runtime/fail.ts",
        include_str!("../../../ts-runtime/fail.ts"),
    ),
    (
        "floats.ts",
        "codegen/ts-runtime/floats.ts",
        include_str!("../../../ts-runtime/floats.ts"),
    ),
    (
        "format.ts",
        "codegen/ts-runtime/format.ts",
        include_str!("../../../ts-runtime/format.ts"),
    ),
    (
        "index.ts",
        "codegen/ts-runtime/index.ts",
        include_str!("../../../ts-runtime/index.ts"),
    ),
    (
        "limits.ts",
        "codegen/ts-runtime/limits.ts",
        include_str!("../../../ts-runtime/limits.ts"),
    ),
    (
        "playout.ts",
        "codegen/ts-runtime/playout.ts",
        include_str!("../../../ts-runtime/playout.ts"),
    ),
    (
        "quant.ts",
        "codegen/ts-runtime/quant.ts",
        include_str!("../../../ts-runtime/quant.ts"),
    ),
    (
        "reader.ts",
        "codegen/ts-runtime/reader.ts",
        include_str!("../../../ts-runtime/reader.ts"),
    ),
    (
        "reader_num.ts",
        "codegen/ts-runtime/reader_num.ts",
        include_str!("../../../ts-runtime/reader_num.ts"),
    ),
    (
        "reader_skip.ts",
        "codegen/ts-runtime/reader_skip.ts",
        include_str!("../../../ts-runtime/reader_skip.ts"),
    ),
    (
        "offset.ts",
        "codegen/ts-runtime/offset.ts",
        include_str!("../../../ts-runtime/offset.ts"),
    ),
    (
        "predict.ts",
        "codegen/ts-runtime/predict.ts",
        include_str!("../../../ts-runtime/predict.ts"),
    ),
    (
        "rewind.ts",
        "codegen/ts-runtime/rewind.ts",
        include_str!("../../../ts-runtime/rewind.ts"),
    ),
    (
        "reconcile.ts",
        "codegen/ts-runtime/reconcile.ts",
        include_str!("../../../ts-runtime/reconcile.ts"),
    ),
    (
        "utf8.ts",
        "codegen/ts-runtime/utf8.ts",
        include_str!("../../../ts-runtime/utf8.ts"),
    ),
    (
        "writer.ts",
        "codegen/ts-runtime/writer.ts",
        include_str!("../../../ts-runtime/writer.ts"),
    ),
    (
        "values.ts",
        "codegen/ts-runtime/values.ts",
        include_str!("../../../ts-runtime/values.ts"),
    ),
    (
        "table.ts",
        "codegen/ts-runtime/table.ts",
        include_str!("../../../ts-runtime/table.ts"),
    ),
    (
        "named.ts",
        "codegen/ts-runtime/named.ts",
        include_str!("../../../ts-runtime/named.ts"),
    ),
    (
        "wire_value.ts",
        "codegen/ts-runtime/wire_value.ts",
        include_str!("../../../ts-runtime/wire_value.ts"),
    ),
    (
        "codec.ts",
        "codegen/ts-runtime/codec.ts",
        include_str!("../../../ts-runtime/codec.ts"),
    ),
    (
        "dispatcher.ts",
        "codegen/ts-runtime/dispatcher.ts",
        include_str!("../../../ts-runtime/dispatcher.ts"),
    ),
    (
        "server_dispatcher.ts",
        "codegen/ts-runtime/server_dispatcher.ts",
        include_str!("../../../ts-runtime/server_dispatcher.ts"),
    ),
    (
        "support.ts",
        "codegen/ts-runtime/support.ts",
        include_str!("../../../ts-runtime/support.ts"),
    ),
    (
        "interp.ts",
        "codegen/ts-runtime/interp.ts",
        include_str!("../../../ts-runtime/interp.ts"),
    ),
    (
        "interp_ring.ts",
        "codegen/ts-runtime/interp_ring.ts",
        include_str!("../../../ts-runtime/interp_ring.ts"),
    ),
    (
        "interp_draw.ts",
        "codegen/ts-runtime/interp_draw.ts",
        include_str!("../../../ts-runtime/interp_draw.ts"),
    ),
    (
        "render_clock.ts",
        "codegen/ts-runtime/render_clock.ts",
        include_str!("../../../ts-runtime/render_clock.ts"),
    ),
    (
        "settings.ts",
        "codegen/ts-runtime/settings.ts",
        include_str!("../../../ts-runtime/settings.ts"),
    ),
    (
        "timing.ts",
        "codegen/ts-runtime/timing.ts",
        include_str!("../../../ts-runtime/timing.ts"),
    ),
    (
        "pool.ts",
        "codegen/ts-runtime/pool.ts",
        include_str!("../../../ts-runtime/pool.ts"),
    ),
    (
        "curves.ts",
        "codegen/ts-runtime/curves.ts",
        include_str!("../../../ts-runtime/curves.ts"),
    ),
    (
        "transport.ts",
        "codegen/ts-runtime/transport.ts",
        include_str!("../../../ts-runtime/transport.ts"),
    ),
    (
        "interp_adapter.ts",
        "codegen/ts-runtime/interp_adapter.ts",
        include_str!("../../../ts-runtime/interp_adapter.ts"),
    ),
];

/// Every name the embedded runtime exports (generated modules import from it).
pub fn runtime_exports() -> std::collections::BTreeSet<String> {
    RUNTIME
        .iter()
        .flat_map(|(_, _, text)| super::names::exports(text))
        .collect()
}

/// What `package.json` says about the package (`[ts]` in `tuplet.toml`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// The npm name.
    pub name: String,
    /// The version.
    pub version: String,
    /// The description.
    pub description: String,
    /// `"private": true`.
    pub private: bool,
    /// The package ships `dist/` (JavaScript and `.d.ts`, compiled from `src/` by
    /// [`crate::js`]): `exports` point there, and the tsconfig emits there.
    pub js: bool,
}

/// The entry points: `exports` key, module under `src/` (without extension).
const ENTRIES: &[(&str, &str)] = &[
    (".", "index"),
    ("./c2s", "c2s"),
    ("./s2c", "s2c"),
    ("./runtime", "runtime/support"),
];

/// A JSON string literal.
fn json(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

/// Every package-level file: relative path -> contents.
pub fn files(source: &str, package: &Package) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, from, text) in RUNTIME {
        out.push((
            format!("src/runtime/{name}"),
            format!("{}\n{text}", header(from)),
        ));
    }
    out.push(("package.json".into(), package_json(source, package)));
    out.push(("tsconfig.json".into(), tsconfig(package.js)));
    out
}

fn package_json(source: &str, p: &Package) -> String {
    let (dir, types, js) = if p.js {
        ("dist", "d.ts", "js")
    } else {
        ("src", "ts", "ts")
    };
    let mut s = format!(
        "{{\n  \"//\": {},\n  \"name\": {},\n  \"version\": {},\n  \"description\": {},\n",
        json(&format!(
            "Generated by tuplet from {source}: DO NOT EDIT. Regenerate with `tuplet gen`."
        )),
        json(&p.name),
        json(&p.version),
        json(&p.description),
    );
    if p.private {
        s.push_str("  \"private\": true,\n");
    }
    s.push_str("  \"type\": \"module\",\n  \"sideEffects\": false,\n");
    s.push_str(&format!(
        "  \"types\": \"./{dir}/index.{types}\",\n  \"exports\": {{\n"
    ));
    for (i, (key, module)) in ENTRIES.iter().enumerate() {
        let comma = if i + 1 < ENTRIES.len() { "," } else { "" };
        s.push_str(&format!(
            "    \"{key}\": {{\n      \"types\": \"./{dir}/{module}.{types}\",\n      \"default\": \"./{dir}/{module}.{js}\"\n    }}{comma}\n"
        ));
    }
    s.push_str("  }\n}\n");
    s
}

fn tsconfig(js: bool) -> String {
    let emit = if js {
        r#"    "rootDir": "src",
    "outDir": "dist",
    "declaration": true,
    "newLine": "lf""#
    } else {
        r#"    "noEmit": true"#
    };
    format!(
        r#"{{
  "compilerOptions": {{
    "target": "ES2022",
    "module": "ES2022",
    "moduleResolution": "bundler",
    "lib": ["ES2022"],
    "types": [],
    "strict": true,
    "noUncheckedIndexedAccess": true,
    "exactOptionalPropertyTypes": true,
    "noUnusedLocals": true,
    "noUnusedParameters": true,
    "verbatimModuleSyntax": true,
    "isolatedModules": true,
{emit}
  }},
  "include": ["src/**/*.ts"]
}}
"#
    )
}

#[cfg(test)]
mod tests {
    /// The TypeScript runtime's copy of the variant-tag bound is the plan's.
    #[test]
    fn the_runtime_tag_bound_is_the_plans() {
        let limits = include_str!("../../../ts-runtime/limits.ts");
        let line = format!("export const TAG_MAX = {};", tuplet_schema::plan::TAG_MAX);
        assert!(
            limits.contains(&line),
            "ts-runtime/limits.ts lacks `{line}`"
        );
    }
}

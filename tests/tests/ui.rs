//! Compile errors of the derives: one clear error at the offending key, no cascade.
//! Regenerate the expected output with `TRYBUILD=overwrite`, then read every `.stderr`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/**/*.rs");
}

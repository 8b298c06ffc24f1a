//! The `tuplet` command: see `tuplet_codegen::cli`.

fn main() -> std::process::ExitCode {
    tuplet_codegen::cli::main()
}

//! The `tuplet` command: see `tuplet_codegen::cli`.

use std::panic;
use std::process::ExitCode;

/// Whether a panic is `print!` failing on a closed pipe (`tuplet sizes | head`).
fn is_broken_pipe(payload: &(dyn std::any::Any + Send)) -> bool {
    let text = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("");
    text.contains("Broken pipe")
}

fn main() -> ExitCode {
    // A reader that stops early (`| head`) ends the output; that is not an error to report.
    let default = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if !is_broken_pipe(info.payload()) {
            default(info);
        }
    }));
    match panic::catch_unwind(tuplet_codegen::cli::main) {
        Ok(code) => code,
        Err(payload) if is_broken_pipe(payload.as_ref()) => ExitCode::SUCCESS,
        Err(payload) => panic::resume_unwind(payload),
    }
}

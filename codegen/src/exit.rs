//! The one exit-status type every `tuplet` command returns.
//!
//! Three statuses, the same for every command: 0 done; 1 the command ran and found a problem
//! in what it checked (`gen --check`: outputs stale; `lock`/`compat`: a change breaks peers
//! or an acceptance matches nothing; `decode`/`encode`: the payload or value is invalid);
//! 2 it could not run (bad arguments, an unreadable or invalid `tuplet.toml`, a schema the
//! loader rejects, an I/O error).

use std::process::ExitCode;

/// A command's exit status. Ordered by severity, so `a.max(b)` is the worse of two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Exit {
    /// 0: done.
    Ok = 0,
    /// 1: what was checked is not right (stale outputs, a break, an invalid payload).
    Failed = 1,
    /// 2: the command could not run (arguments, config, schema, I/O).
    BadInput = 2,
}

impl Exit {
    /// The process exit code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// [`Exit::Ok`] when `ok`, else [`Exit::Failed`].
    pub fn failed_unless(ok: bool) -> Exit {
        if ok {
            Exit::Ok
        } else {
            Exit::Failed
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e.code())
    }
}

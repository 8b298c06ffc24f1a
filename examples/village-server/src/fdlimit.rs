//! The startup check of the process's file-descriptor limit against the configured caps:
//! every connection is a descriptor, every room's tick clock another (a timerfd), and the
//! listener, the store and the runtime a few more. A limit below that would fail at some
//! accept under load, long after startup; the server says so at once instead.

use crate::config::Config;

/// Descriptors the process needs besides connections and rooms: the listener, stdio, the
/// runtime's epoll and wakers, the store's file, its journal and its reader.
pub(crate) const BASE: u64 = 64;

/// Descriptors the caps of `cfg` can hold at once.
pub(crate) fn needed(cfg: &Config) -> u64 {
    let rooms = cfg.max_rooms + cfg.room_names.len().max(1);
    (cfg.max_connections + cfg.max_before_hello + rooms) as u64 + BASE
}

/// Raises the soft descriptor limit to what `cfg` needs when the hard limit allows, and
/// errs with what to do when it does not.
#[cfg(target_os = "linux")]
pub(crate) fn check(cfg: &Config) -> std::io::Result<()> {
    let need = needed(cfg);
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return Ok(());
    }
    if lim.rlim_cur >= need {
        return Ok(());
    }
    if lim.rlim_max >= need {
        let raised = libc::rlimit {
            rlim_cur: need,
            rlim_max: lim.rlim_max,
        };
        // SAFETY: setrlimit reads the struct it is given.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            return Ok(());
        }
    }
    Err(std::io::Error::other(format!(
        "the file-descriptor limit is {} (hard {}), but the configured caps can hold {need} \
         descriptors (max_connections {} + max_before_hello {} + rooms {} + {BASE}): raise \
         it (`ulimit -n {need}`, or LimitNOFILE= in a systemd unit) or lower the caps \
         (--max-connections, --max-rooms)",
        lim.rlim_cur,
        lim.rlim_max,
        cfg.max_connections,
        cfg.max_before_hello,
        cfg.max_rooms + cfg.room_names.len().max(1),
    )))
}

/// Elsewhere the limit is not checked.
#[cfg(not(target_os = "linux"))]
pub(crate) fn check(_cfg: &Config) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_need_more_than_1024() {
        // 1000 connections + 256 before hello + 64 rooms + village + 64: past a common
        // `ulimit -n 1024`, which the check raises when the hard limit allows.
        assert_eq!(needed(&Config::default()), 1000 + 256 + 65 + 64);
    }
}

//! Memory given back after a crowd leaves. glibc's allocator keeps the heap pages that
//! connections freed when live allocations (other players', the rooms') sit between them,
//! so RSS stayed near its peak after 1,000 clients left (57 MB with a 40-player room in,
//! against 21 MB before them; `scripts/bench hostile`, the deflate row). When the number of
//! connections has fallen by `TRIM_AFTER` since the last look, `malloc_trim(0)` hands the
//! free pages anywhere in the heap back to the kernel (28 MB in that case), off the
//! runtime's threads.

use std::sync::{Arc, Weak};
use std::time::Duration;

use crate::shared::Shared;

/// How often the connection count is read.
const EVERY: Duration = Duration::from_secs(1);
/// Connections that must have ended since the highest count seen before memory is given
/// back: a crowd leaving, not the churn of a few players.
const TRIM_AFTER: usize = 64;

/// Watches `shared`'s connection count until the server is gone.
pub(crate) fn spawn(shared: &Arc<Shared>) {
    let shared: Weak<Shared> = Arc::downgrade(shared);
    tokio::spawn(async move {
        let mut high = 0usize;
        let mut every = tokio::time::interval(EVERY);
        loop {
            every.tick().await;
            let Some(now) = shared.upgrade().map(|s| s.connections()) else {
                return;
            };
            high = high.max(now);
            if high - now >= TRIM_AFTER {
                high = now;
                let _ = tokio::task::spawn_blocking(give_back).await;
            }
        }
    });
}

/// Returns the allocator's free pages to the kernel, where the allocator is glibc's.
fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only takes the allocator's own locks; any thread may call it.
    unsafe {
        libc::malloc_trim(0);
    }
}

//! The room's tick clock: a dedicated OS thread that sleeps until each deadline and hands
//! it to the room. tokio's own timer rounds deadlines up to whole milliseconds and fires
//! only when the runtime polls its timer wheel, which adds up to a millisecond to every
//! tick; a thread sleeping on the exact deadline wakes within tens of microseconds, and the
//! room measures its lateness from that deadline.

use std::time::{Duration, Instant};

use tokio::sync::mpsc;

/// Ticks every `period` from now on: each message is the tick's deadline. Ticks the room
/// has not taken yet queue up (a late room runs them back to back, each measured late);
/// the thread ends at the first tick after the receiver is dropped.
pub(crate) fn start(period: Duration) -> mpsc::UnboundedReceiver<Instant> {
    let (tx, rx) = mpsc::unbounded_channel();
    let period = period.max(Duration::from_millis(1));
    let spawned = std::thread::Builder::new()
        .name("room-tick".into())
        .spawn(move || {
            let mut next = Instant::now() + period;
            loop {
                if let Some(wait) = next.checked_duration_since(Instant::now()) {
                    std::thread::sleep(wait);
                }
                if tx.send(next).is_err() {
                    return;
                }
                next += period;
            }
        });
    if let Err(e) = spawned {
        eprintln!("village-server: cannot start a tick thread: {e}");
    }
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_are_a_period_apart_and_never_early() {
        let period = Duration::from_millis(5);
        let mut rx = start(period);
        let first = rx.blocking_recv().expect("a tick");
        assert!(Instant::now() >= first);
        let mut last = first;
        for _ in 0..4 {
            let at = rx.blocking_recv().expect("a tick");
            assert_eq!(at - last, period);
            assert!(Instant::now() >= at, "handed over before its deadline");
            last = at;
        }
    }
}

//! The attacks of a hostile client, each over real sockets on loopback against a server of
//! its own, bounded in count and time (the long versions, with a 40-bot room beside them
//! and the server's RSS and CPU, are `scripts/bench hostile`). Each checks that the attack
//! is refused or bounded, that the counters name what was dropped, and that a normal
//! player beside it is served.
//!
//! One file a concern: the budget before hello and room paths (`budget.rs`), tokens,
//! messages, floods, slow readers, closing and the drain, guests; `support.rs` holds what
//! they share.

mod budget;
mod closing;
mod floods;
mod guests;
mod messages;
mod slow_readers;
mod support;
mod tokens;

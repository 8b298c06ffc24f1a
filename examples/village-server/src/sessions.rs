//! What sessions share across rooms: the player store, the key resume tokens are signed
//! with, and which room holds each signed-in account's one live session.
//!
//! One live session per account: a connection that says hello with an account claims it
//! here (the latest claim wins) before its room sees it. A room holding an older session
//! of that account is told to end it (saved first, through the room's one ending path)
//! and answers once it has, so the newer session loads the state the older one saved. A
//! room that gets a session whose claim was taken meanwhile by a later hello refuses it.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use tokio::sync::mpsc::WeakSender;

use crate::store::Store;

/// Sessions' shared state; `E` is what a room's channel carries (the room's event).
pub(crate) struct Sessions<E> {
    /// Saved player state.
    pub store: Store,
    /// Signs resume tokens: 32 random bytes drawn at start, so only this process mints or
    /// accepts its resume tokens (its sessions live nowhere else), whoever else holds the
    /// join-token key.
    pub resume_key: [u8; 32],
    /// Account to the claim on it: the room id and its channel.
    accounts: Mutex<HashMap<u64, Claim<E>>>,
    /// Signed-in players' names ([`crate::names::key`]) to their accounts, every one the
    /// store has kept and every one since start: no guest takes one, nor anything that
    /// looks like one.
    names: Mutex<HashMap<String, u64>>,
}

/// Which room holds (or is about to hold) an account's session.
pub(crate) struct Claim<E> {
    /// The room's id (unique per room created).
    pub room: u64,
    /// Each claim's own number, so an older claim never removes a newer one.
    pub ticket: u64,
    /// The room's channel, to tell it to end the session.
    pub tx: WeakSender<E>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<E> Sessions<E> {
    /// No session yet; resume tokens under a fresh random key; the names the store keeps
    /// reserved (read from its file now).
    pub fn new(store: Store) -> Sessions<E> {
        let names = store.names().into_iter().collect();
        let mut resume_key = [0u8; 32];
        getrandom::fill(&mut resume_key)
            .expect("village-server: the operating system's random source failed");
        Sessions {
            store,
            resume_key,
            accounts: Mutex::default(),
            names: Mutex::new(names),
        }
    }

    /// Claims `account` for room `room`: returns the claim it replaces, if another room
    /// held it, and this claim's ticket.
    pub fn claim(&self, account: u64, room: u64, tx: WeakSender<E>) -> (Option<Claim<E>>, u64) {
        let ticket = random_u64();
        let previous = lock(&self.accounts).insert(account, Claim { room, ticket, tx });
        (previous.filter(|c| c.room != room), ticket)
    }

    /// Whether `ticket` is still the account's claim.
    pub fn holds(&self, account: u64, ticket: u64) -> bool {
        lock(&self.accounts)
            .get(&account)
            .is_some_and(|c| c.ticket == ticket)
    }

    /// Gives up `ticket`'s claim on `account`, if it is still the current one.
    pub fn release(&self, account: u64, ticket: u64) {
        let mut accounts = lock(&self.accounts);
        if accounts.get(&account).is_some_and(|c| c.ticket == ticket) {
            accounts.remove(&account);
        }
    }
}

impl<E> Sessions<E> {
    /// Reserves the name with key `key` for `account`, in the store too (when it is new
    /// or was another account's).
    pub fn reserve(&self, key: String, account: u64) {
        let mut names = lock(&self.names);
        if names.get(&key) != Some(&account) {
            self.store.reserve_name(&key, account);
            names.insert(key, account);
        }
    }

    /// Whether a signed-in player's name has key `key`.
    pub fn is_reserved(&self, key: &str) -> bool {
        lock(&self.names).contains_key(key)
    }
}

/// A random 64-bit number from the operating system.
pub(crate) fn random_u64() -> u64 {
    let mut raw = [0u8; 8];
    getrandom::fill(&mut raw).expect("village-server: the operating system's random source failed");
    u64::from_le_bytes(raw)
}

//! What every connection shares: the settings and the rooms, each room created on the first
//! connection to its path. The listener (`server.rs`) makes one; each connection
//! (`conn.rs`) finds its room through it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::mpsc;

use crate::config::Config;
use crate::room::{Event, Room};

/// What every connection shares: the settings and the rooms.
pub(crate) struct Shared {
    pub config: Arc<Config>,
    started: Instant,
    rooms: Mutex<HashMap<String, mpsc::Sender<Event>>>,
}

impl Shared {
    /// The settings, no room yet.
    pub fn new(config: Config) -> Self {
        Shared {
            config: Arc::new(config),
            started: Instant::now(),
            rooms: Mutex::new(HashMap::new()),
        }
    }

    /// The room for a request path, created on first use.
    pub fn room(&self, path: &str) -> mpsc::Sender<Event> {
        let name = match path.trim_matches('/') {
            "" => "village",
            name => name,
        };
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        rooms
            .entry(name.to_string())
            .or_insert_with(|| {
                let (tx, rx) = mpsc::channel(4096);
                let room = Room::new(self.config.clone(), self.started);
                tokio::spawn(room.run(rx));
                tx
            })
            .clone()
    }
}

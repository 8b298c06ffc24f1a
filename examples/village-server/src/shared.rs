//! What every connection shares: the settings, the rooms (each created on the first
//! connection to an allowed name and removed by itself when it stops), the connection
//! accounting and the counters. The listener (`server.rs`) makes one; each connection
//! (`conn/`) finds its room through it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use tokio::sync::{mpsc, Notify};

use crate::before_hello::{Budget, Place, Refused};
use crate::config::Config;
use crate::counters::{Counter, Counters, FrameDrops};
use crate::guests::Guests;
use crate::presence::Presence;
use crate::room::{Event, Room, RoomCtx};
use crate::sessions::Sessions;
use crate::store::Store;

/// A room as connections see it: its channel and its frame-drop counters.
#[derive(Clone)]
pub(crate) struct RoomHandle {
    /// Unique per room created, so a stopping room removes itself and not a successor.
    pub id: u64,
    pub tx: mpsc::Sender<Event>,
    pub drops: Arc<FrameDrops>,
}

/// The open rooms by name. Shared with each room, which removes itself when it stops.
pub(crate) type Rooms = Arc<Mutex<HashMap<String, RoomHandle>>>;

/// Why a handshake gets no room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoRoom {
    /// The path names no room the configuration allows: 404.
    NotAllowed,
    /// `max_rooms` are open: 503.
    Full,
    /// The server is draining: 503.
    Draining,
}

/// What every connection shares.
pub(crate) struct Shared {
    pub config: Arc<Config>,
    started: Instant,
    rooms: Rooms,
    pub counters: Arc<Counters>,
    /// Who is playing, and the rooms' tick count.
    pub presence: Arc<Presence>,
    per_ip: Mutex<HashMap<IpAddr, usize>>,
    connections: AtomicUsize,
    /// Connections yet to say hello, by address and overall (`max_before_hello`).
    before_hello: Mutex<Budget>,
    /// Frames dropped before a connection's hello (it has no room yet); every room's
    /// report adds them to its own.
    pub pre_hello_drops: Arc<FrameDrops>,
    /// Connections compressing now (`max_deflate`).
    pub deflating: Arc<AtomicUsize>,
    /// Set by [`crate::Server::drain`]: no new connection, no new room.
    pub draining: AtomicBool,
    /// The store, the resume key and each account's one session.
    pub sessions: Arc<Sessions<Event>>,
    /// Guests server-wide, and whether a new prefix room is wanted.
    pub guests: Arc<Guests>,
    /// The WebTransport port and certificate hash (hex), once its listener runs.
    webtransport: std::sync::OnceLock<(u16, String)>,
}

static NEXT_ROOM: AtomicU64 = AtomicU64::new(1);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// The settings, no room yet; the store opened (its file created if absent).
    pub fn new(config: Config) -> std::io::Result<Self> {
        let counters = Arc::new(Counters::default());
        let store = Store::open(config.store.as_deref(), counters.clone()).map_err(|e| {
            std::io::Error::other(format!(
                "the player store {}: {e}",
                config
                    .store
                    .as_deref()
                    .map_or("(memory)".into(), |p| p.display().to_string())
            ))
        })?;
        Ok(Shared {
            sessions: Arc::new(Sessions::new(store)),
            config: Arc::new(config),
            started: Instant::now(),
            rooms: Arc::new(Mutex::new(HashMap::new())),
            counters,
            presence: Arc::new(Presence::default()),
            per_ip: Mutex::new(HashMap::new()),
            connections: AtomicUsize::new(0),
            before_hello: Mutex::new(Budget::default()),
            pre_hello_drops: Arc::new(FrameDrops::default()),
            deflating: Arc::new(AtomicUsize::new(0)),
            draining: AtomicBool::new(false),
            guests: Arc::default(),
            webtransport: std::sync::OnceLock::new(),
        })
    }

    /// Records where WebTransport listens and its certificate's hash, for `GET /webtransport`.
    pub fn set_webtransport(&self, port: u16, cert_hash: String) {
        let _ = self.webtransport.set((port, cert_hash));
    }

    /// The answer to `GET /webtransport`: JSON with the port and certificate hash, `None`
    /// when WebTransport is off.
    pub fn webtransport_info(&self) -> Option<String> {
        let (port, hash) = self.webtransport.get()?;
        Some(format!(
            "{{\"port\":{port},\"certificateHash\":\"{hash}\"}}"
        ))
    }

    /// Whether the upgrade for `path` may go on: a room the configuration allows, open or
    /// able to open now. Nothing is created: a room opens at its first hello.
    pub fn may_open(&self, path: &str) -> Result<(), NoRoom> {
        let name = self.config.room_name(path).ok_or(NoRoom::NotAllowed)?;
        let mut rooms = lock(&self.rooms);
        if rooms.get(name).is_some_and(|r| !r.tx.is_closed()) {
            return Ok(());
        }
        if self.draining.load(Ordering::Relaxed) {
            return Err(NoRoom::Draining);
        }
        rooms.retain(|_, r| !r.tx.is_closed());
        if !self.is_named(name) && self.prefix_rooms(&rooms) >= self.config.max_rooms {
            // Empty rooms stop at their next tick, and guests in a room with no
            // connection end: the next try finds a place.
            self.guests.set_room_wanted(true);
            return Err(NoRoom::Full);
        }
        Ok(())
    }

    /// Whether `name` is one of the configured exact names (`village`): those rooms are
    /// always available, outside `max_rooms`, so rooms opened by prefix cannot crowd them out.
    fn is_named(&self, name: &str) -> bool {
        name == "village" || self.config.room_names.iter().any(|n| n == name)
    }

    /// Rooms open by prefix (what `max_rooms` caps).
    fn prefix_rooms(&self, rooms: &HashMap<String, RoomHandle>) -> usize {
        rooms.keys().filter(|n| !self.is_named(n)).count()
    }

    /// The room a request path names, created on first use when allowed (at a client's
    /// hello, never at the upgrade).
    pub fn room(&self, path: &str) -> Result<RoomHandle, NoRoom> {
        let name = self.config.room_name(path).ok_or(NoRoom::NotAllowed)?;
        let mut rooms = lock(&self.rooms);
        if let Some(room) = rooms.get(name).filter(|r| !r.tx.is_closed()) {
            return Ok(room.clone());
        }
        if self.draining.load(Ordering::Relaxed) {
            return Err(NoRoom::Draining);
        }
        rooms.retain(|_, r| !r.tx.is_closed());
        if !self.is_named(name) && self.prefix_rooms(&rooms) >= self.config.max_rooms {
            // Empty rooms stop at their next tick, and guests in a room with no
            // connection end: the next try finds a place.
            self.guests.set_room_wanted(true);
            return Err(NoRoom::Full);
        }
        if !self.is_named(name) && self.prefix_rooms(&rooms) + 1 < self.config.max_rooms {
            self.guests.set_room_wanted(false);
        }
        let (tx, rx) = mpsc::channel(4096);
        let drops = Arc::new(FrameDrops::default());
        let id = NEXT_ROOM.fetch_add(1, Ordering::Relaxed);
        let room = Room::new(
            self.config.clone(),
            self.started,
            drops.clone(),
            self.counters.clone(),
            self.presence.clone(),
            RoomCtx {
                name: name.to_string(),
                sessions: self.sessions.clone(),
                pre_hello: self.pre_hello_drops.clone(),
                guests: self.guests.clone(),
            },
        );
        let handle = RoomHandle { id, tx, drops };
        rooms.insert(name.to_string(), handle.clone());
        let registry = self.rooms.clone();
        let name = name.to_string();
        let counters = self.counters.clone();
        tokio::spawn(async move {
            room.run(rx, |rx| remove_if_idle(&registry, &name, id, rx))
                .await;
            counters.add(Counter::RoomsStopped);
        });
        Ok(handle)
    }

    /// Every open room's channel (for the drain notice).
    pub fn room_senders(&self) -> Vec<mpsc::Sender<Event>> {
        lock(&self.rooms).values().map(|r| r.tx.clone()).collect()
    }

    /// Rooms open now.
    pub fn room_count(&self) -> usize {
        lock(&self.rooms)
            .values()
            .filter(|r| !r.tx.is_closed())
            .count()
    }

    /// Takes a place in the budget of connections yet to say hello, for `ip`, or says
    /// which counter records the refusal. With the budget full, the newcomer takes the
    /// oldest place, whoever holds it (see [`Budget::admit`]); that connection's
    /// [`HelloSlot::evicted`] fires. A trusted proxy's connections are outside the
    /// per-address cap until their client is known ([`HelloSlot::rekey`]), and evictable.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<HelloSlot, Counter> {
        let cfg = &self.config;
        let ip = self.counted_as(ip);
        let mut budget = lock(&self.before_hello);
        let full = budget.total() >= cfg.max_before_hello;
        let now = std::time::Instant::now();
        let place = budget
            .admit(
                ip,
                now,
                cfg.max_before_hello,
                cfg.max_before_hello_per_ip,
                |a| cfg.is_trusted_proxy(a),
            )
            .map_err(|e| match e {
                Refused::Cooling => Counter::RefusedEvictedRecently,
                Refused::PerIp | Refused::Full => Counter::RefusedBeforeHello,
            })?;
        drop(budget);
        if full {
            self.counters.add(Counter::EvictedBeforeHello);
        }
        Ok(HelloSlot {
            shared: self.clone(),
            ip,
            place,
        })
    }

    /// A connection said hello: it takes a player's connection slot (under
    /// `max_connections` and `max_per_ip`) and gives back its place before hello.
    pub fn promote(self: &Arc<Self>, slot: HelloSlot) -> Result<ConnSlot, Counter> {
        let ip = slot.ip;
        drop(slot);
        if self.connections.load(Ordering::Relaxed) >= self.config.max_connections {
            return Err(Counter::RefusedTotal);
        }
        let mut per_ip = lock(&self.per_ip);
        let n = per_ip.entry(ip).or_insert(0);
        if *n >= self.config.max_per_ip {
            return Err(Counter::RefusedPerIp);
        }
        *n += 1;
        self.connections.fetch_add(1, Ordering::Relaxed);
        Ok(ConnSlot {
            shared: self.clone(),
            ip,
        })
    }

    /// The address the per-address caps count `ip` under ([`crate::proxy::counted_as`]); a
    /// trusted proxy's own address as it is (it is exempt from them).
    pub fn counted_as(&self, ip: IpAddr) -> IpAddr {
        if self.config.is_trusted_proxy(ip) {
            ip
        } else {
            crate::proxy::counted_as(ip)
        }
    }

    /// Connections open now: players' and those yet to say hello.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::Relaxed) + lock(&self.before_hello).total()
    }
}

/// A connection yet to say hello; gives its place back when dropped.
pub(crate) struct HelloSlot {
    shared: Arc<Shared>,
    ip: IpAddr,
    place: Place,
}

impl HelloSlot {
    /// Counts this connection under `client` from now on (the address a trusted proxy
    /// named), within `client`'s own budget before hello; `Err` when that is spent or the
    /// place was taken by a newcomer meanwhile.
    pub fn rekey(&mut self, client: IpAddr) -> Result<(), Counter> {
        let client = self.shared.counted_as(client);
        if client == self.ip {
            return Ok(());
        }
        let cfg = &self.shared.config;
        lock(&self.shared.before_hello)
            .rekey(client, self.place.id, cfg.max_before_hello_per_ip, |a| {
                cfg.is_trusted_proxy(a)
            })
            .map_err(|_| Counter::RefusedBeforeHello)?;
        self.ip = client;
        Ok(())
    }

    /// Fires when a newcomer took this connection's place (the budget was full and this
    /// was the oldest): the connection is to close.
    pub fn evicted(&self) -> Arc<Notify> {
        self.place.evicted.clone()
    }
}

impl Drop for HelloSlot {
    fn drop(&mut self) {
        lock(&self.shared.before_hello).release(self.place.id);
    }
}

/// One admitted connection; gives its slot back when dropped.
pub(crate) struct ConnSlot {
    shared: Arc<Shared>,
    ip: IpAddr,
}

impl Drop for ConnSlot {
    fn drop(&mut self) {
        let mut per_ip = lock(&self.shared.per_ip);
        if let Some(n) = per_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                per_ip.remove(&self.ip);
            }
        }
        self.shared.connections.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Removes room `name` from `rooms` if room `id` is still the one of that name and
/// nothing is queued for it, under the registry's lock, and closes its channel: a
/// connection that found the room before this sees the channel closed and asks for the
/// room again. True when stopped.
pub(crate) fn remove_if_idle(
    rooms: &Rooms,
    name: &str,
    id: u64,
    rx: &mut mpsc::Receiver<Event>,
) -> bool {
    let mut rooms = lock(rooms);
    if !rx.is_empty() {
        return false;
    }
    if rooms.get(name).is_some_and(|r| r.id == id) {
        rooms.remove(name);
    }
    rx.close();
    true
}

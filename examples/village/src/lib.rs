//! The village protocol: the reference protocol of tuplet.
//!
//! One shared 3D village world ("Solo World"): a single room of up to 40 players, a server
//! that relays typed messages. Each module is one feature area (one handler file on the
//! server) and declares the messages of both directions; `dispatch` gathers them into one
//! enum per direction. Ids are allocated in blocks per area (see README.md) so they stay
//! stable as areas grow.
//!
//! Units: world positions are metres, quantized to centimetres on the wire; headings are
//! radians, quantized to milliradians; times are milliseconds since the Unix epoch (`u64`)
//! unless a field says otherwise; session ids are Colyseus' 9-character ids.

pub mod common;
pub mod dispatch;

/// The protocol revision these declarations describe, which a client sends in
/// `session:hello`'s `protocol`: 2, the compact tuple shapes (revision 1 clients get the named
/// maps). The generated TypeScript package exports it as `PROTOCOL_VERSION`.
pub const PROTOCOL_VERSION: u16 = 2;

pub mod achievements;
pub mod admin;
pub mod bank;
pub mod birds;
pub mod boat;
pub mod calendar;
pub mod camera;
pub mod chat;
pub mod coins;
pub mod collectibles;
pub mod cooking;
pub mod crafting;
pub mod daily;
pub mod daynight;
pub mod diag;
pub mod doors;
pub mod effects;
pub mod emote;
pub mod ferry;
pub mod fireworks;
pub mod fishing;
pub mod friends;
pub mod garden;
pub mod horse;
pub mod housing;
pub mod input;
pub mod inventory;
pub mod leaderboard;
pub mod mail;
pub mod markers;
pub mod minigames;
pub mod moderation;
pub mod music;
pub mod notices;
pub mod npc;
pub mod party;
pub mod pet;
pub mod photo;
pub mod player;
pub mod props;
pub mod quest;
pub mod seating;
pub mod session;
pub mod settings;
pub mod shop;
pub mod snowball;
pub mod swim;
pub mod teleport;
pub mod trade;
pub mod tutorial;
pub mod vehicle;
pub mod voice;
pub mod walk;
pub mod wardrobe;
pub mod watergun;
pub mod weather;
pub mod world;
pub mod zones;

//! A client's frames in the room: the envelope decoded by the derived codecs, `player:move`
//! on its own fast path, every other message dispatched with its sender's rights checked.

use std::sync::Arc;
use std::time::Instant;

use tuplet::wire::Reader;
use tuplet::{Dispatch, Message, Wire};
use village::chat::{Channel, ChatLine};
use village::common::PlayerRef;
use village::diag::DiagPong;
use village::dispatch::{ClientMessage, ServerMessage};
use village::emote::EmoteShown;
use village::fishing::{FishingCastShown, FishingCatch, Water};
use village::player::PlayerMove;
use village::watergun::WatergunSprayShown;

use crate::token::Claims;

use super::session_end::End;
use super::state::{now_ms, Room};

/// Why a valid message was still not handled (counted with the drops).
type Refused = &'static str;

impl Room {
    pub(super) fn on_input(&mut self, conn: u64, bytes: &[u8]) {
        let t0 = Instant::now();
        let Some(idx) = self.slot_of(conn) else {
            return;
        };
        let mut r = Reader::new(bytes);
        let id = match r.read_u64(0, u64::from(u32::MAX)) {
            Ok(id) => id as u32,
            Err(e) => return self.drop_input("(envelope)", e.code().as_str(), bytes.len()),
        };
        if id == PlayerMove::ID {
            return self.on_move_input(idx, &mut r, bytes.len(), t0);
        }
        let msg = ClientMessage::decode_by_id(id, &mut r).and_then(|m| r.finish().map(|()| m));
        let msg = match msg {
            Ok(msg) => msg,
            Err(e) => return self.drop_input(name_of(id), e.code().as_str(), bytes.len()),
        };
        self.meter_in.record_in(&msg, bytes.len());
        let is_move = matches!(msg, ClientMessage::PlayerMove(_));
        match self.handle(idx, msg, t0) {
            Ok(()) => {
                self.stats.accepted += 1;
                if is_move {
                    self.stats.record_move(t0.elapsed());
                }
            }
            Err(code) => self.stats.record_drop(name_of(id), code),
        }
    }

    /// `player:move`, the hot message, straight to its handler: the same derived decode and
    /// checks as through [`Dispatch::decode_by_id`] and [`Room::handle`], without their
    /// matches over every message type (cold code, at one move every 100 ms).
    pub(super) fn on_move_input(
        &mut self,
        idx: usize,
        r: &mut Reader<'_>,
        len: usize,
        t0: Instant,
    ) {
        let m = match PlayerMove::decode(r).and_then(|m| r.finish().map(|()| m)) {
            Ok(m) => m,
            Err(e) => return self.drop_input(PlayerMove::NAME, e.code().as_str(), len),
        };
        let msg = ClientMessage::from(m);
        self.meter_in.record_in(&msg, len);
        let ClientMessage::PlayerMove(m) = msg else {
            return;
        };
        if !self.slots[idx].as_ref().is_some_and(|p| p.joined) {
            return self.stats.record_drop(PlayerMove::NAME, "not_joined");
        }
        self.on_move(idx, m, t0);
        self.stats.accepted += 1;
        self.stats.record_move(t0.elapsed());
    }

    pub(super) fn drop_input(&mut self, kind: &'static str, code: &'static str, len: usize) {
        self.meter_in.record_dropped(len);
        self.stats.record_drop(kind, code);
    }

    pub(super) fn handle(
        &mut self,
        idx: usize,
        msg: ClientMessage,
        now: Instant,
    ) -> Result<(), Refused> {
        let p = self.slots[idx].as_mut().ok_or("gone")?;
        // Rights end with the token: past its expiry a player keeps its session and its
        // name, not its admin, staff or party rights.
        let now_s = crate::token::now_s();
        if p.who.as_ref().is_some_and(|c| c.exp <= now_s) {
            for c in p.who.iter_mut() {
                c.admin = false;
                c.staff = false;
                c.party = None;
            }
        }
        match msg {
            // Leaving on purpose: saved at once, no grace window.
            ClientMessage::SessionLeave(_) => {
                self.end_session(idx, End::Left);
            }
            // The connection handled the first hello; another is refused.
            ClientMessage::SessionHello(_) => return Err("repeated"),
            ClientMessage::PlayerJoin(j) => {
                if p.joined {
                    return Err("repeated");
                }
                self.join(idx, j);
            }
            ClientMessage::DiagPing(ping) => {
                // The round trip is everyone's; the room's numbers are the admins'.
                let admin = p.who.as_ref().is_some_and(|c| c.admin);
                let pong = ServerMessage::from(DiagPong {
                    nonce: ping.nonce,
                    sent: ping.sent,
                    server_time: now_ms(),
                    stats: (ping.want_stats && admin).then(|| self.server_stats()),
                });
                self.send_to(idx, &pong);
                if ping.want_stats && !admin {
                    return Err("not_admin");
                }
            }
            ClientMessage::DiagBytesRequest(_) if !p.who.as_ref().is_some_and(|c| c.admin) => {
                return Err("not_admin")
            }
            ClientMessage::DiagBytesRequest(req) => {
                let bytes = ServerMessage::from(self.diag_bytes());
                self.send_to(idx, &bytes);
                if req.reset {
                    self.meter_in.reset();
                    self.meter_out.reset();
                    self.meters_since = now_ms();
                    self.stats.reset();
                }
            }
            _ if !p.joined => return Err("not_joined"),
            ClientMessage::PlayerMove(m) => self.on_move(idx, m, now),
            ClientMessage::InputBatch(b) => {
                let (pos, heading) = (p.pos, p.heading);
                self.inputs.push(idx, pos, heading, &b);
            }
            // The heartbeat feeds idle timers; it is never fanned out.
            ClientMessage::PlayerHeartbeat(_) => {}
            // Guests never get the bird stream (their client does not draw birds): a
            // guest's subscribe is refused, and counted.
            ClientMessage::BirdSubscribe(b) if b.on && p.guest => return Err("guest_birds"),
            ClientMessage::BirdSubscribe(b) => p.birds = b.on,
            ClientMessage::WorldKeyframeRequest(_) => p.snapshot.want_keyframe(),
            // A number never sent, or older than one acknowledged, is ignored.
            ClientMessage::WorldAck(a) => p.snapshot.ack(a.n),
            ClientMessage::WorldView(v) => p.view_radius = v.radius,
            ClientMessage::ChatSay(c) => {
                let channel = c.channel;
                let (party, staff) = chat_rights(p.who.as_ref());
                match channel {
                    Channel::Local | Channel::Room => {}
                    Channel::Trade if p.guest => return Err("guest_channel"),
                    Channel::Trade => {}
                    Channel::Party if party.is_none() => return Err("not_in_party"),
                    Channel::Party => {}
                    Channel::Staff if !staff => return Err("not_staff"),
                    Channel::Staff => {}
                }
                self.chat_id += 1;
                let at = p.pos;
                let line = ServerMessage::from(ChatLine {
                    id: self.chat_id,
                    from: p.session.clone(),
                    name: p.name.clone(),
                    text: c.text,
                    channel: c.channel,
                    at: now_ms(),
                    reply_to: c.reply_to,
                    // Marked, so a guest cannot pass for a signed-in player.
                    guest: p.guest.then_some(true),
                });
                let config = Arc::clone(&self.config);
                // Who hears it: by distance for local chat, by membership for party and staff.
                let hears: Vec<bool> = self
                    .slots
                    .iter()
                    .map(|s| {
                        let (their_party, their_staff) =
                            chat_rights(s.as_ref().and_then(|o| o.who.as_ref()));
                        match channel {
                            Channel::Party => their_party.is_some() && their_party == party,
                            Channel::Staff => their_staff,
                            _ => true,
                        }
                    })
                    .collect();
                self.fan_out_to(
                    || line,
                    at,
                    |i| hears[i],
                    |d2, _| channel != Channel::Local || config.tiers.is_near(d2),
                );
            }
            ClientMessage::EmotePlay(e) => {
                let shown = ServerMessage::from(EmoteShown {
                    s: p.session.clone(),
                    emote: e.emote,
                    looping: e.looping,
                    at: now_ms(),
                });
                self.event_to_nearby(idx, shown);
            }
            ClientMessage::WatergunSpray(w) => {
                let shown = ServerMessage::from(WatergunSprayShown {
                    s: p.session.clone(),
                    aim: [w.yaw, w.pitch.clamp(-1.57, 1.57)],
                    reach: w.pressure * 12.0,
                });
                self.event_to_nearby(idx, shown);
            }
            ClientMessage::FishingCast(c) => {
                p.cast = true;
                let shown = ServerMessage::from(FishingCastShown {
                    s: p.session.clone(),
                    bobber: c.bobber,
                    water: Water::Pond,
                });
                self.event_to_nearby(idx, shown);
            }
            // The server owns the rules: a catch needs a line in the water.
            ClientMessage::FishingReel(_) if !p.cast => return Err("no_cast"),
            ClientMessage::FishingReel(r) if r.line == 0.0 => {
                p.cast = false;
                let catch = ServerMessage::from(FishingCatch {
                    angler: PlayerRef {
                        s: p.session.clone(),
                        name: p.name.clone(),
                    },
                    fish: "fish.trout".into(),
                    kg: 1.25,
                    length_cm: 38,
                    best: false,
                });
                self.send_to(idx, &catch);
                self.event_to_nearby(idx, catch);
            }
            // Everything else of the protocol is valid input this example does not act on.
            _ => {}
        }
        Ok(())
    }
}

/// Which party a speaker is in and whether it is staff, by its token.
pub(super) fn chat_rights(who: Option<&Claims>) -> (Option<u32>, bool) {
    who.map_or((None, false), |c| (c.party, c.staff))
}

/// The message name of a client envelope id, for drop counts.
pub(super) fn name_of(id: u32) -> &'static str {
    ClientMessage::MESSAGES
        .iter()
        .find(|m| m.1 == id)
        .map_or("(unknown id)", |m| m.0)
}

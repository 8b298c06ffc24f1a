//! One client's entity snapshot stream: `world:snapshot` through the delta tracker
//! ([`tuplet::delta::Tracker`]) for clients of the tuple shape, a full snapshot for
//! clients that announced the old named shape (the delta form is compact-only).
//!
//! Over a WebSocket the tracker deltas against what it last sent (the reliable mode).
//! Over WebTransport, where a snapshot may go as a datagram and be lost, it deltas against
//! the newest snapshot the client acknowledged (`world:ack`), or sends a keyframe.

use bytes::Bytes;
use tuplet::delta::{Sent, Tracker, RING};
use tuplet::wire::write;
use tuplet::{Encoding, Message};
use village::world::{NearbyEntity, WorldSnapshot};

/// The snapshot stream of one client.
#[derive(Debug)]
pub(crate) struct SnapshotStream {
    tracker: Tracker<WorldSnapshot>,
    /// Reused for every snapshot: the tracker compares against its baseline by value.
    value: WorldSnapshot,
}

impl SnapshotStream {
    /// A stream with a keyframe first, then every `keyframe_every` snapshots; `acked`: in
    /// the acknowledged mode ([`Tracker::acked`], a ring of [`RING`] snapshots), for a
    /// connection whose snapshots may be lost (WebTransport's datagrams).
    pub fn new(keyframe_every: u32, acked: bool) -> SnapshotStream {
        SnapshotStream {
            tracker: if acked {
                Tracker::acked(keyframe_every, RING)
            } else {
                Tracker::new(keyframe_every)
            },
            value: SnapshotStream::empty(),
        }
    }

    /// The client's acknowledgement (`world:ack`): the newest snapshot its mirror applied.
    /// Ignored in the reliable mode, and when older than one recorded or never sent.
    pub fn ack(&mut self, number: u32) {
        self.tracker.ack(u64::from(number));
    }

    /// A snapshot with no entities.
    pub fn empty() -> WorldSnapshot {
        WorldSnapshot {
            tick: 0,
            keyframe: true,
            entities: Vec::new(),
            gone: Vec::new(),
        }
    }

    /// Makes the next snapshot a keyframe (on `world:keyframe`, or on joining).
    pub fn want_keyframe(&mut self) {
        self.tracker.request_keyframe();
    }

    /// The next frame (envelope and payload) for a client of `shape` given the entities in
    /// view at `tick`, or `None` when nothing changed. Up to 50 entities (the field's cap),
    /// nearest first in `in_view`'s order.
    pub fn next(
        &mut self,
        tick: u32,
        in_view: &[&NearbyEntity],
        shape: Encoding,
    ) -> Option<(Bytes, Sent)> {
        let v = &mut self.value;
        v.tick = tick;
        v.keyframe = shape == Encoding::Named || self.tracker.keyframe_due();
        // In place: a label already held is overwritten, not freed and allocated again.
        let n = in_view.len().min(50);
        v.entities.truncate(n);
        for (i, e) in in_view.iter().take(n).enumerate() {
            match v.entities.get_mut(i) {
                Some(slot) => copy_entity(slot, e),
                None => v.entities.push((*e).clone()),
            }
        }
        let mut out = Vec::with_capacity(16 + 24 * v.entities.len());
        write::uint(&mut out, u64::from(WorldSnapshot::ID));
        let sent = match shape {
            Encoding::Compact => self.tracker.encode(v, &mut out),
            // An old client gets the whole value every tick, as it always did.
            Encoding::Named => tuplet::to_vec_named(&*v).map(|payload| {
                out.extend_from_slice(&payload);
                Sent::Keyframe
            }),
        };
        match sent {
            Ok(Sent::Nothing) => None,
            Ok(sent) => Some((out.into(), sent)),
            Err(e) => {
                eprintln!("village-server: cannot encode world:snapshot: {e}");
                None
            }
        }
    }
}

/// `*to = from.clone()`, reusing `to`'s strings.
fn copy_entity(to: &mut NearbyEntity, from: &NearbyEntity) {
    let NearbyEntity {
        id,
        kind,
        pos,
        heading,
        speed,
        anim,
        owner,
        label,
    } = from;
    to.id = *id;
    to.kind = *kind;
    to.pos = *pos;
    to.heading = *heading;
    to.speed = *speed;
    to.anim = *anim;
    to.owner.clone_from(owner);
    to.label.clone_from(label);
}

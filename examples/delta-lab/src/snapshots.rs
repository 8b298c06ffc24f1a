//! The values the lab sends: each client's `world:snapshot` at a tick, built from the
//! recorded world, and the value a client holds after decoding it.

use village::world::{EntityKind, NearbyEntity, WorldSnapshot};

use crate::world::{Record, Tick};

fn entity(r: &Record) -> NearbyEntity {
    NearbyEntity {
        id: r.id,
        kind: match r.kind {
            1 => EntityKind::Npc,
            2 => EntityKind::Pet,
            3 => EntityKind::Vehicle,
            4 => EntityKind::Boat,
            5 => EntityKind::Horse,
            _ => EntityKind::Ferry,
        },
        pos: r.pos.map(|q| (q as f64 / 100.0) as f32),
        heading: (r.heading as f64 / 1000.0) as f32,
        speed: (r.speed as f64 / 64.0) as f32,
        anim: r.anim,
        owner: r.owner.clone(),
        label: r.label.clone(),
    }
}

/// Client `c`'s snapshot at this tick (`keyframe` as the sender means it).
pub fn snapshot(t: &Tick, c: usize, keyframe: bool) -> WorldSnapshot {
    WorldSnapshot {
        tick: t.tick,
        keyframe,
        entities: t.views[c].iter().map(|&i| entity(&t.records[i])).collect(),
        gone: Vec::new(),
    }
}

/// The full value as the client sees it: decoded from its compact bytes.
pub fn quantized(v: &WorldSnapshot) -> WorldSnapshot {
    tuplet::from_slice(&tuplet::to_vec(v).expect("valid")).expect("decodes")
}

//! The seam between the room and the entity-snapshot encoding: what one client last
//! received, and the next `world:snapshot` for it.

use std::collections::BTreeMap;

use tuplet::Wire;
use village::world::{NearbyEntity, WorldSnapshot};

/// One client's snapshot stream: the entities it holds, as it last received them.
#[derive(Debug, Default)]
pub(crate) struct SnapshotStream {
    held: BTreeMap<u32, NearbyEntity>,
    keyframe_wanted: bool,
}

impl SnapshotStream {
    /// Asks for a keyframe on the next tick (a client lost track).
    pub fn want_keyframe(&mut self) {
        self.keyframe_wanted = true;
    }

    /// The snapshot for `tick` given the entities in view now, or `None` when nothing
    /// changed. A keyframe sends every entity whole; otherwise entities new or changed
    /// since the last snapshot, and the ids that left view.
    pub fn next(
        &mut self,
        tick: u32,
        keyframe: bool,
        in_view: &[&NearbyEntity],
    ) -> Option<WorldSnapshot> {
        let keyframe = keyframe || std::mem::take(&mut self.keyframe_wanted);
        let mut entities = Vec::new();
        let mut gone: Vec<u32> = Vec::new();
        if keyframe {
            self.held.clear();
        } else {
            gone = self
                .held
                .keys()
                .filter(|id| !in_view.iter().any(|e| e.id == **id))
                .copied()
                .take(64)
                .collect();
            for id in &gone {
                self.held.remove(id);
            }
        }
        for e in in_view.iter().take(50) {
            match self.held.get_mut(&e.id) {
                Some(held) if held.wire_eq(e) => {}
                Some(held) => {
                    held.clone_from(e);
                    entities.push((*e).clone());
                }
                None => {
                    self.held.insert(e.id, (*e).clone());
                    entities.push((*e).clone());
                }
            }
        }
        if !keyframe && entities.is_empty() && gone.is_empty() {
            return None;
        }
        Some(WorldSnapshot {
            tick,
            keyframe,
            entities,
            gone,
        })
    }
}

//! Which pair of versions each deploy order lets meet.

use crate::compat::lock::WireDir;
use crate::compat::order::Deploy;
use crate::compat::rules::Hurts;

impl Deploy {
    /// Whether a change hurting `hurts`, in direction `dir`, breaks a deployment in this
    /// order. Under `server-first` a client never talks to an older server: in c2s only an
    /// old client reaching a new server matters, in s2c only a new server reaching an old
    /// client. `client-first` is the mirror image.
    pub fn breaks(self, dir: WireDir, hurts: Hurts) -> bool {
        match (self, dir) {
            (Deploy::AnyOrder, _) => true,
            (Deploy::ServerFirst, WireDir::C2s) | (Deploy::ClientFirst, WireDir::S2c) => {
                hurts.old_to_new()
            }
            (Deploy::ServerFirst, WireDir::S2c) | (Deploy::ClientFirst, WireDir::C2s) => {
                hurts.new_to_old()
            }
        }
    }
}

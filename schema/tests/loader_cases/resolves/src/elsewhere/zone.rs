use super::common::{self, Mode as M};

#[derive(tuplet::Record)]
pub struct Zone {
    pub at: common::Vec3,
    pub mode: M,
}

//! A tuplet type under `#[cfg]`: the loader cannot tell whether it exists.

#[cfg(feature = "extra")]
#[derive(tuplet::Record)]
pub struct Extra {
    pub a: u8,
}

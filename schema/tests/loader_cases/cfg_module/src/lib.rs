//! A tuplet type in a `#[cfg]`'d inline module.

#[cfg(test)]
mod inner {
    #[derive(tuplet::Record)]
    pub struct Hidden {
        pub a: u8,
    }
}

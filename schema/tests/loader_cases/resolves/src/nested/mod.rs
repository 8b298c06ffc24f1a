pub mod deep {
    pub use crate::common::Mode;
    use super::super::*;

    #[derive(tuplet::Record)]
    pub struct Deep {
        pub at: Vec3Alias,
    }

    pub use crate::Position as Vec3Alias;
}

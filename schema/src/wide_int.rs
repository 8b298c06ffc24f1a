//! The one serde helper for i128 int bounds (the IR's and the lock's): written as an i64 or
//! a u64, as int bounds span `i64::MIN..=u64::MAX`; serde's buffering of internally tagged
//! enums cannot carry an i128 (the loader's regression).

use serde::de::{Error, Visitor};
use serde::{Deserializer, Serializer};

pub fn serialize<S: Serializer>(v: &i128, s: S) -> Result<S::Ok, S::Error> {
    if let Ok(v) = i64::try_from(*v) {
        s.serialize_i64(v)
    } else if let Ok(v) = u64::try_from(*v) {
        s.serialize_u64(v)
    } else {
        Err(serde::ser::Error::custom(
            "int bound beyond i64::MIN..=u64::MAX",
        ))
    }
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i128, D::Error> {
    struct Wide;
    impl Visitor<'_> for Wide {
        type Value = i128;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an integer in i64::MIN..=u64::MAX")
        }
        fn visit_i64<E: Error>(self, v: i64) -> Result<i128, E> {
            Ok(v.into())
        }
        fn visit_u64<E: Error>(self, v: u64) -> Result<i128, E> {
            Ok(v.into())
        }
        fn visit_i128<E: Error>(self, v: i128) -> Result<i128, E> {
            Ok(v)
        }
        fn visit_u128<E: Error>(self, v: u128) -> Result<i128, E> {
            i128::try_from(v).map_err(E::custom)
        }
    }
    d.deserialize_any(Wide)
}

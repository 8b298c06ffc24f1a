//! Round-trip properties over every field kind, driven by `sample` in every mode and by
//! proptest's random values:
//! - decode(encode(x)) == x for valid samples, in both shapes, and encode(decode) is canonical;
//! - arbitrary values either fail to encode with the code `validate` reports, or survive a
//!   round trip equal after quantization;
//! - wider-than-needed int encodings (as other msgpack libraries may write) decode to the
//!   same value, and re-encode to the canonical bytes.

use proptest::prelude::*;
use tuplet::{SampleMode, Wire};
use tuplet_tests::kinds::*;

fn roundtrip_samples<T: Wire + PartialEq + std::fmt::Debug>(seeds: u64) {
    for seed in 0..seeds {
        for mode in SampleMode::ALL {
            let x: T = tuplet::sample(seed, mode);
            let issues = tuplet::validate(&x);
            assert!(
                issues.is_empty(),
                "sample {seed} {mode:?} invalid: {issues:?}"
            );
            let compact = tuplet::to_vec(&x).unwrap();
            if let Some(max) = T::MAX_SIZE {
                assert!(compact.len() <= max, "{} > MAX_SIZE {max}", compact.len());
            }
            let y: T = tuplet::from_slice(&compact).unwrap();
            assert_eq!(y, x, "compact round trip, seed {seed} {mode:?}");
            let named = tuplet::to_vec_named(&x).unwrap();
            let z: T = tuplet::from_slice(&named).unwrap();
            assert_eq!(z, x, "named round trip, seed {seed} {mode:?}");
            assert_eq!(tuplet::to_vec(&z).unwrap(), compact, "canonical re-encode");
            assert!(x.wire_eq(&z) && z.wire_eq(&y));
            let widened = widen(&compact);
            let w: T = tuplet::from_slice(&widened).unwrap();
            assert_eq!(
                tuplet::to_vec(&w).unwrap(),
                compact,
                "widened ints re-encode canonically"
            );
        }
    }
}

/// Re-encodes a msgpack value with every int in its widest marker (`cf`/`d3`).
fn widen(bytes: &[u8]) -> Vec<u8> {
    fn go(v: &rmpv::Value, out: &mut Vec<u8>) {
        use rmpv::Value;
        match v {
            Value::Integer(i) => {
                if let Some(u) = i.as_u64() {
                    out.push(0xcf);
                    out.extend_from_slice(&u.to_be_bytes());
                } else {
                    out.push(0xd3);
                    out.extend_from_slice(&i.as_i64().unwrap().to_be_bytes());
                }
            }
            Value::Array(items) => {
                out.push(0xdd);
                out.extend_from_slice(&(items.len() as u32).to_be_bytes());
                items.iter().for_each(|x| go(x, out));
            }
            Value::Map(entries) => {
                out.push(0xdf);
                out.extend_from_slice(&(entries.len() as u32).to_be_bytes());
                for (k, x) in entries {
                    go(k, out);
                    go(x, out);
                }
            }
            other => rmpv::encode::write_value(out, other).unwrap(),
        }
    }
    let value = rmpv::decode::read_value(&mut &bytes[..]).unwrap();
    let mut out = Vec::new();
    go(&value, &mut out);
    out
}

#[test]
fn every_kind_round_trips_in_every_sample_mode() {
    roundtrip_samples::<AllKinds>(64);
    roundtrip_samples::<Scalars>(64);
    roundtrip_samples::<Pose>(64);
    roundtrip_samples::<Mount>(64);
    roundtrip_samples::<Reward>(64);
    roundtrip_samples::<Species>(16);
    roundtrip_samples::<Weather>(16);
    roundtrip_samples::<MoveFlags>(16);
    roundtrip_samples::<Perms>(16);
    roundtrip_samples::<Labels>(32);
}

#[test]
fn max_mode_reaches_declared_maxima() {
    let x: AllKinds = tuplet::sample(1, SampleMode::Max);
    assert_eq!(x.name.len(), 24);
    assert_eq!(x.blob.len(), 64);
    assert_eq!(x.tags.len(), 5);
    assert_eq!(x.scalars.small, 10);
    assert!(x.seq.is_some() && x.target.is_some());
    let n: AllKinds = tuplet::sample(1, SampleMode::Min);
    assert_eq!(n.name.len(), 1);
    assert!(n.seq.is_none() && n.note.is_none());
    assert_eq!(n.scalars.small, -10);
}

fn check_arbitrary<T: Wire + std::fmt::Debug>(x: &T) -> Result<(), TestCaseError> {
    let issues = tuplet::validate(x);
    match tuplet::to_vec(x) {
        Err(e) => {
            prop_assert!(
                !issues.is_empty(),
                "encode failed ({e}) but validate passed"
            );
            prop_assert_eq!(e.code(), issues[0].code);
        }
        Ok(bytes) => {
            prop_assert!(issues.is_empty(), "encoded an invalid value: {issues:?}");
            let y: T = tuplet::from_slice(&bytes).unwrap();
            prop_assert!(y.wire_eq(x));
            prop_assert_eq!(tuplet::to_vec(&y).unwrap(), bytes.clone());
            let named: T = tuplet::from_slice(&tuplet::to_vec_named(x).unwrap()).unwrap();
            prop_assert_eq!(tuplet::to_vec(&named).unwrap(), bytes);
        }
    }
    Ok(())
}

fn any_pose() -> impl Strategy<Value = Pose> {
    (any::<[f32; 3]>(), -4.0f32..4.0).prop_map(|(p, r)| Pose { p, r })
}

fn near_pose() -> impl Strategy<Value = Pose> {
    (prop::array::uniform3(-5001.0f32..5001.0), -3.2f32..3.2).prop_map(|(p, r)| Pose { p, r })
}

prop_compose! {
    /// A sampled `AllKinds` with its strings, lists, maps, bytes and flags replaced by
    /// arbitrary values (valid or not: `check_arbitrary` holds either way).
    fn any_all_kinds()(
        seed in any::<u64>(),
        name in "\\PC{0,30}",
        blob in prop::collection::vec(any::<u8>(), 0..70),
        tags in prop::collection::vec("\\PC{0,10}", 0..7),
        scores in prop::collection::btree_map("\\PC{0,6}", any::<i32>(), 0..8),
        path in prop::collection::vec(-120.0f32..120.0, 0..5),
        flags in any::<(bool, bool, bool)>(),
        perms in any::<(bool, bool, u16)>(),
        note in proptest::option::of("\\PC{0,8}"),
    ) -> AllKinds {
        let mut x: AllKinds = tuplet::sample(seed, SampleMode::Random);
        x.name = name;
        x.blob = blob;
        x.tags = tags;
        x.scores = scores;
        x.path = path;
        x.flags = MoveFlags { running: flags.0, crouching: flags.1, afk: flags.2 };
        x.perms = Perms { chat: perms.0, build: perms.1, rest: perms.2 };
        x.note = note;
        x
    }
}

prop_compose! {
    fn any_scalars()(
        flag in any::<bool>(), a in any::<u8>(), b in any::<u16>(), c in any::<u32>(),
        d in any::<u64>(), e in any::<i8>(), f in any::<i16>(), g in any::<i32>(),
        h in any::<i64>(), big in any::<u64>(), big_signed in any::<i64>(), small in -12i32..12,
        raw32 in any::<f32>(), raw64 in any::<f64>(), unit32 in -0.5f32..1.5,
        mm in -9000.0f32..9000.0, sixty_fourths in -1.0f64..101.0, unbounded_cdeg in any::<f64>(),
    ) -> Scalars {
        Scalars { flag, a, b, c, d, e, f, g, h, big, big_signed, small, raw32, raw64, unit32,
            mm, sixty_fourths, unbounded_cdeg }
    }
}

proptest! {
    #[test]
    fn arbitrary_poses_encode_or_fail_like_validate(pose in any_pose()) {
        check_arbitrary(&pose)?;
    }

    #[test]
    fn poses_near_the_bounds_round_trip(pose in near_pose()) {
        check_arbitrary(&pose)?;
    }

    #[test]
    fn arbitrary_scalars_encode_or_fail_like_validate(s in any_scalars()) {
        check_arbitrary(&s)?;
    }

    #[test]
    fn arbitrary_mounts(name in "\\PC{0,20}", stamina in any::<u8>(), pose in near_pose()) {
        check_arbitrary(&Mount::Horse { name, stamina, saddle: Some(Species::Crow) })?;
        check_arbitrary(&Mount::Boat(pose))?;
    }

    #[test]
    fn seeds_drive_valid_samples(seed in any::<u64>(), mode in 0usize..5) {
        let mode = SampleMode::ALL[mode];
        let x: AllKinds = tuplet::sample(seed, mode);
        let compact = tuplet::to_vec(&x).unwrap();
        let y: AllKinds = tuplet::from_slice(&compact).unwrap();
        prop_assert_eq!(&y, &x);
        let named: AllKinds = tuplet::from_slice(&tuplet::to_vec_named(&x).unwrap()).unwrap();
        prop_assert_eq!(&named, &x);
        let w: AllKinds = tuplet::from_slice(&widen(&compact)).unwrap();
        prop_assert_eq!(tuplet::to_vec(&w).unwrap(), compact);
    }

    #[test]
    fn arbitrary_containers_strings_bytes_and_flags(x in any_all_kinds()) {
        check_arbitrary(&x)?;
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..96)) {
        let _ = tuplet::from_slice::<AllKinds>(&bytes);
        let _ = tuplet::from_slice::<Mount>(&bytes);
        if let Ok(v) = tuplet::from_slice::<Pose>(&bytes) {
            let again: Pose = tuplet::from_slice(&tuplet::to_vec(&v).unwrap()).unwrap();
            prop_assert!(again.wire_eq(&v));
        }
    }
}

#[test]
fn a_map_key_over_its_key_len_is_an_issue_at_the_key_and_fails_to_encode() {
    let mut x: AllKinds = tuplet::sample(0, SampleMode::Min);
    x.scores.insert("ninebytes".into(), 1);
    let issues = tuplet::validate(&x);
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].code, tuplet::Code::TooLong);
    assert_eq!(issues[0].path.to_string(), "scores[\"ninebytes\"]");
    let e = tuplet::to_vec(&x).unwrap_err();
    assert_eq!(e.code(), tuplet::Code::TooLong);
    x.scores.clear();
    x.scores.insert("eightbyt".into(), 1);
    assert!(tuplet::validate(&x).is_empty());
    let back: AllKinds = tuplet::from_slice(&tuplet::to_vec(&x).unwrap()).unwrap();
    assert!(back.wire_eq(&x));
}

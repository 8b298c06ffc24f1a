//! Allocation counts of the derived codecs, measured with a counting global allocator.
//!
//! A decode allocates exactly once per `String` / `Vec` value it returns (sized up front:
//! no growth, no boxing, no path or key buffers); an encode into a `Vec<u8>` with enough
//! capacity allocates nothing.
//!
//! The counters are thread-local, so the test harness's other threads (and other tests
//! running in parallel) do not disturb a measurement. Each measured closure runs several
//! times; every run must give the same count, and that count of one run is asserted.

// 3.141 is the heading of WIRE.md's example move, not an approximation of π.
#![allow(clippy::approx_constant)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tuplet::Wire;
use tuplet_tests::kinds::Pose;

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
    static REALLOCS: Cell<usize> = const { Cell::new(0) };
}

fn bump(counter: &'static std::thread::LocalKey<Cell<usize>>) {
    // `try_with`: the thread-local may already be gone while a thread shuts down.
    let _ = counter.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump(&ALLOCS);
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump(&ALLOCS);
        System.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump(&REALLOCS);
        System.realloc(ptr, layout, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// (allocations, reallocations) made by one run of `f` on this thread; `f` runs 5 times
/// and every run must agree. What `f` returns is dropped outside the measurement.
fn count<R>(mut f: impl FnMut() -> R) -> (usize, usize) {
    let mut runs = Vec::with_capacity(5);
    for _ in 0..5 {
        let (a0, r0) = (ALLOCS.with(Cell::get), REALLOCS.with(Cell::get));
        let out = std::hint::black_box(f());
        let (a1, r1) = (ALLOCS.with(Cell::get), REALLOCS.with(Cell::get));
        drop(out);
        runs.push((a1 - a0, r1 - r0));
    }
    assert!(
        runs.iter().all(|r| *r == runs[0]),
        "runs disagree: {runs:?}"
    );
    runs[0]
}

// ---------------------------------------------------------------------------------------
// The relayed move, as in relayed_move.rs.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u8")]
pub struct MoveFlags {
    #[tuplet(bit = 0)]
    pub running: bool,
    #[tuplet(bit = 1)]
    pub jumping: bool,
}

#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "s2c")]
pub struct RelayedMove {
    #[tuplet(len = 9, legacy = "sessionId")]
    pub s: String,
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
    pub p: [f32; 3],
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), legacy = "rotationY")]
    pub r: f32,
    pub t: u64,
    pub seq: Option<u32>,
    pub flags: Option<MoveFlags>,
}

fn the_move() -> RelayedMove {
    RelayedMove {
        s: "abc123def".into(),
        p: [123.45, 1.50, -25.00],
        r: 3.141,
        t: 1_764_000_000_000,
        seq: Some(1234),
        flags: None,
    }
}

/// A message with lists: one String, a Vec of records, a Vec of ints, a Vec of Strings.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "squad:poses", id = 2, dir = "s2c")]
pub struct Squad {
    #[tuplet(len(max = 16))]
    pub name: String,
    #[tuplet(len(max = 8))]
    pub poses: Vec<Pose>,
    #[tuplet(len(max = 8))]
    pub ids: Vec<u16>,
    #[tuplet(len(max = 4), item_len(max = 8))]
    pub tags: Vec<String>,
}

fn squad() -> Squad {
    let pose = |x: f32, r: f32| Pose { p: [x, 1.5, -x], r };
    Squad {
        name: "reds".into(),
        poses: vec![pose(1.0, 0.5), pose(-20.25, -1.0), pose(300.0, 3.0)],
        ids: vec![7, 300, 65535],
        tags: vec!["a".into(), "bc".into()],
    }
}

/// A decode of `bytes` into `T`, checked against `expected`, measured.
fn decode_count<T: Wire + std::fmt::Debug + PartialEq>(
    bytes: &[u8],
    expected: &T,
) -> (usize, usize) {
    let back: T = tuplet::from_slice(bytes).unwrap();
    assert!(back.wire_eq(expected), "{back:?}");
    count(|| tuplet::from_slice::<T>(bytes).unwrap())
}

#[test]
fn relayed_move_decode_allocates_only_the_string() {
    let compact = tuplet::to_vec(&the_move()).unwrap();
    assert_eq!(compact.len(), 35);
    assert_eq!(decode_count(&compact, &the_move()), (1, 0), "compact");

    let named = tuplet::to_vec_named(&the_move()).unwrap();
    assert!(named.len() > 80);
    assert_eq!(decode_count(&named, &the_move()), (1, 0), "named");

    // Also with the flags present (and through every option).
    let mut m = the_move();
    m.flags = Some(MoveFlags {
        running: true,
        jumping: true,
    });
    for bytes in [
        tuplet::to_vec(&m).unwrap(),
        tuplet::to_vec_named(&m).unwrap(),
    ] {
        assert_eq!(decode_count(&bytes, &m), (1, 0), "with flags");
    }
}

#[test]
fn list_decode_allocates_once_per_returned_string_or_vec() {
    // name, poses, ids, tags, tags[0], tags[1]: 6 String/Vec values.
    let v = squad();
    let compact = tuplet::to_vec(&v).unwrap();
    assert_eq!(decode_count(&compact, &v), (6, 0), "compact");
    let named = tuplet::to_vec_named(&v).unwrap();
    assert_eq!(decode_count(&named, &v), (6, 0), "named");

    // Empty String and Vecs allocate nothing: only `poses` is left.
    let v = Squad {
        name: String::new(),
        ids: vec![],
        tags: vec![],
        ..squad()
    };
    let compact = tuplet::to_vec(&v).unwrap();
    assert_eq!(decode_count(&compact, &v), (1, 0), "compact, empties");
    let named = tuplet::to_vec_named(&v).unwrap();
    assert_eq!(decode_count(&named, &v), (1, 0), "named, empties");
}

#[test]
fn encode_into_reserved_vec_allocates_nothing() {
    fn encode_count<T: Wire>(v: &T, named: bool) -> (usize, usize) {
        let mut out = Vec::with_capacity(4096);
        count(|| {
            out.clear();
            if named {
                v.encode_named(&mut out).unwrap();
            } else {
                v.encode_compact(&mut out).unwrap();
            }
            out.len()
        })
    }
    let mut m = the_move();
    assert_eq!(encode_count(&m, false), (0, 0), "move compact");
    assert_eq!(encode_count(&m, true), (0, 0), "move named");
    m.flags = Some(MoveFlags {
        running: true,
        jumping: false,
    });
    assert_eq!(encode_count(&m, false), (0, 0), "move compact, flags");
    assert_eq!(encode_count(&m, true), (0, 0), "move named, flags");
    assert_eq!(encode_count(&squad(), false), (0, 0), "squad compact");
    assert_eq!(encode_count(&squad(), true), (0, 0), "squad named");
}

#[test]
fn the_counter_counts() {
    // The harness itself: one Vec with capacity, one String, one growth.
    let (allocs, reallocs) = count(|| {
        let mut v: Vec<u8> = Vec::with_capacity(1);
        v.extend_from_slice(&[1, 2, 3]);
        (v, String::from("x"))
    });
    assert_eq!((allocs, reallocs), (2, 1));
}

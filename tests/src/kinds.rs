//! One type per field kind the grammar supports, so property tests and fixtures cover
//! every emitted code path.

use std::collections::BTreeMap;

use tuplet::Reserved;

/// A unit enum with a negative discriminant and a reserved number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(reserved = [3])]
pub enum Species {
    Sparrow = 1,
    Gull = 2,
    Crow = 4,
    Ghost = -1,
}

/// An open unit enum: unknown numbers are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(open)]
#[repr(i64)]
pub enum Weather {
    Clear = 0,
    Rain = 1,
    Snow = 2,
    #[tuplet(unknown)]
    Unknown(i64),
}

/// A flag set in one byte, with a reserved bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u8", reserved = [2])]
pub struct MoveFlags {
    #[tuplet(bit = 0)]
    pub running: bool,
    #[tuplet(bit = 1)]
    pub crouching: bool,
    #[tuplet(bit = 7)]
    pub afk: bool,
}

/// An open flag set: unknown bits are kept in `rest`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u16", open)]
pub struct Perms {
    #[tuplet(bit = 0)]
    pub chat: bool,
    #[tuplet(bit = 1)]
    pub build: bool,
    #[tuplet(rest)]
    pub rest: u16,
}

/// A nested record.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Pose {
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
    pub p: [f32; 3],
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), legacy = "rotationY")]
    pub r: f32,
}

/// An enum with data: unit, newtype and struct variants.
#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
pub enum Mount {
    #[tuplet(tag = 0)]
    OnFoot,
    #[tuplet(tag = 1)]
    Boat(Pose),
    #[tuplet(tag = 2)]
    Horse {
        #[tuplet(len(max = 16))]
        name: String,
        #[tuplet(range(0, 100))]
        stamina: u8,
        saddle: Option<Species>,
    },
}

/// An open enum with data.
#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
#[tuplet(open)]
pub enum Reward {
    #[tuplet(tag = 1)]
    Coins(#[tuplet(range(1, 1000))] u32),
    #[tuplet(tag = 2)]
    Item {
        #[tuplet(len(min = 1, max = 24))]
        id: String,
    },
    #[tuplet(unknown)]
    Unknown(u32),
}

/// Every scalar kind.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Scalars {
    pub flag: bool,
    pub a: u8,
    pub b: u16,
    pub c: u32,
    pub d: u64,
    pub e: i8,
    pub f: i16,
    pub g: i32,
    pub h: i64,
    #[tuplet(bigint)]
    pub big: u64,
    #[tuplet(bigint)]
    pub big_signed: i64,
    #[tuplet(range(-10, 10))]
    pub small: i32,
    pub raw32: f32,
    pub raw64: f64,
    #[tuplet(range(0.0, 1.0))]
    pub unit32: f32,
    #[tuplet(quant = "mm", range(-8000.0, 8000.0))]
    pub mm: f32,
    #[tuplet(scale = 64, range(0.0, 100.0))]
    pub sixty_fourths: f64,
    #[tuplet(quant = "cdeg")]
    pub unbounded_cdeg: f64,
}

/// Every container kind.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "kinds:all", id = 200, dir = "both", budget = 4096)]
pub struct AllKinds {
    pub scalars: Scalars,
    #[tuplet(len(min = 1, max = 24), legacy = "displayName")]
    pub name: String,
    #[tuplet(len(max = 64))]
    pub blob: Vec<u8>,
    #[tuplet(reserved = "colour: sent once in player:join since 1.4")]
    pub _colour: Reserved,
    pub pose: Pose,
    pub mount: Mount,
    #[tuplet(len(max = 4))]
    pub rewards: Vec<Reward>,
    pub species: Species,
    pub weather: Weather,
    pub flags: MoveFlags,
    pub perms: Perms,
    #[tuplet(len(max = 5), item_len(max = 8))]
    pub tags: Vec<String>,
    pub grid: [[u8; 2]; 2],
    #[tuplet(len(max = 6), key_len(max = 8))]
    pub scores: BTreeMap<String, i32>,
    #[tuplet(len(max = 6))]
    pub by_id: BTreeMap<u16, Pose>,
    #[tuplet(quant = "cm", range(-100.0, 100.0))]
    pub path: Vec<f32>,
    pub seq: Option<u32>,
    pub target: Option<Pose>,
    pub note: Option<String>,
}

/// Fixed arrays of strings and bytes with item lengths, one with a legacy key list.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Labels {
    #[tuplet(item_len(min = 3, max = 7), legacy = ["x", "y", "z"])]
    pub b: [String; 3],
    #[tuplet(item_len(max = 4))]
    pub c: [Vec<u8>; 2],
    #[tuplet(item_len(min = 1, max = 2), legacy = ["lo", "hi"])]
    pub d: [Vec<u8>; 2],
}

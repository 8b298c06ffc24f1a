//! The grammar on representative items: `parse_quote!` in, IR out.

#![allow(clippy::approx_constant)] // the README's example writes 3.1416 on purpose

use syn::parse_quote;
use tuplet_schema::ir::*;
use tuplet_schema::{parse_item, Derive};

fn parse(input: syn::DeriveInput, derive: Derive) -> Item {
    match parse_item(&input, derive) {
        Ok(item) => item,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

fn error(input: syn::DeriveInput, derive: Derive) -> String {
    match parse_item(&input, derive) {
        Ok(item) => panic!("expected an error, got {item:?}"),
        Err(e) => e
            .into_iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

fn fields(item: &Item) -> Vec<&Field> {
    let record = match &item.kind {
        ItemKind::Message(m) => &m.record,
        ItemKind::Record(r) => r,
        other => panic!("not a record: {other:?}"),
    };
    record
        .slots
        .iter()
        .filter_map(|s| match s {
            Slot::Field(f) => Some(f),
            Slot::Reserved(_) => None,
        })
        .collect()
}

fn float(ty: &TypeRef) -> &FloatType {
    match ty {
        TypeRef::Float(f) => f,
        TypeRef::Array { inner, .. } | TypeRef::Vec { inner, .. } | TypeRef::Option { inner } => {
            float(inner)
        }
        other => panic!("not a float: {other:?}"),
    }
}

fn player_move() -> syn::DeriveInput {
    parse_quote! {
        /// Sent by a client 10 times a second while its player moves.
        #[derive(Debug, Clone, PartialEq, tuplet::Message)]
        #[tuplet(name = "player:move", id = 1, dir = "c2s")]
        pub struct PlayerMove {
            /// Position, metres; on the wire whole centimetres.
            #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
            pub p: [f32; 3],
            /// Heading, radians; on the wire milliradians.
            #[tuplet(quant = "mrad", range(-3.1416, 3.1416), legacy = "rotationY")]
            pub r: f32,
            /// Sender's own sample time, ms.
            pub t: u64,
            pub seq: Option<u32>,
            pub flags: Option<MoveFlags>,
        }
    }
}

#[test]
fn player_move_from_design() {
    let item = parse(player_move(), Derive::Message);
    assert_eq!(item.ident, "PlayerMove");
    assert_eq!(
        item.doc,
        "Sent by a client 10 times a second while its player moves."
    );
    let ItemKind::Message(m) = &item.kind else {
        panic!()
    };
    assert_eq!((m.name.as_str(), m.id, m.dir), ("player:move", 1, Dir::C2s));
    let f = fields(&item);
    assert_eq!(f.len(), 5);
    assert_eq!(f[0].name, "p");
    assert_eq!(f[0].legacy, ["x", "y", "z"]);
    assert_eq!(f[0].doc, "Position, metres; on the wire whole centimetres.");
    let TypeRef::Array { len: 3, .. } = &f[0].ty else {
        panic!("{:?}", f[0].ty)
    };
    let p = float(&f[0].ty);
    assert_eq!(p.bits, 32);
    assert_eq!(
        p.quant,
        Some(Quant {
            unit: Some("cm".into()),
            scale: 100.0
        })
    );
    assert_eq!(p.quant_bounds(), Some((-500_000, 500_000)));
    let r = float(&f[1].ty);
    assert_eq!(f[1].legacy, ["rotationY"]);
    assert_eq!(
        r.range,
        Some(FloatRange {
            min: -3.1416,
            max: 3.1416
        })
    );
    assert_eq!(r.quant_bounds(), Some((-3142, 3142)));
    assert_eq!(
        f[2].ty,
        TypeRef::Int(IntType {
            prim: IntPrim::U64,
            range: None,
            bigint: false
        })
    );
    assert_eq!(
        f[4].ty,
        TypeRef::Option {
            inner: Box::new(TypeRef::Named {
                path: "MoveFlags".into()
            })
        }
    );
}

#[test]
fn ir_round_trips_through_json() {
    let item = parse(player_move(), Derive::Message);
    let json = serde_json::to_string(&item).unwrap();
    let back: Item = serde_json::from_str(&json).unwrap();
    assert_eq!(back, item);
    assert_eq!(serde_json::to_string(&back).unwrap(), json, "deterministic");
    assert!(
        json.starts_with(r#"{"ident":"PlayerMove","doc":"#),
        "{json}"
    );
}

#[test]
fn message_keys_budget_delta_accept() {
    let item = parse(
        parse_quote! {
            #[tuplet(name = "world:snapshot", id = 40, dir = "s2c", budget = 1200, delta)]
            #[tuplet(accept(rule = "id-changed", was = "7", now = "40", reason = "ids compacted in 2.0"))]
            pub struct Snapshot {
                #[tuplet(len(max = 50))]
                pub entities: Vec<crate::world::Entity>,
            }
        },
        Derive::Message,
    );
    let ItemKind::Message(m) = &item.kind else {
        panic!()
    };
    assert_eq!(m.budget, Some(1200));
    assert!(m.delta);
    assert_eq!(item.accept[0].rule, "id-changed");
    assert_eq!(item.accept[0].reason, "ids compacted in 2.0");
    assert_eq!(
        fields(&item)[0].ty,
        TypeRef::Vec {
            inner: Box::new(TypeRef::Named {
                path: "crate::world::Entity".into()
            }),
            len: Len {
                min: None,
                max: Some(50)
            },
        }
    );
}

#[test]
fn record_entity_strings_bytes_maps() {
    let item = parse(
        parse_quote! {
            #[tuplet(entity(key = "id"))]
            pub struct Bird {
                pub id: u16,
                #[tuplet(len = 9)]
                pub owner: String,
                #[tuplet(len(min = 1, max = 64))]
                pub blob: Vec<u8>,
                #[tuplet(len(max = 8), item_len(max = 24))]
                pub tags: std::collections::BTreeMap<String, String>,
                #[tuplet(range(0, 100))]
                pub scores: BTreeMap<u8, i32>,
            }
        },
        Derive::Record,
    );
    let ItemKind::Record(r) = &item.kind else {
        panic!()
    };
    assert_eq!(r.entity_key.as_deref(), Some("id"));
    let f = fields(&item);
    assert_eq!(
        f[1].ty,
        TypeRef::String {
            len: Len {
                min: Some(9),
                max: Some(9)
            }
        }
    );
    assert_eq!(
        f[2].ty,
        TypeRef::Bytes {
            len: Len {
                min: Some(1),
                max: Some(64)
            }
        }
    );
    assert_eq!(
        f[3].ty,
        TypeRef::Map {
            key: Box::new(TypeRef::String {
                len: Len::default()
            }),
            value: Box::new(TypeRef::String {
                len: Len {
                    min: None,
                    max: Some(24)
                }
            }),
            len: Len {
                min: None,
                max: Some(8)
            },
        }
    );
    let TypeRef::Map { value, .. } = &f[4].ty else {
        panic!()
    };
    assert_eq!(
        **value,
        TypeRef::Int(IntType {
            prim: IntPrim::I32,
            range: Some(IntRange { min: 0, max: 100 }),
            bigint: false
        })
    );
}

#[test]
fn reserved_slot_and_bigint_and_scale() {
    let item = parse(
        parse_quote! {
            pub struct Profile {
                #[tuplet(reserved = "colour: moved to player:join in 1.4")]
                pub _colour: tuplet::Reserved,
                #[tuplet(bigint)]
                pub coins: Option<u64>,
                #[tuplet(scale = 64, range(0, 10))]
                pub speed: f64,
                #[tuplet(quant = "cdeg", range(-180.0, 180.0))]
                pub heading: Vec<f32>,
            }
        },
        Derive::Record,
    );
    let ItemKind::Record(r) = &item.kind else {
        panic!()
    };
    assert_eq!(
        r.slots[0],
        Slot::Reserved(Reserved {
            ident: "_colour".into(),
            note: "colour: moved to player:join in 1.4".into()
        })
    );
    let f = fields(&item);
    assert_eq!(
        f[0].ty,
        TypeRef::Option {
            inner: Box::new(TypeRef::Int(IntType {
                prim: IntPrim::U64,
                range: None,
                bigint: true
            }))
        }
    );
    let speed = float(&f[1].ty);
    assert_eq!(
        speed.quant,
        Some(Quant {
            unit: None,
            scale: 64.0
        })
    );
    assert_eq!(
        speed.range,
        Some(FloatRange {
            min: 0.0,
            max: 10.0
        })
    );
    assert_eq!(float(&f[2].ty).quant_bounds(), Some((-18000, 18000)));
}

#[test]
fn unit_enum_open_reserved() {
    let item = parse(
        parse_quote! {
            /// A bird species.
            #[tuplet(open, reserved = [3, -4])]
            #[repr(i32)]
            pub enum Species {
                /// Small and brown.
                Sparrow = 1,
                Robin = 2,
                Gull = -1,
                #[tuplet(unknown)]
                Unknown(i64),
            }
        },
        Derive::Enum,
    );
    let ItemKind::Enum(e) = &item.kind else {
        panic!()
    };
    assert!(e.open && e.is_unit());
    assert_eq!(e.reserved, [3, -4]);
    assert_eq!(e.unknown.as_deref(), Some("Unknown"));
    let numbers: Vec<_> = e
        .variants
        .iter()
        .map(|v| (v.name.as_str(), v.number))
        .collect();
    assert_eq!(numbers, [("Sparrow", 1), ("Robin", 2), ("Gull", -1)]);
    assert_eq!(e.variants[0].doc, "Small and brown.");
}

#[test]
fn data_enum_tags_and_shapes() {
    let item = parse(
        parse_quote! {
            pub enum Held {
                #[tuplet(tag = 0)]
                Nothing,
                #[tuplet(tag = 1)]
                Boat(BoatState),
                #[tuplet(tag = 2)]
                Pet {
                    #[tuplet(len(max = 16))]
                    name: String,
                    #[tuplet(accept(rule = "range-narrowed", reason = "nobody had more"))]
                    age: u8,
                },
            }
        },
        Derive::Enum,
    );
    let ItemKind::Enum(e) = &item.kind else {
        panic!()
    };
    assert!(!e.is_unit());
    assert_eq!(e.variants[0].fields, VariantFields::Unit);
    let VariantFields::Newtype { field } = &e.variants[1].fields else {
        panic!()
    };
    assert_eq!(field.name, "0");
    assert_eq!(
        field.ty,
        TypeRef::Named {
            path: "BoatState".into()
        }
    );
    let VariantFields::Struct { record } = &e.variants[2].fields else {
        panic!()
    };
    assert_eq!(record.slots.len(), 2);
    let Slot::Field(age) = &record.slots[1] else {
        panic!()
    };
    assert_eq!(age.accept[0].was, "");
    assert_eq!(e.variants[2].number, 2);
}

#[test]
fn flags_open_with_rest() {
    let item = parse(
        parse_quote! {
            #[tuplet(int = "u8", open, reserved = [6])]
            pub struct MoveFlags {
                /// Sprinting.
                #[tuplet(bit = 0)]
                pub running: bool,
                #[tuplet(bit = 7)]
                pub carrying: bool,
                #[tuplet(rest)]
                pub rest: u8,
            }
        },
        Derive::Flags,
    );
    let ItemKind::Flags(f) = &item.kind else {
        panic!()
    };
    assert_eq!(f.prim, IntPrim::U8);
    assert!(f.open);
    assert_eq!(f.reserved, [6]);
    assert_eq!(f.rest.as_deref(), Some("rest"));
    assert_eq!(
        f.bits[0],
        Flag {
            name: "running".into(),
            doc: "Sprinting.".into(),
            bit: 0
        }
    );
    assert_eq!(f.bits[1].bit, 7);
}

#[test]
fn dispatch_variants() {
    let item = parse(
        parse_quote! {
            #[tuplet(dir = "c2s", reserved_ids = [5, 9], reserved_names = ["player:teleport"])]
            pub enum ClientMsg {
                Move(crate::player::PlayerMove),
                Join(PlayerJoin),
            }
        },
        Derive::Dispatch,
    );
    let ItemKind::Dispatch(d) = &item.kind else {
        panic!()
    };
    assert_eq!(d.dir, Dir::C2s);
    assert_eq!(d.reserved_ids, [5, 9]);
    assert_eq!(d.reserved_names, ["player:teleport"]);
    assert_eq!(d.variants[0].path, "crate::player::PlayerMove");
    assert_eq!(d.variants[1].name, "Join");
}

#[test]
fn unit_struct_message_has_no_slots() {
    let item = parse(
        parse_quote! {
            #[tuplet(name = "session:ping", id = 3, dir = "both")]
            pub struct Ping;
        },
        Derive::Message,
    );
    let ItemKind::Message(m) = &item.kind else {
        panic!()
    };
    assert!(m.record.slots.is_empty());
    assert_eq!(m.dir, Dir::Both);
}

#[test]
fn unknown_field_key_suggests_the_nearest_and_lists_valid_keys() {
    let e = error(
        parse_quote! {
            pub struct R { #[tuplet(rnage(0, 1))] pub a: u8 }
        },
        Derive::Record,
    );
    assert_eq!(
        e,
        "unknown tuplet field key `rnage`; did you mean `range`? expected one of: quant, scale, range, len, \
         item_len, key_len, legacy, bigint, draw, reserved, accept"
    );
}

#[test]
fn every_error_is_reported_at_once() {
    let e = error(
        parse_quote! {
            pub struct R {
                #[tuplet(len(max = 3))]
                pub a: bool,
                #[tuplet(quant = "cm")]
                pub b: u32,
                pub c: usize,
            }
        },
        Derive::Record,
    );
    let lines: Vec<_> = e.lines().collect();
    assert_eq!(lines.len(), 3, "{e}");
    assert!(lines[0].starts_with("`len` applies to String"), "{e}");
    assert!(lines[1].starts_with("`quant` applies to f32/f64"), "{e}");
    assert!(lines[2].starts_with("`usize`/`isize`"), "{e}");
}

#[test]
fn quantized_checks() {
    let f32_steps = error(
        parse_quote! {
            pub struct R { #[tuplet(quant = "mm", range(-10000.0, 10000.0))] pub x: f32 }
        },
        Derive::Record,
    );
    assert!(
        f32_steps.contains("|q| = 10000000 exceeds 2^23"),
        "{f32_steps}"
    );
    let overflow = error(
        parse_quote! {
            pub struct R { #[tuplet(scale = 1000000, range(0.0, 1e13))] pub x: f64 }
        },
        Derive::Record,
    );
    assert!(overflow.contains("beyond 2^50"), "{overflow}");
    let unbounded = error(
        parse_quote! { pub struct R { #[tuplet(quant = "cm")] pub x: f32 } },
        Derive::Record,
    );
    assert!(
        unbounded.starts_with("a quantized f32 needs a `range`"),
        "{unbounded}"
    );
    // f64 without a range is fine: q is bounded by ±2^50 at run time.
    parse(
        parse_quote! { pub struct R { #[tuplet(quant = "cm")] pub x: f64 } },
        Derive::Record,
    );
}

#[test]
fn int_range_checks() {
    let outside = error(
        parse_quote! { pub struct R { #[tuplet(range(0, 300))] pub x: u8 } },
        Derive::Record,
    );
    assert!(outside.contains("lies outside `u8`"), "{outside}");
    let safe = error(
        parse_quote! { pub struct R { #[tuplet(range(0, 9007199254740992))] pub x: u64 } },
        Derive::Record,
    );
    assert!(safe.contains("unless the field is `bigint`"), "{safe}");
    parse(
        parse_quote! { pub struct R { #[tuplet(bigint, range(0, 9007199254740992))] pub x: u64 } },
        Derive::Record,
    );
    let floats = error(
        parse_quote! { pub struct R { #[tuplet(range(0.5, 3))] pub x: u8 } },
        Derive::Record,
    );
    assert!(floats.contains("takes int literals"), "{floats}");
}

#[test]
fn named_key_collisions() {
    let e = error(
        parse_quote! {
            pub struct R {
                #[tuplet(legacy = "b")]
                pub a: u8,
                pub b: u8,
            }
        },
        Derive::Record,
    );
    assert!(
        e.starts_with(
            "named-shape key `b`: the legacy alias of field `a` collides with the name of field `b`"
        ),
        "{e}"
    );
    // Case-sensitive: `B` and `b` are different keys.
    parse(
        parse_quote! {
            pub struct R { #[tuplet(legacy = "B")] pub a: u8, pub b: u8 }
        },
        Derive::Record,
    );
}

#[test]
fn enum_number_checks() {
    let dup = error(parse_quote! { pub enum E { A = 1, B = 1 } }, Derive::Enum);
    assert_eq!(dup, "number 1 is already used by variant `A`");
    let reserved = error(
        parse_quote! { #[tuplet(reserved = [2])] pub enum E { A = 1, B = 2 } },
        Derive::Enum,
    );
    assert!(reserved.starts_with("number 2 is reserved"), "{reserved}");
    let missing = error(parse_quote! { pub enum E { A = 1, B } }, Derive::Enum);
    assert!(
        missing.starts_with("variant `B` needs an explicit discriminant"),
        "{missing}"
    );
    let open = error(
        parse_quote! { #[tuplet(open)] pub enum E { A = 1 } },
        Derive::Enum,
    );
    assert!(
        open.starts_with("an open enum keeps unknown numbers"),
        "{open}"
    );
}

#[test]
fn rejected_items() {
    let generic = error(
        parse_quote! { pub struct R<T> { pub a: T } },
        Derive::Record,
    );
    assert!(
        generic.starts_with("tuplet types cannot be generic"),
        "{generic}"
    );
    let tuple = error(parse_quote! { pub struct R(u8); }, Derive::Record);
    assert!(
        tuple.starts_with("tuple structs are not supported"),
        "{tuple}"
    );
    let missing = error(
        parse_quote! { #[tuplet(id = 1)] pub struct M { pub a: u8 } },
        Derive::Message,
    );
    assert!(
        missing.starts_with("message `M` is missing `name`, `dir`"),
        "{missing}"
    );
}

#[test]
fn more_rejections() {
    let cases: Vec<(syn::DeriveInput, Derive, &str)> = vec![
        (
            parse_quote! { pub struct R { #[tuplet(range(0, 1), range(0, 2))] pub a: u8 } },
            Derive::Record,
            "duplicate tuplet key `range`",
        ),
        (
            parse_quote! { pub struct R { #[tuplet(item_len(max = 3))] pub a: Vec<u8> } },
            Derive::Record,
            "`item_len` applies to the String or Vec<u8> elements",
        ),
        (
            parse_quote! { pub struct R { #[tuplet(item_len(min = 3, max = 1))] pub a: Vec<String> } },
            Derive::Record,
            "`item_len` min 3 is above max 1",
        ),
        (
            parse_quote! { #[tuplet(entity(key = "name"))] pub struct R { pub name: String } },
            Derive::Record,
            "entity key `name` must be an int field; found `String`",
        ),
        (
            parse_quote! { #[tuplet(entity(key = "id"))] pub struct R { pub name: String } },
            Derive::Record,
            "entity key `id` names no field of this record; this record has no int field",
        ),
        (
            parse_quote! { pub enum D { Move(PlayerMove) } },
            Derive::Dispatch,
            "dispatch `D` is missing `dir`",
        ),
        (
            parse_quote! { #[tuplet(open)] pub struct F { #[tuplet(bit = 0)] pub a: bool } },
            Derive::Flags,
            "an open flag set keeps unknown bits",
        ),
        (
            parse_quote! { pub struct F { #[tuplet(bit = 0)] pub a: bool, #[tuplet(rest)] pub rest: u32 } },
            Derive::Flags,
            "`rest` keeps the unknown bits of an open flag set",
        ),
        (
            parse_quote! { pub struct F { pub a: bool } },
            Derive::Flags,
            "flag `a` needs its bit",
        ),
        (
            parse_quote! { pub enum E { A = 1, #[tuplet(unknown)] Unknown(i64) } },
            Derive::Enum,
            "`unknown` marks the catch-all of an open enum",
        ),
        (
            parse_quote! { #[tuplet(open)] pub enum E { A = 1, #[tuplet(unknown)] Unknown(u8) } },
            Derive::Enum,
            "the `unknown` variant of an open unit enum holds the number: `Unknown(i64)`",
        ),
        (
            parse_quote! { pub enum E { #[tuplet(tag = 1)] A = 1 } },
            Derive::Enum,
            "`tag` is for enums with data",
        ),
        (
            parse_quote! { pub struct R { pub a: Option<tuplet::Reserved> } },
            Derive::Record,
            "`tuplet::Reserved` is only valid as a whole field type",
        ),
        (
            parse_quote! { pub struct R { #[tuplet(legacy = ["x"])] pub a: [u8; 1] } },
            Derive::Record,
            "a legacy key list spreads a fixed array",
        ),
        (
            parse_quote! { pub struct R { #[tuplet(legacy = ["x", "y"])] pub a: Vec<u8> } },
            Derive::Record,
            "a legacy key list spreads a fixed array over one key per element; `Vec<u8>` is not",
        ),
        (
            parse_quote! { pub struct R { #[tuplet(quant = "cm", scale = 10)] pub a: f64 } },
            Derive::Record,
            "`quant` and `scale` are exclusive",
        ),
        (
            parse_quote! { pub struct R { #[tuplet(accept(rule = "x"))] pub a: f64 } },
            Derive::Record,
            "`accept` needs a `rule` and a `reason`",
        ),
        (
            parse_quote! { pub struct R { pub a: BTreeMap<f32, u8> } },
            Derive::Record,
            "map keys must be `String` or an int type",
        ),
        (
            parse_quote! { pub struct R { #[tuplet(open)] pub a: u8 } },
            Derive::Record,
            "unknown tuplet field key `open`",
        ),
    ];
    for (input, derive, want) in cases {
        let got = error(input, derive);
        assert!(got.starts_with(want), "want {want:?}, got {got:?}");
    }
}

#[test]
fn doc_lines_trim_one_space() {
    let item = parse(
        parse_quote! {
            ///  Two spaces keep one.
            ///No space.
            #[doc = " Third."]
            pub struct R {}
        },
        Derive::Record,
    );
    assert_eq!(item.doc, " Two spaces keep one.\nNo space.\nThird.");
}

/// Regression: an int range inside the internally tagged `TypeRef` could be written but not
/// read back (serde buffers tagged enums without i128 support).
#[test]
fn int_ranges_read_back_from_json() {
    let input: syn::DeriveInput = syn::parse_quote! {
        #[derive(tuplet::Record)]
        pub struct R {
            #[tuplet(range(-5, 5))] pub a: i8,
            #[tuplet(bigint)] pub b: u64,
            #[tuplet(range(0, 18446744073709551615), bigint)] pub c: u64,
        }
    };
    let item = tuplet_schema::parse_item(&input, tuplet_schema::Derive::Record).unwrap();
    let json = serde_json::to_string(&item).unwrap();
    let back: tuplet_schema::ir::Item = serde_json::from_str(&json).unwrap();
    assert_eq!(back, item);
}

#[test]
fn key_len_bounds_string_map_keys() {
    let item = parse(
        parse_quote! {
            pub struct R {
                #[tuplet(len(max = 8), key_len(min = 1, max = 16), item_len(max = 24))]
                pub tags: Option<BTreeMap<String, String>>,
            }
        },
        Derive::Record,
    );
    let TypeRef::Option { inner } = &fields(&item)[0].ty else {
        panic!()
    };
    let TypeRef::Map { key, value, len } = &**inner else {
        panic!()
    };
    let bounded = |min, max| Len {
        min: Some(min),
        max: Some(max),
    };
    assert_eq!(
        *len,
        Len {
            min: None,
            max: Some(8)
        }
    );
    assert_eq!(
        **key,
        TypeRef::String {
            len: bounded(1, 16)
        }
    );
    assert_eq!(
        **value,
        TypeRef::String {
            len: Len {
                min: None,
                max: Some(24)
            }
        }
    );

    for (input, want) in [
        (
            parse_quote! { pub struct R { #[tuplet(key_len(max = 4))] pub a: BTreeMap<u8, String> } },
            "`key_len` applies to the String keys of a BTreeMap; found `BTreeMap<u8, String>`",
        ),
        (
            parse_quote! { pub struct R { #[tuplet(key_len(max = 4))] pub a: Vec<String> } },
            "`key_len` applies to the String keys of a BTreeMap; found `Vec<String>`",
        ),
        (
            parse_quote! { pub struct R { #[tuplet(key_len(min = 5, max = 4))] pub a: BTreeMap<String, u8> } },
            "`key_len` min 5 is above max 4",
        ),
    ] {
        let e = error(input, Derive::Record);
        assert!(e.starts_with(want), "{e}");
    }
}

#[test]
fn an_optional_field_named_like_an_object_prototype_member_is_refused_and_a_required_one_is_not() {
    let e = error(
        parse_quote! {
            pub struct Odd {
                pub toString: Option<u8>,
            }
        },
        Derive::Record,
    );
    assert!(
        e.contains("an optional field cannot be named `toString`") && e.contains("legacy"),
        "{e}"
    );
    let item = parse(
        parse_quote! {
            pub struct Odd {
                pub toString: u8,
            }
        },
        Derive::Record,
    );
    assert_eq!(fields(&item)[0].name, "toString");
}

#[test]
fn interp_and_draw_reach_the_ir_and_the_plan() {
    let item = parse(
        parse_quote! {
            #[tuplet(name = "player:move", id = 1, dir = "s2c", interp(key = "s", sent = "t"))]
            pub struct M {
                #[tuplet(len = 9)] pub s: String,
                #[tuplet(draw = "hold")] pub flags: Option<u8>,
                #[tuplet(draw = "linear")] pub p: [f32; 3],
                #[tuplet(draw = "angle")] pub r: f32,
                pub t: u64,
                pub seq: Option<u32>,
            }
        },
        Derive::Message,
    );
    let ItemKind::Message(m) = &item.kind else {
        panic!("a message")
    };
    let interp = m.record.interp.as_ref().expect("interp parsed");
    assert_eq!(interp.key.as_deref(), Some("s"));
    assert_eq!(interp.clock, Clock::Sent { field: "t".into() });
    let draws: Vec<_> = m.record.fields().map(|f| f.draw).collect();
    assert_eq!(
        draws,
        [
            None,
            Some(Draw::Hold),
            Some(Draw::Linear),
            Some(Draw::Angle),
            None,
            None
        ]
    );
    // Channels: linear first, then angle, then hold, each in declaration order.
    let plan = tuplet_schema::interp::InterpPlan::of(&m.record).expect("a plan");
    assert_eq!(
        (plan.layout.linear, plan.layout.angle, plan.layout.hold),
        (3, 1, 1)
    );
    let at: Vec<_> = plan
        .drawn
        .iter()
        .map(|d| (d.field.name.as_str(), d.draw, d.offset))
        .collect();
    assert_eq!(
        at,
        [
            ("flags", Draw::Hold, 0),
            ("p", Draw::Linear, 0),
            ("r", Draw::Angle, 0)
        ]
    );
}

#[test]
fn a_record_interp_takes_the_entity_key_and_its_carriers_clock() {
    let item = parse(
        parse_quote! {
            #[tuplet(entity(key = "id"), interp)]
            pub struct E { pub id: u32, #[tuplet(draw = "hold")] pub anim: u8 }
        },
        Derive::Record,
    );
    let ItemKind::Record(r) = &item.kind else {
        panic!("a record")
    };
    let interp = r.interp.as_ref().expect("interp parsed");
    assert_eq!(interp.key.as_deref(), Some("id"));
    assert_eq!(interp.clock, Clock::Carrier);
    let e = error(
        parse_quote! {
            #[tuplet(entity(key = "id"), interp(tick = "t", rate = 20))]
            pub struct E { pub id: u32, pub t: u32, #[tuplet(draw = "hold")] pub anim: u8 }
        },
        Derive::Record,
    );
    assert!(
        e.contains("take the time of the message carrying them"),
        "{e}"
    );
}

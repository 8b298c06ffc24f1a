//! Encoding enums, unit or with data, for `encode`: a variant by name or number in either
//! shape, an open enum's unknown numbers, and (unchecked) names and tags no variant has.

use serde_json::Value;
use tuplet::__private_0_1 as rt;
use tuplet::wire::write;
use tuplet::Error;
use tuplet_schema::ir::{Enum, VariantFields};
use tuplet_schema::plan::{Form as Shape, TAG_MAX};

use super::common::names;
use super::encode::{raw, Enc};
use super::leaf::{json_int, write_i128};

impl Enc<'_> {
    pub(super) fn unit_enum(&self, e: &Enum, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        match v {
            Value::String(s) => match e.variants.iter().find(|x| &x.name == s) {
                Some(x) => match self.shape {
                    Shape::Compact => write::int(out, x.number),
                    Shape::Named => write::str(out, &x.name),
                },
                None if self.checked => return self.fail(rt::unknown_name(s, &names(&e.variants))),
                None => write::str(out, s),
            },
            Value::Number(_) => {
                let Some(n) = json_int(v) else {
                    return self.mismatch("variant name or number", v, out);
                };
                if !self.checked {
                    write_i128(out, n);
                    return Ok(());
                }
                let Ok(n) = i64::try_from(n) else {
                    return self
                        .fail(rt::check_int(n, i64::MIN as i128, i64::MAX as i128).unwrap_err());
                };
                match e.variants.iter().find(|x| x.number == n) {
                    Some(x) => match self.shape {
                        Shape::Compact => write::int(out, x.number),
                        Shape::Named => write::str(out, &x.name),
                    },
                    None if e.unknown.is_some() => write::int(out, n),
                    None => return self.fail(rt::unknown_number(n)),
                }
            }
            _ => return self.mismatch("variant name", v, out),
        }
        Ok(())
    }

    pub(super) fn data_enum(&self, e: &Enum, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        if let Some(bytes) = raw(v).filter(|_| !self.checked) {
            out.extend_from_slice(&bytes);
            return Ok(());
        }
        let Some(o) = v.as_object() else {
            return self.mismatch("object with a kind", v, out);
        };
        let kind = o.get("kind").and_then(Value::as_str).unwrap_or("");
        let Some(var) = e.variants.iter().find(|x| x.name == kind) else {
            if kind == "unknown" {
                let tag = o.get("tag").and_then(json_int);
                match tag {
                    Some(t) if !self.checked => {
                        write::array_len(out, 1);
                        write_i128(out, t);
                        return Ok(());
                    }
                    Some(t) if (0..=TAG_MAX as i128).contains(&t) => {
                        if e.unknown.is_none() || e.variants.iter().any(|x| x.number as i128 == t) {
                            return self.fail(rt::unknown_number(t as i64));
                        }
                        write::array_len(out, 1);
                        write::uint(out, t as u64);
                        return Ok(());
                    }
                    Some(t) => {
                        return self.fail(rt::check_int(t, 0, TAG_MAX as i128).unwrap_err());
                    }
                    None => return self.mismatch("tag", v, out),
                }
            }
            if self.checked {
                return self.fail(rt::unknown_name(kind, &names(&e.variants)));
            }
            match self.shape {
                Shape::Compact => {
                    write::array_len(out, 1);
                    write::str(out, kind);
                }
                Shape::Named => {
                    write::map_len(out, 1);
                    write::str(out, kind);
                    write::map_len(out, 0);
                }
            }
            return Ok(());
        };
        let tag = var.number as u64;
        match (&var.fields, self.shape) {
            (VariantFields::Unit, Shape::Compact) => {
                write::array_len(out, 1);
                write::uint(out, tag);
            }
            (VariantFields::Unit, Shape::Named) => {
                write::map_len(out, 1);
                write::str(out, &var.name);
                write::map_len(out, 0);
            }
            (VariantFields::Newtype { field }, shape) => {
                let x = match o.get("value") {
                    Some(x) => x,
                    None if self.checked => return self.fail(rt::missing("value")),
                    None => &Value::Null,
                };
                match shape {
                    Shape::Compact => {
                        write::array_len(out, 2);
                        write::uint(out, tag);
                    }
                    Shape::Named => {
                        write::map_len(out, 1);
                        write::str(out, &var.name);
                    }
                }
                self.value(&field.ty, x, out)?;
            }
            (VariantFields::Struct { record }, Shape::Compact) => {
                self.compact_body(&record.slots, o, Some(tag), out)?;
            }
            (VariantFields::Struct { record }, Shape::Named) => {
                write::map_len(out, 1);
                write::str(out, &var.name);
                self.named_body(&record.slots, o, out)?;
            }
        }
        Ok(())
    }
}

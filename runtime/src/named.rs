//! The named shape's decode, table-driven: one non-generic loop over a record's map entries
//! (the key lookup, duplicate keys, unknown keys skipped, each value's path step) driven by a
//! static [`NamedShape`] the derive emits per record. The derive keeps only what is typed:
//! a closure that reads one field's value into its local, and the missing-field checks.

use crate::error::Error;
use crate::support::duplicate;
use crate::wire::Reader;

/// What one key fills: a whole field, or one element of an array spread over keys.
#[derive(Debug, Clone, Copy)]
pub struct NamedTarget {
    /// The field's canonical name (the path step of errors).
    pub field: &'static str,
    /// The field's first target (its whole value); its elements follow it.
    pub first: u16,
    /// How many targets the field has: 1, plus one per spread element.
    pub count: u16,
    /// The spread element this target holds; `None` for the whole field.
    pub elem: Option<u16>,
}

/// A record's named shape: its keys in the order a decoder tries them (the first key that
/// matches wins) and the target each fills.
#[derive(Debug, Clone, Copy)]
pub struct NamedShape {
    /// Each key and the index of its target in `targets`.
    pub keys: &'static [(&'static str, u16)],
    /// Every target, fields in slot order, each field's whole value before its elements.
    pub targets: &'static [NamedTarget],
}

/// Reads one target's value (`read(r, target)`): the derive's closure per record, passed as
/// `&mut dyn NamedRead` rather than `&mut dyn FnMut` so that its vtable holds only this
/// method (a `dyn FnMut`'s also holds `call_once` and its shim, two functions per record).
pub trait NamedRead<'a> {
    /// Reads the value of `target` into its local.
    fn read(&mut self, r: &mut Reader<'a>, target: usize) -> Result<(), Error>;
}

impl<'a, F: FnMut(&mut Reader<'a>, usize) -> Result<(), Error>> NamedRead<'a> for F {
    fn read(&mut self, r: &mut Reader<'a>, target: usize) -> Result<(), Error> {
        self(r, target)
    }
}

/// Reads the `n` entries of a record's named map (header already read): each key's value is
/// read by `read.read(r, target)`, its errors gaining the field's path step (and the element's);
/// unknown keys are skipped; a key whose field (or element) was already given is
/// `duplicate_key` (an alias and its canonical name included). `seen` holds one flag per
/// target, all false (the caller's stack array: a decode allocates only what it returns).
pub fn read_named<'a>(
    r: &mut Reader<'a>,
    n: u32,
    shape: &NamedShape,
    seen: &mut [bool],
    read: &mut dyn NamedRead<'a>,
) -> Result<(), Error> {
    for _ in 0..n {
        let key = r.read_str(0, u32::MAX)?;
        let Some(&(_, t)) = shape.keys.iter().find(|(k, _)| *k == key) else {
            r.skip_value()?;
            continue;
        };
        let t = usize::from(t);
        let d = shape.targets[t];
        let first = usize::from(d.first);
        let dup = match d.elem {
            None => seen[first..first + usize::from(d.count)].contains(&true),
            Some(_) => seen[first] || seen[t],
        };
        if dup {
            return Err(duplicate(key).in_field(d.field));
        }
        seen[t] = true;
        if let Err(e) = read.read(r, t) {
            return Err(match d.elem {
                None => e.in_field(d.field),
                Some(i) => e.in_index(usize::from(i)).in_field(d.field),
            });
        }
    }
    Ok(())
}

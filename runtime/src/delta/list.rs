//! Entity lists: the keyed part of a delta. A list field of a delta message whose element
//! is an [`Entity`] travels as a flat array of entries (WIRE.md, "Delta snapshots"):
//! a whole record (an array) for an entity entering view, `key, mask, values…` for a
//! changed one, `key, 0` for one that left. Baselines and mirrors keep such lists sorted by
//! key, so both sides walk them in one pass.

use std::marker::PhantomData;

use super::entity::{no_baseline, probe_mask, Entity};
use crate::error::Error;
use crate::support::duplicate;
use crate::wire::{write, Kind, Reader};

/// Sorts an entity list by key; a key present twice is `duplicate_key` at the second one.
pub fn sort_entities<E: Entity>(list: &mut [E]) -> Result<(), Error> {
    list.sort_by_key(|e| e.key());
    for (i, w) in list.windows(2).enumerate() {
        if w[0].key() == w[1].key() {
            return Err(duplicate(w[1].key()).in_field(E::KEY).in_index(i + 1));
        }
    }
    Ok(())
}

/// Appends the entries that turn `base` (sorted by key) into `cur` (any order) and makes
/// `base` a key-sorted copy of `cur`. Returns whether any entry was written (nothing is
/// written, not even the array header, when the lists are wire-equal). On an error `base`
/// is left empty and `out` may hold a partial array: the caller discards both.
pub fn encode_entities<E: Entity>(
    cur: &[E],
    base: &mut Vec<E>,
    out: &mut Vec<u8>,
) -> Result<bool, Error> {
    let mut order: Vec<usize> = (0..cur.len()).collect();
    order.sort_by_key(|&i| cur[i].key());
    for w in order.windows(2) {
        if cur[w[0]].key() == cur[w[1]].key() {
            return Err(duplicate(cur[w[1]].key()).in_field(E::KEY).in_index(w[1]));
        }
    }
    let start = out.len();
    let mut count: u32 = 0;
    let old = std::mem::take(base);
    let mut next = Vec::with_capacity(cur.len());
    let mut old = old.into_iter().peekable();
    let mut order = order.into_iter().peekable();
    loop {
        let step = match (order.peek(), old.peek()) {
            (None, None) => break,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(&i), Some(o)) => cur[i].key().cmp(&o.key()),
        };
        match step {
            std::cmp::Ordering::Less => {
                let i = order.next().unwrap_or_default();
                cur[i].encode_compact(out).map_err(|e| e.in_index(i))?;
                count += 1;
                next.push(cur[i].clone());
            }
            std::cmp::Ordering::Greater => {
                if let Some(o) = old.next() {
                    E::write_key(o.key(), out);
                    write::uint(out, 0);
                    count += 2;
                }
            }
            std::cmp::Ordering::Equal => {
                let i = order.next().unwrap_or_default();
                let Some(o) = old.next() else { break };
                let at = out.len();
                E::write_key(o.key(), out);
                let n = cur[i].encode_changes(&o, out).map_err(|e| e.in_index(i))?;
                if n == 0 {
                    out.truncate(at);
                    next.push(o);
                } else {
                    count += 1 + n;
                    next.push(cur[i].clone());
                }
            }
        }
    }
    *base = next;
    if count == 0 {
        return Ok(false);
    }
    let mut header = Vec::with_capacity(5);
    write::array_len(&mut header, count);
    out.splice(start..start, header);
    Ok(true)
}

/// Reads one entity list's entries and applies them to `mirror` (sorted by key): a whole
/// record enters or replaces, `key, mask, values…` changes, `key, 0` removes. A change or
/// removal of a key the mirror lacks is `no_baseline`.
pub fn apply_entities<E: Entity>(mirror: &mut Vec<E>, r: &mut Reader<'_>) -> Result<(), Error> {
    let n = r.read_array_len()?;
    let mut i = 0u32;
    while i < n {
        let at = i as usize;
        if r.peek_kind()? == Kind::Array {
            let e = E::decode(r).map_err(|e| e.in_index(at))?;
            match mirror.binary_search_by_key(&e.key(), |x| x.key()) {
                Ok(p) => mirror[p] = e,
                Err(p) => mirror.insert(p, e),
            }
            i += 1;
            continue;
        }
        if n - i < 2 {
            return Err(entry_cut(n));
        }
        let key = E::read_key(r).map_err(|e| e.in_index(at))?;
        let mask = r.read_u64(0, u64::MAX).map_err(|e| e.in_index(at + 1))?;
        i += 2;
        let p = mirror
            .binary_search_by_key(&key, |x| x.key())
            .map_err(|_| no_baseline(format_args!("entity {key}")).in_index(at))?;
        if mask == 0 {
            mirror.remove(p);
            continue;
        }
        if n - i < mask.count_ones() {
            return Err(entry_cut(n));
        }
        mirror[p]
            .apply_changes(mask, r)
            .map_err(|e| e.in_index(at + 2))?;
        i += mask.count_ones();
    }
    r.leave();
    Ok(())
}

/// Reads one entity list's entries as [`apply_entities`] does, against no baseline and
/// applying nothing (what `delta::probe` asks of a delta's entity list).
pub fn probe_entities<E: Entity>(r: &mut Reader<'_>) -> Result<(), Error> {
    let n = r.read_array_len()?;
    let mut i = 0u32;
    while i < n {
        if r.peek_kind()? == Kind::Array {
            E::decode(r)?;
            i += 1;
            continue;
        }
        if n - i < 2 {
            return Err(entry_cut(n));
        }
        E::read_key(r)?;
        let mask = probe_mask(r)?;
        i += 2;
        if mask == 0 {
            continue;
        }
        if n - i < mask.count_ones() {
            return Err(entry_cut(n));
        }
        E::probe_changes(mask, r)?;
        i += mask.count_ones();
    }
    r.leave();
    Ok(())
}

#[cold]
fn entry_cut(n: u32) -> Error {
    Error::new(
        crate::error::Code::WrongLength,
        format!("{n} elements end inside an entry"),
    )
}

/// Picks the keyed path for lists of entities and "not an entity list" for anything else,
/// at compile time, for the derive of a delta message (which sees `Vec<T>` but not whether
/// `T` is an entity). Call the methods on `&EntityProbe::<T>::new()`: the impl for entities
/// takes `&self` and wins; the fallback takes `&&self` and answers `None`.
pub struct EntityProbe<T>(PhantomData<T>);

impl<T> EntityProbe<T> {
    /// A probe for element type `T`.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        EntityProbe(PhantomData)
    }
}

/// The keyed operations, for entity element types.
pub trait KeyedList<T> {
    /// [`encode_entities`].
    fn entities_encode(
        &self,
        cur: &[T],
        base: &mut Vec<T>,
        out: &mut Vec<u8>,
    ) -> Option<Result<bool, Error>>;
    /// [`apply_entities`].
    fn entities_apply(&self, mirror: &mut Vec<T>, r: &mut Reader<'_>) -> Option<Result<(), Error>>;
    /// [`sort_entities`].
    fn entities_sort(&self, list: &mut [T]) -> Option<Result<(), Error>>;
    /// [`probe_entities`].
    fn entities_probe(&self, r: &mut Reader<'_>) -> Option<Result<(), Error>>;
}

impl<T: Entity> KeyedList<T> for EntityProbe<T> {
    #[inline]
    fn entities_encode(
        &self,
        cur: &[T],
        base: &mut Vec<T>,
        out: &mut Vec<u8>,
    ) -> Option<Result<bool, Error>> {
        Some(encode_entities(cur, base, out))
    }
    #[inline]
    fn entities_apply(&self, mirror: &mut Vec<T>, r: &mut Reader<'_>) -> Option<Result<(), Error>> {
        Some(apply_entities(mirror, r))
    }
    #[inline]
    fn entities_sort(&self, list: &mut [T]) -> Option<Result<(), Error>> {
        Some(sort_entities(list))
    }
    #[inline]
    fn entities_probe(&self, r: &mut Reader<'_>) -> Option<Result<(), Error>> {
        Some(probe_entities::<T>(r))
    }
}

/// The fallback: a list of anything else changes whole.
pub trait WholeList<T> {
    /// Always `None`.
    fn entities_encode(
        &self,
        cur: &[T],
        base: &mut Vec<T>,
        out: &mut Vec<u8>,
    ) -> Option<Result<bool, Error>>;
    /// Always `None`.
    fn entities_apply(&self, mirror: &mut Vec<T>, r: &mut Reader<'_>) -> Option<Result<(), Error>>;
    /// Always `None`.
    fn entities_sort(&self, list: &mut [T]) -> Option<Result<(), Error>>;
    /// Always `None`.
    fn entities_probe(&self, r: &mut Reader<'_>) -> Option<Result<(), Error>>;
}

impl<T> WholeList<T> for &EntityProbe<T> {
    #[inline]
    fn entities_encode(
        &self,
        _: &[T],
        _: &mut Vec<T>,
        _: &mut Vec<u8>,
    ) -> Option<Result<bool, Error>> {
        None
    }
    #[inline]
    fn entities_apply(&self, _: &mut Vec<T>, _: &mut Reader<'_>) -> Option<Result<(), Error>> {
        None
    }
    #[inline]
    fn entities_sort(&self, _: &mut [T]) -> Option<Result<(), Error>> {
        None
    }
    #[inline]
    fn entities_probe(&self, _: &mut Reader<'_>) -> Option<Result<(), Error>> {
        None
    }
}

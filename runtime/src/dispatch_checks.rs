//! The compile-time checks of a dispatch enum, evaluated in a constant the derive emits:
//! every message travels in the enum's direction, ids and names are unique, reserved ones
//! are unused. Each step of a constant is interpreted, so the checks are linear in the
//! number of messages, and the text of a broken rule is built once, by
//! [`dispatch_problem`].

use crate::codec::Dir;

/// What a dispatch enum declares, for [`dispatch_problem`]: per message (in variant order)
/// whether its own derive failed, its direction, id, name and type path as written.
pub struct DispatchRules<'a> {
    /// The enum's name.
    pub enum_name: &'a str,
    /// The enum's direction.
    pub dir: Dir,
    /// Per message: whether its derive failed (then nothing is checked: its error is the
    /// one to read).
    pub failed: &'a [bool],
    /// Per message: its direction.
    pub dirs: &'a [Dir],
    /// Per message: its id.
    pub ids: &'a [u32],
    /// Per message: its wire name.
    pub names: &'a [&'a str],
    /// Per message: its type path as written in the enum.
    pub paths: &'a [&'a str],
    /// The enum's reserved ids.
    pub reserved_ids: &'a [u32],
    /// The enum's reserved names.
    pub reserved_names: &'a [&'a str],
    /// The reserved names as the error shows them (quoted and escaped).
    pub reserved_shown: &'a [&'a str],
}

/// The first rule `rules` breaks, as the index of the variant to point at and the text of
/// the error; `None` when every rule holds. Direction first (a message of the other
/// direction may share an id with one of this direction, and the direction is the real
/// mistake), then unique ids, unique names, reserved ids and reserved names.
pub const fn dispatch_problem(rules: &DispatchRules) -> Option<(usize, ConstText)> {
    if any(rules.failed) {
        return None;
    }
    let enum_name = rules.enum_name;
    let mut i = 0;
    while i < rules.dirs.len() {
        if !dir_fits(rules.dirs[i], rules.dir) {
            let dir = rules.dir.as_str();
            let t = ConstText::new().str("tuplet: `").str(rules.paths[i]);
            let t = t
                .str("` does not travel ")
                .str(dir)
                .str(", but it is in the ");
            let t = t.str(dir).str(" dispatch enum `").str(enum_name).str("`");
            return Some((i, t));
        }
        i += 1;
    }
    if let Some((a, i)) = first_duplicate_id(rules.ids) {
        let t = both(rules, a, i)
            .str("` both have id ")
            .num(rules.ids[i] as u64);
        let t = t.str("; give one of them a new id (ids are unique per direction)");
        return Some((i, t));
    }
    if let Some((a, i)) = first_duplicate_name(rules.names) {
        let t = both(rules, a, i)
            .str("` are both named \"")
            .str(rules.names[i]);
        let t = t.str("\"; rename one of them (names are unique per direction)");
        return Some((i, t));
    }
    let mut r = 0;
    while r < rules.reserved_ids.len() {
        let id = rules.reserved_ids[r];
        let mut i = 0;
        while i < rules.ids.len() {
            if rules.ids[i] == id {
                let t = ConstText::new().str("tuplet: `").str(rules.paths[i]);
                let t = t.str("` uses id ").num(id as u64);
                return Some((i, reserved(t, enum_name).str("pick a new id")));
            }
            i += 1;
        }
        r += 1;
    }
    let mut r = 0;
    while r < rules.reserved_names.len() {
        let mut i = 0;
        while i < rules.names.len() {
            if str_eq(rules.names[i], rules.reserved_names[r]) {
                let t = ConstText::new().str("tuplet: `").str(rules.paths[i]);
                let t = t.str("` is named ").str(rules.reserved_shown[r]);
                return Some((i, reserved(t, enum_name).str("pick a new name")));
            }
            i += 1;
        }
        r += 1;
    }
    None
}

/// "tuplet: `later` and `earlier` in `Enum": the start of a duplicate's text.
const fn both(rules: &DispatchRules, earlier: usize, later: usize) -> ConstText {
    let t = ConstText::new()
        .str("tuplet: `")
        .str(rules.paths[later])
        .str("` and `");
    t.str(rules.paths[earlier])
        .str("` in `")
        .str(rules.enum_name)
}

/// `t` with ", reserved in `Enum` (a removed message); ": the middle of a reserved value's text.
const fn reserved(t: ConstText, enum_name: &str) -> ConstText {
    t.str(", reserved in `")
        .str(enum_name)
        .str("` (a removed message); ")
}

/// Slots of the open-addressing table the duplicate finders fill in a constant: a power of
/// two at least twice the entries it takes ([`SEEN_MAX`]).
const SEEN_SLOTS: usize = 1 << 12;

/// The most entries the duplicate finders hash; longer lists are compared pairwise.
const SEEN_MAX: usize = SEEN_SLOTS / 2;

/// The first pair `(earlier, later)` of indices whose
/// ids are equal (the smallest `later` that repeats an id, and that id's first index).
///
/// Evaluated in a constant, where each step is interpreted: a table of the ids seen so far
/// keeps it linear (a pairwise scan of a 150-message enum, repeated for every reserved id,
/// took seconds of a build).
pub const fn first_duplicate_id(ids: &[u32]) -> Option<(usize, usize)> {
    if ids.len() > SEEN_MAX {
        return pairwise(ids.len(), ids, &[]);
    }
    // Slot value: index + 1 of the first entry hashed there, 0 when empty.
    let mut seen = [0u16; SEEN_SLOTS];
    let mut i = 0;
    while i < ids.len() {
        let mut slot = (ids[i].wrapping_mul(0x9E37_79B1) >> 20) as usize;
        loop {
            let held = seen[slot] as usize;
            if held == 0 {
                seen[slot] = (i + 1) as u16;
                break;
            }
            if ids[held - 1] == ids[i] {
                return Some((held - 1, i));
            }
            slot = (slot + 1) % SEEN_SLOTS;
        }
        i += 1;
    }
    None
}

/// The first pair `(earlier, later)` of indices whose
/// names are equal (the smallest `later` that repeats a name, and that name's first
/// index). Linear, as [`first_duplicate_id`].
pub const fn first_duplicate_name(names: &[&str]) -> Option<(usize, usize)> {
    if names.len() > SEEN_MAX {
        return pairwise(names.len(), &[], names);
    }
    let mut seen = [0u16; SEEN_SLOTS];
    let mut i = 0;
    while i < names.len() {
        let mut slot = (fnv1a(names[i]) >> 52) as usize;
        loop {
            let held = seen[slot] as usize;
            if held == 0 {
                seen[slot] = (i + 1) as u16;
                break;
            }
            if str_eq(names[held - 1], names[i]) {
                return Some((held - 1, i));
            }
            slot = (slot + 1) % SEEN_SLOTS;
        }
        i += 1;
    }
    None
}

/// The pairwise scan the duplicate finders fall back to past [`SEEN_MAX`] entries: over the
/// first `n` of `ids`, or of `names` when `ids` is empty.
const fn pairwise(n: usize, ids: &[u32], names: &[&str]) -> Option<(usize, usize)> {
    let mut i = 0;
    while i < n {
        let mut j = 0;
        while j < i {
            let same = if ids.is_empty() {
                str_eq(names[j], names[i])
            } else {
                ids[j] == ids[i]
            };
            if same {
                return Some((j, i));
            }
            j += 1;
        }
        i += 1;
    }
    None
}

/// FNV-1a, 64 bits, of `s`'s bytes: the duplicate-name table's hash.
const fn fnv1a(s: &str) -> u64 {
    let s = s.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < s.len() {
        h = (h ^ s[i] as u64).wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    h
}

/// Compile-time text for the derive's assertions: a const panic prints one `&str`, so a
/// message naming both messages and the id is built here. Longer text is cut at 512 bytes.
pub struct ConstText {
    buf: [u8; 512],
    len: usize,
}

impl ConstText {
    /// Empty text.
    pub const fn new() -> Self {
        ConstText {
            buf: [0; 512],
            len: 0,
        }
    }

    /// Appends `s`.
    pub const fn str(mut self, s: &str) -> Self {
        let s = s.as_bytes();
        let mut i = 0;
        while i < s.len() && self.len < self.buf.len() {
            self.buf[self.len] = s[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    /// Appends `n` in decimal.
    pub const fn num(mut self, n: u64) -> Self {
        let mut digits = [0u8; 20];
        let (mut n, mut k) = (n, digits.len());
        loop {
            k -= 1;
            digits[k] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while k < digits.len() && self.len < self.buf.len() {
            self.buf[self.len] = digits[k];
            self.len += 1;
            k += 1;
        }
        self
    }

    /// The text (up to the last whole character, if it was cut).
    pub const fn as_str(&self) -> &str {
        let (text, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(text) {
            Ok(s) => s,
            Err(e) => match core::str::from_utf8(text.split_at(e.valid_up_to()).0) {
                Ok(s) => s,
                Err(_) => "",
            },
        }
    }
}

impl Default for ConstText {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether any of `flags` is set (a flat list, where a
/// chain of `||` over every message would nest one expression per message).
pub const fn any(flags: &[bool]) -> bool {
    let mut i = 0;
    while i < flags.len() {
        if flags[i] {
            return true;
        }
        i += 1;
    }
    false
}

/// Compile-time string equality.
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether a message of direction `msg` may sit in a dispatch enum of
/// direction `dispatch`.
pub const fn dir_fits(msg: Dir, dispatch: Dir) -> bool {
    matches!(
        (msg, dispatch),
        (Dir::Both, _) | (Dir::C2s, Dir::C2s) | (Dir::S2c, Dir::S2c)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn const_text_joins_text_and_numbers() {
        const T: ConstText = ConstText::new().str("id ").num(0).str(", ").num(u64::MAX);
        assert_eq!(T.as_str(), "id 0, 18446744073709551615");
        let long = ConstText::new().str(&"é".repeat(300));
        assert_eq!(long.as_str(), "é".repeat(256));
    }

    fn rules<'a>(dirs: &'a [Dir], ids: &'a [u32], names: &'a [&'a str]) -> DispatchRules<'a> {
        DispatchRules {
            enum_name: "ClientMessage",
            dir: Dir::C2s,
            failed: &[false, false, false],
            dirs,
            ids,
            names,
            paths: &["A", "B", "C"],
            reserved_ids: &[11, 12],
            reserved_names: &["x:old"],
            reserved_shown: &["\"x:old\""],
        }
    }

    fn problem(rules: &DispatchRules) -> Option<(usize, String)> {
        dispatch_problem(rules).map(|(i, t)| (i, t.as_str().to_owned()))
    }

    /// Each rule's text, at the variant it names, in the order the rules are checked.
    #[test]
    fn problems_name_the_variant_and_the_fix() {
        let c2s = [Dir::C2s, Dir::Both, Dir::C2s];
        assert_eq!(problem(&rules(&c2s, &[1, 2, 3], &["a", "b", "c"])), None);
        let wrong = [Dir::C2s, Dir::S2c, Dir::C2s];
        assert_eq!(
            problem(&rules(&wrong, &[1, 1, 1], &["a", "a", "a"])),
            Some((1, "tuplet: `B` does not travel c2s, but it is in the c2s dispatch enum `ClientMessage`".into()))
        );
        assert_eq!(
            problem(&rules(&c2s, &[1, 2, 1], &["a", "a", "c"])),
            Some((2, "tuplet: `C` and `A` in `ClientMessage` both have id 1; give one of them a new id (ids are unique per direction)".into()))
        );
        assert_eq!(
            problem(&rules(&c2s, &[1, 2, 3], &["a", "c", "c"])),
            Some((2, "tuplet: `C` and `B` in `ClientMessage` are both named \"c\"; rename one of them (names are unique per direction)".into()))
        );
        assert_eq!(
            problem(&rules(&c2s, &[1, 12, 11], &["a", "b", "x:old"])),
            Some((2, "tuplet: `C` uses id 11, reserved in `ClientMessage` (a removed message); pick a new id".into()))
        );
        assert_eq!(
            problem(&rules(&c2s, &[1, 2, 3], &["a", "x:old", "c"])),
            Some((1, "tuplet: `B` is named \"x:old\", reserved in `ClientMessage` (a removed message); pick a new name".into()))
        );
        let mut failed = rules(&wrong, &[1, 1, 1], &["a", "a", "a"]);
        failed.failed = &[false, true, false];
        assert_eq!(problem(&failed), None);
    }

    #[test]
    fn duplicates_name_both_indices() {
        assert_eq!(first_duplicate_id(&[4, 7, 9, 7]), Some((1, 3)));
        assert_eq!(first_duplicate_name(&["a", "b", "a"]), Some((0, 2)));
        assert_eq!(first_duplicate_id(&[1, 2]), None);
    }

    /// The hashed finders agree with a pairwise scan, on lists with and without repeats,
    /// past the table's size too (where they are the pairwise scan).
    #[test]
    fn hashed_duplicates_agree_with_pairwise() {
        let mut x = 7u64;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as u32
        };
        for len in [0, 1, 2, 3, 50, 300, SEEN_MAX, SEEN_MAX + 5] {
            for spread in [4, 1000, u32::MAX] {
                let ids: Vec<u32> = (0..len).map(|_| next() % spread).collect();
                assert_eq!(
                    first_duplicate_id(&ids),
                    pairwise(ids.len(), &ids, &[]),
                    "{len} {spread}"
                );
                let owned: Vec<String> = ids.iter().map(|i| format!("m:{i}")).collect();
                let names: Vec<&str> = owned.iter().map(String::as_str).collect();
                assert_eq!(
                    first_duplicate_name(&names),
                    pairwise(names.len(), &[], &names)
                );
                // Distinct entries: no pair.
                let distinct: Vec<u32> = (0..len as u32).map(|i| i.wrapping_mul(4096)).collect();
                assert_eq!(first_duplicate_id(&distinct), None);
            }
        }
        // The first repeat wins, paired with its first occurrence.
        assert_eq!(first_duplicate_id(&[5, 6, 6, 5]), Some((1, 2)));
        assert_eq!(
            first_duplicate_name(&["a", "b", "c", "b", "a"]),
            Some((1, 3))
        );
    }
}

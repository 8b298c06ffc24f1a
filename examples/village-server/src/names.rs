//! Display names: normalized, refused when they hide anything, and compared by what they
//! look like.
//!
//! A name is NFKC-normalized (fullwidth and other compatibility forms become the plain
//! letters), its spaces collapsed, and refused when it holds a control character, an
//! invisible one (zero-width spaces and joiners, soft hyphens, variation selectors, tags:
//! Unicode's default-ignorable code points) or a direction override or isolate, or when it
//! is empty or over 24 bytes. Two names are the same name when their UTS #39 confusables
//! skeletons ([`unicode_security::skeleton`]), lowercased, are equal: `Fay`, `fay` and
//! `Fаy` (a Cyrillic `а`) are one name.

use unicode_normalization::UnicodeNormalization;

/// Longest name, bytes (the protocol's `len(max = 24)`).
pub const MAX_NAME: usize = 24;

/// Why a name was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameError {
    /// A control, invisible or direction character.
    Hidden,
    /// Empty after normalization, or over [`MAX_NAME`] bytes.
    Length,
}

/// Whether `c` shows nothing or changes how text around it is drawn: controls, and
/// Unicode's Default_Ignorable_Code_Point set with the bidirectional controls.
pub fn is_hidden(c: char) -> bool {
    let u = c as u32;
    c.is_control()
        || matches!(
            u,
            0x00AD
                | 0x034F
                | 0x061C
                | 0x115F..=0x1160
                | 0x17B4..=0x17B5
                | 0x180B..=0x180F
                | 0x200B..=0x200F
                | 0x2028..=0x202E
                | 0x2060..=0x206F
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF0..=0xFFFB
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0000..=0xE0FFF
        )
}

/// The name shown for `raw`: normalized, or refused.
pub fn clean(raw: &str) -> Result<String, NameError> {
    let nfkc: String = raw.nfkc().collect();
    if nfkc.chars().any(is_hidden) {
        return Err(NameError::Hidden);
    }
    let name = nfkc.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() || name.len() > MAX_NAME {
        return Err(NameError::Length);
    }
    Ok(name)
}

/// What a name looks like: two names with the same key are the same name.
pub fn key(name: &str) -> String {
    let skeleton: String = unicode_security::skeleton(name).collect();
    skeleton.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_refused() {
        for bad in [
            "Fa\u{200B}y",  // zero-width space
            "Fay\u{202E}",  // right-to-left override
            "Fa\u{2066}y",  // left-to-right isolate
            "Fay\nAdmin",   // newline
            "F\u{00AD}ay",  // soft hyphen
            "Fay\u{E0041}", // tag character
            "Fa\u{FE0F}y",  // variation selector
            "\u{200D}",     // zero-width joiner
        ] {
            assert_eq!(clean(bad), Err(NameError::Hidden), "{bad:?}");
        }
        assert_eq!(clean("   "), Err(NameError::Length));
        assert_eq!(clean(&"x".repeat(25)), Err(NameError::Length));
    }

    #[test]
    fn names_are_normalized() {
        assert_eq!(clean("  Ana   Lu ").unwrap(), "Ana Lu");
        assert_eq!(clean("Ｆａｙ").unwrap(), "Fay", "fullwidth");
        assert_eq!(clean("Zoë").unwrap(), "Zo\u{eb}");
        assert_eq!(clean("Zoe\u{308}").unwrap(), "Zo\u{eb}", "composed");
    }

    #[test]
    fn look_alikes_share_a_key() {
        assert_eq!(key("Fay"), key("fay"));
        assert_eq!(key("Fay"), key("F\u{430}y"), "Cyrillic a");
        assert_eq!(key("paypal"), key("p\u{430}yp\u{430}l"));
        assert_eq!(key("l0l"), key("lOl"), "zero and O");
        assert_ne!(key("Fay"), key("Kay"));
    }
}

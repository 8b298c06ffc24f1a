//! Display names: normalized, refused when they hide anything or mix scripts, and compared
//! by what they look like. Every rule is Unicode's own, from maintained crates, not a
//! hand-written list.
//!
//! A name is NFKC-normalized (fullwidth and other compatibility forms become the plain
//! letters, `e` and a combining diaeresis become `ë`) and its spaces collapsed. It is then
//! refused ([`NameError::Hidden`]) when a character other than the space is not allowed
//! in identifiers by UTS #39's General Security Profile
//! ([`unicode_security::GeneralSecurityProfile`]: controls, invisible and default-ignorable
//! characters, direction controls, blank symbols such as U+2800, emoji and other symbols)
//! or is a combining mark shared by every script (Script=Inherited: marks that NFKC could
//! not fold into a letter, stacked diacritics); refused ([`NameError::Confusable`]) when
//! it mixes scripts (UTS #39 single-script, so `Fаy` with a Cyrillic `а` is refused); and
//! refused when empty or over 24 bytes. Two names are the same name when their UTS #39
//! confusables skeletons ([`unicode_security::skeleton`]), lowercased, are equal: `Fay`,
//! `fay` and `FAY` are one name, and so are the Latin `ape` and the Cyrillic `аре`.

use unicode_normalization::UnicodeNormalization;
use unicode_script::{Script, UnicodeScript};
use unicode_security::{GeneralSecurityProfile, MixedScript};

/// Longest name, bytes (the protocol's `len(max = 24)`).
pub const MAX_NAME: usize = 24;

/// Why a name was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameError {
    /// A character not allowed in identifiers (control, invisible, symbol), or a combining
    /// mark no letter absorbed.
    Hidden,
    /// Letters of more than one script (a look-alike).
    Confusable,
    /// Empty after normalization, or over [`MAX_NAME`] bytes.
    Length,
}

impl NameError {
    /// The code a refused name is counted under (`player:join name_…`).
    pub fn code(self) -> &'static str {
        match self {
            NameError::Hidden => "name_hidden",
            NameError::Confusable => "name_confusable",
            NameError::Length => "name_length",
        }
    }
}

/// Whether `c` may stand in a name: allowed in identifiers by UTS #39 and not a combining
/// mark of every script. The space is checked apart (it separates words).
pub fn is_allowed(c: char) -> bool {
    c.identifier_allowed() && c.script() != Script::Inherited
}

/// The name shown for `raw`: normalized, or refused.
pub fn clean(raw: &str) -> Result<String, NameError> {
    let nfkc: String = raw.nfkc().collect();
    if nfkc.chars().any(|c| c != ' ' && !is_allowed(c)) {
        return Err(NameError::Hidden);
    }
    let name = nfkc
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if name.is_empty() || name.len() > MAX_NAME {
        return Err(NameError::Length);
    }
    if !name.as_str().is_single_script() {
        return Err(NameError::Confusable);
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
            "\u{2800}",                // braille pattern blank
            "Fay\u{2800}",             // ... after a name
            "Z\u{300}\u{301}\u{302}a", // stacked combining marks
            "a\u{330}",                // a combining mark no letter absorbs
            "Fay\u{1F600}",            // emoji
            "Fa\u{3164}y",             // Hangul filler
            "Fay\u{115F}",             // Hangul choseong filler
            "Fay\t",                   // tab
            "Fa\u{200B}y",             // zero-width space
            "Fay\u{202E}",             // right-to-left override
            "Fa\u{2066}y",             // left-to-right isolate
            "Fay\nAdmin",              // newline
            "F\u{00AD}ay",             // soft hyphen
            "Fay\u{E0041}",            // tag character
            "Fa\u{FE0F}y",             // variation selector
            "\u{200D}",                // zero-width joiner
        ] {
            assert_eq!(clean(bad), Err(NameError::Hidden), "{bad:?}");
        }
        assert_eq!(clean("   "), Err(NameError::Length));
        assert_eq!(
            clean("\u{3000}"),
            Err(NameError::Length),
            "ideographic space"
        );
        assert_eq!(clean(&"x".repeat(25)), Err(NameError::Length));
    }

    #[test]
    fn names_are_normalized() {
        assert_eq!(clean("  Ana   Lu ").unwrap(), "Ana Lu");
        assert_eq!(clean("Ｆａｙ").unwrap(), "Fay", "fullwidth");
        assert_eq!(clean("Zoë").unwrap(), "Zo\u{eb}");
        assert_eq!(clean("Zoe\u{308}").unwrap(), "Zo\u{eb}", "composed");
        // Names in one script each, with the punctuation names use, pass.
        for ok in [
            "O'Brien",
            "Ana-Lu",
            "J.R.",
            "Ива",
            "हिंदी",
            "さくら",
            "김민",
            "Fay77",
        ] {
            assert_eq!(clean(ok).as_deref(), Ok(ok), "{ok:?}");
        }
    }

    #[test]
    fn mixed_scripts_are_refused() {
        assert_eq!(clean("F\u{430}y"), Err(NameError::Confusable), "Cyrillic a");
        assert_eq!(clean("p\u{430}yp\u{430}l"), Err(NameError::Confusable));
        assert_eq!(clean("\u{3a1}aul"), Err(NameError::Confusable), "Greek Rho");
    }

    #[test]
    fn look_alikes_share_a_key() {
        assert_eq!(key("Fay"), key("fay"));
        assert_eq!(key("Fay"), key("F\u{430}y"), "Cyrillic a");
        assert_eq!(key("ape"), key("\u{430}\u{440}\u{435}"), "all Cyrillic");
        assert!(
            clean("\u{430}\u{440}\u{435}").is_ok(),
            "one script: refused by key only"
        );
        assert_eq!(key("paypal"), key("p\u{430}yp\u{430}l"));
        assert_eq!(key("l0l"), key("lOl"), "zero and O");
        assert_ne!(key("Fay"), key("Kay"));
    }
}

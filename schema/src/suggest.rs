//! "Did you mean": the valid word nearest a misspelt one, by edit distance. Used by the
//! attribute grammar for unknown keys and units, and by the CLI for unknown names.

/// The number of single-character insertions, deletions, substitutions and swaps of two
/// neighbours that turn `a` into `b` (the optimal string alignment distance), by `char`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the table: two back (for swaps), one back, and the one being filled.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(row[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            row[j] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()]
}

/// The candidate nearest `word`, if one is near enough to be what was meant: a case-only
/// difference, or at most one edit per three characters of `word` (at least one). On a
/// tie, the first candidate wins.
pub fn nearest<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let limit = (word.chars().count() / 3).max(1);
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| {
            let d = if c.to_lowercase() == lower {
                0
            } else {
                edit_distance(word, c)
            };
            (d, c)
        })
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// `"did you mean `x`? "` when a candidate is near `word`, else the empty string: the
/// opening of a hint that goes on to list the valid words.
pub fn did_you_mean<'a, I>(word: &str, candidates: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    match nearest(word, candidates) {
        Some(c) => format!("did you mean `{c}`? "),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_each_kind_of_edit_once() {
        assert_eq!(edit_distance("range", "range"), 0);
        assert_eq!(edit_distance("rnage", "range"), 1); // swap
        assert_eq!(edit_distance("rang", "range"), 1); // insertion
        assert_eq!(edit_distance("rangee", "range"), 1); // deletion
        assert_eq!(edit_distance("rangx", "range"), 1); // substitution
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("ca", "abc"), 3); // OSA: no edit of a swapped pair
        assert_eq!(edit_distance("é", "e"), 1); // chars, not bytes
    }

    #[test]
    fn distance_agrees_with_a_brute_force_on_short_words() {
        // Every pair of words up to length 3 over {a, b}, against the recursive definition.
        fn osa(a: &[u8], b: &[u8]) -> usize {
            if a.is_empty() || b.is_empty() {
                return a.len().max(b.len());
            }
            let (i, j) = (a.len(), b.len());
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (osa(&a[..i - 1], b) + 1)
                .min(osa(a, &b[..j - 1]) + 1)
                .min(osa(&a[..i - 1], &b[..j - 1]) + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(osa(&a[..i - 2], &b[..j - 2]) + 1);
            }
            d
        }
        let mut words = vec![String::new()];
        for len in 1..=3 {
            for n in 0..(1u32 << len) {
                words.push(
                    (0..len)
                        .map(|k| if n >> k & 1 == 1 { 'b' } else { 'a' })
                        .collect(),
                );
            }
        }
        for a in &words {
            for b in &words {
                assert_eq!(
                    edit_distance(a, b),
                    osa(a.as_bytes(), b.as_bytes()),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn nearest_suggests_only_what_is_close() {
        let keys = ["range", "quant", "scale", "len", "legacy"];
        assert_eq!(nearest("rnage", keys), Some("range"));
        assert_eq!(nearest("Range", keys), Some("range"));
        assert_eq!(nearest("lenght", keys), None); // 3 edits from `len`: too far
        assert_eq!(nearest("xyz", keys), None);
        assert_eq!(nearest("sclae", keys), Some("scale"));
        let units = ["cm", "mm", "dm", "mrad", "crad"];
        assert_eq!(nearest("km", units), Some("cm")); // first of the ties
        assert_eq!(nearest("mrda", units), Some("mrad"));
        assert_eq!(did_you_mean("rnage", keys), "did you mean `range`? ");
        assert_eq!(did_you_mean("xyz", keys), "");
    }
}

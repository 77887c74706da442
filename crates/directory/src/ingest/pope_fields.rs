//! The fields two popes datasets both give, reconciled: which one is kept, from which
//! source, and every disagreement said out loud (as an ingest warning that
//! `tests/popes.rs` checks against a reasoned list).
//!
//! Sources, most reliable first for each field:
//! * **Latin name**: popefeed (the Holy See's own form, "Ioannes Paulus PP. II"; the recent
//!   popes only), then Popet's regnal name when it has more name words than the Wikipedia
//!   list (whose `name_L` keeps only the first: "PAVLVS" for John Paul II), then the
//!   Wikipedia list.
//! * **Canonization status**: the Wikipedia list (current to 2025); Popet's honorifics
//!   ("Ven. John Paul II", "Bd. John XXIII") predate later steps of the causes; popefeed's
//!   "S." is compared.

use crate::fold::{roman_value, to_roman};

/// The source names as the profile's `field_sources` gives them.
pub(crate) const WIKI: &str = "wikipedia-list";
/// Popet.
pub(crate) const POPET: &str = "popet";
/// popefeed.
pub(crate) const FEED: &str = "popefeed";

/// A field two sources give differently.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Disagreement {
    pub field: &'static str,
    pub kept: String,
    pub kept_from: &'static str,
    pub other: String,
    pub other_from: &'static str,
}

impl Disagreement {
    /// The ingest warning for a pope (`pope field: John Paul II: latin_name: kept … (popefeed); wikipedia-list has …`).
    pub(crate) fn warning(&self, pope: &str) -> String {
        format!(
            "pope field: {pope}: {}: kept {:?} ({}); {} has {:?}",
            self.field, self.kept, self.kept_from, self.other_from, self.other
        )
    }
}

/// Letters only, upper case, with V = U, J = I and Æ = AE (the Latin spellings' variants).
fn latin_key(s: &str) -> String {
    s.to_uppercase()
        .replace('Æ', "AE")
        .replace('Œ', "OE")
        .chars()
        .filter(|c| c.is_alphabetic())
        .map(|c| match c {
            'V' => 'U',
            'J' => 'I',
            c => c,
        })
        .collect()
}

/// "PAVLVS" → "Paulus"; "IOANNES PAULUS" → "Ioannes Paulus".
pub(crate) fn title_case(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| {
            let lower: String = w
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    let c = c.to_lowercase().next().unwrap_or(c);
                    // Capital V is u except before a vowel ("PAVLVS" → "Paulus", "OCTAVIUS").
                    let next_vowel = w
                        .chars()
                        .nth(i + 1)
                        .is_some_and(|n| "AEIOUaeiou".contains(n));
                    if c == 'v' && !next_vowel {
                        'u'
                    } else {
                        c
                    }
                })
                .collect();
            let mut cs = lower.chars();
            match cs.next() {
                Some(f) => f.to_uppercase().collect::<String>() + cs.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The name words of popefeed's Latin ("S. Ioannes Paulus PP. II" → Ioannes Paulus).
fn feed_words(la: &str) -> Vec<&str> {
    la.split_whitespace()
        .filter(|w| !matches!(*w, "S." | "Bl." | "B." | "PP." | "Ven."))
        .filter(|w| roman_value(&w.to_lowercase()).is_none())
        .collect()
}

/// The upper-case name words of Popet's regnal name ("IOANNES PAULUS Secundus" → both;
/// "Electus STEPHANUS" → STEPHANUS; "Franciscum" → none).
fn popet_words(la: &str) -> Vec<&str> {
    la.split_whitespace()
        .filter(|w| {
            w.chars().count() > 1 && w.chars().all(|c| !c.is_alphabetic() || c.is_uppercase())
        })
        .collect()
}

/// The Latin name with its regnal number, the source it came from, and the disagreements.
pub(crate) fn latin_name(
    wiki_caps: &str,
    regnal: Option<u32>,
    popet: Option<&str>,
    feed: Option<&str>,
) -> (Option<String>, Option<&'static str>, Vec<Disagreement>) {
    let wiki: Vec<&str> = wiki_caps.split_whitespace().collect();
    let popet: Vec<&str> = popet.map(popet_words).unwrap_or_default();
    let feed: Vec<&str> = feed.map(feed_words).unwrap_or_default();
    let candidates = [(FEED, &feed), (POPET, &popet), (WIKI, &wiki)];
    let chosen = if !feed.is_empty() {
        Some((FEED, &feed))
    } else if !popet.is_empty() && popet.len() > wiki.len() {
        Some((POPET, &popet))
    } else if !wiki.is_empty() {
        Some((WIKI, &wiki))
    } else if !popet.is_empty() {
        Some((POPET, &popet))
    } else {
        None
    };
    let Some((from, words)) = chosen else {
        return (None, None, Vec::new());
    };
    let name = title_case(words);
    let key = latin_key(&name);
    let disagreements = candidates
        .iter()
        .filter(|(src, w)| *src != from && !w.is_empty())
        .filter(|(_, w)| latin_key(&w.join(" ")) != key)
        .map(|(src, w)| Disagreement {
            field: "latin_name",
            kept: name.clone(),
            kept_from: from,
            other: title_case(w),
            other_from: src,
        })
        .collect();
    let full = match regnal {
        Some(k) if !name.is_empty() => format!("{name} {}", to_roman(k).to_uppercase()),
        _ => name,
    };
    (Some(full), Some(from), disagreements)
}

/// The status a Popet name's honorific gives ("Ven. John Paul II" → Venerable).
fn popet_status(english: &str) -> Option<&'static str> {
    let e = english.trim_start();
    if e.starts_with("St. ") || e.starts_with("Saint ") {
        Some("Saint")
    } else if e.starts_with("Bd. ") || e.starts_with("Bl. ") {
        Some("Blessed")
    } else if e.starts_with("Ven. ") {
        Some("Venerable")
    } else if e.starts_with("Servant of God") {
        Some("Servant of God")
    } else {
        None
    }
}

/// The status popefeed's Latin gives ("S. Ioannes Paulus PP. II" → Saint).
fn feed_status(la: &str) -> Option<&'static str> {
    let first = la.split_whitespace().next()?;
    match first {
        "S." => Some("Saint"),
        "Bl." | "B." => Some("Blessed"),
        _ => None,
    }
}

/// The canonization status kept (the Wikipedia list's), and where the others differ.
pub(crate) fn status(
    wiki: Option<&str>,
    popet_english: Option<&str>,
    feed_la: Option<&str>,
) -> Vec<Disagreement> {
    let kept = wiki.unwrap_or("none");
    let mut out = Vec::new();
    let others = [
        (POPET, popet_english.and_then(popet_status)),
        (FEED, feed_la.and_then(feed_status)),
    ];
    for (src, other) in others {
        if let Some(o) = other {
            if o != kept {
                out.push(Disagreement {
                    field: "canonization_status",
                    kept: kept.to_string(),
                    kept_from: WIKI,
                    other: o.to_string(),
                    other_from: src,
                });
            }
        }
    }
    out
}

/// Other names Popet gives in brackets ("John Paul the Great", "Stephen X", "Deusdedit"),
/// without the honorific and the religious order.
pub(crate) fn also_known_as(popet_english: &str, papal_name: &str) -> Vec<String> {
    popet_english
        .split(['(', ')'])
        .skip(1)
        .step_by(2)
        .map(str::trim)
        .filter(|n| n.len() > 2 && *n != papal_name)
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_names_prefer_the_fullest_and_say_where_they_differ() {
        let (n, from, d) = latin_name(
            "PAVLVS",
            Some(2),
            Some("IOANNES PAULUS Secundus"),
            Some("S. Ioannes Paulus PP. II"),
        );
        assert_eq!(n.as_deref(), Some("Ioannes Paulus II"));
        assert_eq!(from, Some(FEED));
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].other_from, WIKI);
        let (n, from, d) = latin_name("PIVS", Some(10), Some("PIUS Decimus"), None);
        assert_eq!((n.as_deref(), from), (Some("Pius X"), Some(WIKI)));
        assert!(d.is_empty(), "V and U are one letter");
        let (n, _, d) = latin_name("SYXTUS", Some(1), Some("XYSTUS"), None);
        assert_eq!(n.as_deref(), Some("Syxtus I"));
        assert_eq!(d[0].other, "Xystus");
        assert_eq!(latin_name("", None, None, None).0, None);
    }

    #[test]
    fn stale_honorifics_are_disagreements_not_answers() {
        let d = status(
            Some("Saint"),
            Some("Ven. John Paul II (John Paul the Great)"),
            Some("S. Ioannes Paulus PP. II"),
        );
        assert_eq!(d.len(), 1);
        assert_eq!((d[0].other.as_str(), d[0].other_from), ("Venerable", POPET));
        assert!(status(Some("Saint"), Some("St. Pius X"), None).is_empty());
        assert!(status(None, Some("Benedict XVI"), None).is_empty());
    }

    #[test]
    fn other_names_from_brackets() {
        assert_eq!(
            also_known_as("Ven. John Paul II (John Paul the Great)", "John Paul II"),
            ["John Paul the Great"]
        );
        assert_eq!(
            also_known_as("Stephen IX (Stephen X), O.S.B.", "Stephen IX"),
            ["Stephen X"]
        );
        assert!(also_known_as("Benedict XVI", "Benedict XVI").is_empty());
    }
}

//! Archaic and modern English wordings of the same thing. The NPNF Fathers and
//! the Douay-Rheims say `thee`, `hath`, `repose`, `Noe`, `Apocalypse`; people
//! remember `you`, `has`, `rest`, `Noah`, `Revelation`. A query word on either
//! side of a pair brings in the other side, and a modern third person verb
//! brings in its `-eth` form (`rests` → `resteth`), so both wordings are found
//! at query time without touching the index.

use super::normalize::Normalized;
use std::sync::OnceLock;

/// The wordings file: one group of words a line, tab-separated.
const DATA: &str = include_str!("../../data/wordings.tsv");

/// Groups of words that mean the same in the texts' and in today's English
/// (`data/wordings.tsv`). Every word of a group brings in all the others.
fn groups() -> &'static [Vec<String>] {
    static G: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    G.get_or_init(|| parse(DATA))
}

/// The groups of a wordings file (comments and blank lines skipped; a group
/// of one word says nothing and is left out).
fn parse(data: &str) -> Vec<Vec<String>> {
    data.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            l.split('\t')
                .map(|w| w.trim().to_lowercase())
                .filter(|w| !w.is_empty())
                .collect::<Vec<String>>()
        })
        .filter(|g| g.len() > 1)
        .collect()
}

/// Words never given an `-eth` form (not verbs, or already archaic).
const NO_ETH: &[&str] = &[
    "is",
    "was",
    "has",
    "does",
    "says",
    "goes",
    "this",
    "thus",
    "his",
    "hers",
    "its",
    "ours",
    "yours",
    "theirs",
    "us",
    "yes",
    "less",
    "unless",
    "always",
    "perhaps",
    "jesus",
    "moses",
    "sins",
    "works",
    "laws",
    "saints",
    "fathers",
    "things",
    "days",
    "ways",
    "acts",
    "gospels",
    "psalms",
    "kings",
    "numbers",
    "judges",
    "romans",
    "hebrews",
    "corinthians",
    "ephesians",
    "thomas",
    "james",
    "nicholas",
    "francis",
    "chronicles",
    "revelation",
    "lazarus",
];

/// The other wordings of the query's words (without the words themselves).
pub fn variants(q: &Normalized) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let push = |w: &str, out: &mut Vec<String>| {
        if !q.words.iter().any(|x| x == w) && !out.iter().any(|x| x == w) {
            out.push(w.to_string());
        }
    };
    for w in &q.words {
        for g in groups() {
            if g.iter().any(|x| x == w) {
                for other in g {
                    push(other, &mut out);
                }
            }
        }
        // a third person verb of a group's word (`remains` → `abide`, and
        // `abideth`, which the stemmer does not bring back to `abide`)
        if let Some(base) = third_person_base(w) {
            for g in groups().iter().filter(|g| g.iter().any(|x| x == base)) {
                for other in g.iter().filter(|o| *o != base) {
                    push(other, &mut out);
                    if let Some(eth) = eth_form(&format!("{other}s")) {
                        push(&eth, &mut out);
                    }
                }
            }
        }
        if let Some(eth) = eth_form(w) {
            push(&eth, &mut out);
        }
    }
    out
}

/// `remains` → `remain`: the word without its third person `-s`, when it
/// could be a verb's ([`eth_form`] gives it an `-eth` form).
fn third_person_base(w: &str) -> Option<&str> {
    eth_form(w)?;
    w.strip_suffix('s')
}

/// The other wordings of one folded word (without the word itself), in a
/// fixed order.
pub fn word_variants(w: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for g in groups() {
        if g.iter().any(|x| x == w) {
            for other in g {
                if other != w && !out.contains(other) {
                    out.push(other.clone());
                }
            }
        }
    }
    if let Some(eth) = eth_form(w) {
        if !out.contains(&eth) {
            out.push(eth);
        }
    }
    out
}

/// `rests` → `resteth`, `gives` → `giveth`, `loves` → `loveth`.
fn eth_form(w: &str) -> Option<String> {
    if w.len() < 4 || !w.ends_with('s') || w.ends_with("ss") || NO_ETH.contains(&w) {
        return None;
    }
    if !w.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let stem = &w[..w.len() - 1];
    Some(if stem.ends_with('e') {
        format!("{stem}th")
    } else {
        format!("{stem}eth")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(q: &str) -> Vec<String> {
        variants(&Normalized::new(q))
    }

    #[test]
    fn both_directions() {
        let got = v("our heart is restless until it rests in you");
        for w in ["thee", "unquiet", "reposes", "resteth"] {
            assert!(got.iter().any(|g| g == w), "{w}: {got:?}");
        }
        let got = v("the Lord hath given thee");
        assert!(got.contains(&"has".to_string()) && got.contains(&"you".to_string()));
        assert!(v("Noah and the ark").contains(&"noe".to_string()));
    }

    #[test]
    fn the_wordings_file_parses() {
        let g = parse("# a comment\nyou\tthee\n\nalone\n Has \thath\n");
        assert_eq!(g, vec![vec!["you", "thee"], vec!["has", "hath"]]);
        // every group of the shipped file has two words or more, folded
        assert!(groups().len() > 60);
        for g in groups() {
            assert!(
                g.iter().all(|w| !w.contains(' ') && *w == w.to_lowercase()),
                "{g:?}"
            );
        }
        assert!(v("the glory of God is man fully alive").contains(&"living".to_string()));
    }

    #[test]
    fn a_third_person_verb_brings_its_groups_forms() {
        let got = v("whoever remains in love remains in God");
        for w in ["abide", "abideth", "remaineth", "whosoever", "charity"] {
            assert!(got.iter().any(|g| g == w), "{w}: {got:?}");
        }
        assert_eq!(third_person_base("remains"), Some("remain"));
        assert_eq!(third_person_base("kindness"), None);
        assert_eq!(third_person_base("is"), None);
    }

    #[test]
    fn eth_forms() {
        assert_eq!(eth_form("gives").as_deref(), Some("giveth"));
        assert_eq!(eth_form("rests").as_deref(), Some("resteth"));
        assert_eq!(eth_form("is"), None);
        assert_eq!(eth_form("kindness"), None);
        assert_eq!(eth_form("jesus"), None);
    }
}

//! Archaic and modern English wordings of the same thing. The NPNF Fathers and
//! the Douay-Rheims say `thee`, `hath`, `repose`, `Noe`, `Apocalypse`; people
//! remember `you`, `has`, `rest`, `Noah`, `Revelation`. A query word on either
//! side of a pair brings in the other side, and a modern third person verb
//! brings in its `-eth` form (`rests` → `resteth`), so both wordings are found
//! at query time without touching the index.

use super::normalize::Normalized;

/// Groups of words that mean the same in the texts' and in today's English.
/// Every word of a group brings in all the others.
const GROUPS: &[&[&str]] = &[
    &["you", "thee", "thou", "ye"],
    &["your", "thy", "thine"],
    &["yours", "thine"],
    &["yourself", "thyself"],
    &["has", "hath"],
    &["have", "hast"],
    &["does", "doth"],
    &["do", "dost"],
    &["says", "saith"],
    &["said", "spake", "quoth"],
    &["spoke", "spake"],
    &["shall", "shalt"],
    &["will", "wilt"],
    &["are", "art"],
    &["were", "wert"],
    &["rest", "repose"],
    &["rests", "reposes", "reposeth", "repose"],
    &["restless", "unquiet", "disquieted"],
    &["to", "unto"],
    &["truly", "verily", "amen"],
    &["look", "behold"],
    &["see", "behold"],
    &["remain", "abide"],
    &["stay", "abide"],
    &["whoever", "whosoever"],
    &["whatever", "whatsoever"],
    &["why", "wherefore"],
    &["where", "whither"],
    &["before", "ere"],
    &["often", "oft"],
    &["clothes", "raiment", "garments"],
    &["killed", "slain", "slew"],
    &["strike", "smite"],
    &["angry", "wroth"],
    &["fathered", "begot", "begat"],
    &["favored", "favoured"],
    &["love", "charity"],
    &["cup", "chalice"],
    &["repent", "penance"],
    &["spirit", "ghost"],
    &["daily", "supersubstantial"],
    &["debts", "trespasses"],
    &["happy", "blessed"],
    &["meaningless", "vanity"],
    &["lord", "lorde"],
    &["honor", "honour"],
    &["labor", "labour"],
    &["savior", "saviour"],
    &["neighbor", "neighbour"],
    &["noah", "noe"],
    &["elijah", "elias"],
    &["elisha", "eliseus"],
    &["isaiah", "isaias"],
    &["jeremiah", "jeremias"],
    &["hosea", "osee"],
    &["obadiah", "abdias"],
    &["jonah", "jonas"],
    &["micah", "micheas"],
    &["zephaniah", "sophonias"],
    &["haggai", "aggeus"],
    &["zechariah", "zacharias"],
    &["malachi", "malachias"],
    &["ezra", "esdras"],
    &["nehemiah", "nehemias"],
    &["tobit", "tobias"],
    &["sirach", "ecclesiasticus"],
    &["chronicles", "paralipomenon"],
    &["revelation", "apocalypse"],
    &["hezekiah", "ezechias"],
    &["josiah", "josias"],
    &["judas", "jude"],
    &["mary", "marie"],
];

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
        for g in GROUPS {
            if g.contains(&w.as_str()) {
                for other in g.iter() {
                    push(other, &mut out);
                }
            }
        }
        if let Some(eth) = eth_form(w) {
            push(&eth, &mut out);
        }
    }
    out
}

/// The other wordings of one folded word (without the word itself), in a
/// fixed order.
pub fn word_variants(w: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for g in GROUPS {
        if g.contains(&w) {
            for other in g.iter() {
                if *other != w && !out.iter().any(|x| x == other) {
                    out.push((*other).to_string());
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
    fn eth_forms() {
        assert_eq!(eth_form("gives").as_deref(), Some("giveth"));
        assert_eq!(eth_form("rests").as_deref(), Some("resteth"));
        assert_eq!(eth_form("is"), None);
        assert_eq!(eth_form("kindness"), None);
        assert_eq!(eth_form("jesus"), None);
    }
}

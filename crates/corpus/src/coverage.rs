//! What the background embedder computes, and in which order: the priority
//! set first (magisterial documents, the catechism, Scripture, the Summa and
//! the major works of the Fathers), then the rest; and near-duplicate passages
//! (one Bible verse in several English translations, repeated boilerplate)
//! embedded once and their vector shared.

use crate::semantic::passage_text;
use crate::CorpusError;
use rusqlite::Connection;
use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// Embedding ranks up to this one form the priority set.
pub const LAST_PRIORITY_RANK: u8 = 4;

/// Document ids of the Summa Theologiae.
const SUMMA_PREFIX: &str = "cf-thomas-aquinas-summa-theologiae";

/// The major works of the Fathers (document id prefixes in the church-fathers
/// dataset): what is quoted and asked about most, embedded with the priority set. Each
/// prefix matches at least one document of the dataset as ingested (checked against a full
/// store: ten earlier prefixes matched none and left those works out of the set).
pub const MAJOR_PATRISTIC_WORKS: &[&str] = &[
    "cf-didache-",
    "cf-clement-of-rome-first-epistle-to-the-corinthians",
    "cf-ignatius-of-antioch-epistle-to-",
    "cf-polycarp-",
    "cf-justin-martyr-the-first-apology",
    "cf-justin-martyr-the-second-apology",
    "cf-justin-martyr-dialogue-with-trypho",
    "cf-irenaeus-irenaeus-against-heresies",
    "cf-irenaeus-the-proof-of-the-apostolic-preaching",
    "cf-tertullian-the-apology",
    "cf-tertullian-the-prescription-against-heretics",
    "cf-cyprian-treatise-1-on-the-unity-of-the-church",
    "cf-cyprian-treatise-4-on-the-lord-s-prayer",
    "cf-athanasius-of-alexandria-on-the-incarnation-of-the-word",
    "cf-athanasius-of-alexandria-four-discourses-against-the-arians",
    "cf-athanasius-of-alexandria-life-of-antony",
    "cf-cyril-of-jerusalem-catechetical-lectures",
    "cf-basil-of-caesarea-on-the-spirit",
    "cf-gregory-of-nazianzus-orations-oration-27",
    "cf-gregory-of-nazianzus-orations-oration-28",
    "cf-gregory-of-nazianzus-orations-oration-29",
    "cf-gregory-of-nazianzus-orations-oration-30",
    "cf-john-chrysostom-treatise-on-the-priesthood",
    "cf-ambrose-of-milan-concerning-the-mysteries",
    "cf-ambrose-of-milan-on-the-sacraments",
    "cf-ambrose-of-milan-on-the-holy-spirit",
    "cf-augustine-of-hippo-confessions",
    "cf-augustine-of-hippo-the-city-of-god",
    "cf-augustine-of-hippo-on-the-trinity",
    "cf-augustine-of-hippo-on-christian-doctrine",
    "cf-augustine-of-hippo-enchiridion",
    "cf-augustine-of-hippo-the-enchiridion",
    "cf-leo-the-great-",
    "cf-gregory-the-dialogist-the-book-of-pastoral-rule",
    "cf-vincent-of-lerins-",
];

/// The embedding rank of a document (lower first). Ranks 0 to
/// [`LAST_PRIORITY_RANK`] are the priority set: magisterial documents, the
/// catechism, Scripture (short verses, quick), the Summa, the major works of
/// the Fathers; then the other theology, the other Fathers, the rest and the
/// commentaries.
pub fn rank(id: &str, doc_type: &str, magisterial: bool) -> u8 {
    if magisterial {
        return 0;
    }
    match doc_type {
        "catechism" => 1,
        "scripture" => 2,
        "theology" if id.starts_with(SUMMA_PREFIX) => 3,
        "patristic" if MAJOR_PATRISTIC_WORKS.iter().any(|p| id.starts_with(p)) => 4,
        "theology" => 5,
        "patristic" => 6,
        "commentary" => 8,
        _ => 7,
    }
}

/// True when documents of this rank belong to the priority set.
pub fn is_priority(rank: u8) -> bool {
    rank <= LAST_PRIORITY_RANK
}

/// Passage ordinal ranges `(first, count, rank)` of the English documents
/// of a store, in embedding order (by rank, then by position).
pub fn embedding_order(conn: &Connection) -> Result<Vec<(u64, u64, u8)>, CorpusError> {
    let mut st = conn.prepare(
        "SELECT first_ord, passage_count, type, magisterial, id FROM documents \
         WHERE language = 'en' AND passage_count > 0",
    )?;
    let mut out: Vec<(u8, u64, u64)> = st
        .query_map([], |r| {
            let ty: String = r.get(2)?;
            let mag: bool = r.get(3)?;
            let id: String = r.get(4)?;
            Ok((
                rank(&id, &ty, mag),
                r.get::<_, i64>(0)? as u64,
                r.get::<_, i64>(1)? as u64,
            ))
        })?
        .collect::<Result<_, _>>()?;
    out.sort_unstable();
    Ok(out.into_iter().map(|(k, a, n)| (a, n, k)).collect())
}

/// The passage ordinals of the priority set (ranks up to
/// [`LAST_PRIORITY_RANK`]), for counting its progress.
#[derive(Debug, Clone, Default)]
pub struct PrioritySet {
    /// `(first, end)` ordinal ranges, sorted by `first`, not overlapping.
    ranges: Vec<(u64, u64)>,
    passages: u64,
}

impl PrioritySet {
    /// The priority ranges of an [`embedding_order`].
    pub fn from_order(order: &[(u64, u64, u8)]) -> Self {
        let mut ranges: Vec<(u64, u64)> = order
            .iter()
            .filter(|(_, n, k)| is_priority(*k) && *n > 0)
            .map(|&(a, n, _)| (a, a + n))
            .collect();
        ranges.sort_unstable();
        let passages = ranges.iter().map(|(a, b)| b - a).sum();
        PrioritySet { ranges, passages }
    }

    /// Passages in the set.
    pub fn passages(&self) -> u64 {
        self.passages
    }

    /// True when the passage belongs to the set.
    pub fn contains(&self, ord: u64) -> bool {
        let i = self.ranges.partition_point(|&(a, _)| a <= ord);
        i > 0 && ord < self.ranges[i - 1].1
    }
}

/// What the cache says of one passage while a [`plan`] is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// It has a vector already.
    Cached,
    /// It needs one.
    Missing,
    /// Stop planning (the index was dropped).
    Stop,
}

/// What the background worker computes, in embedding order.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Passages to compute, in embedding order: the priority set's first.
    pub compute: Vec<u64>,
    /// Of `compute`, how many lead that belong to the priority set.
    pub priority_compute: usize,
    /// For a computed passage, the passages that share its vector.
    pub followers: HashMap<u64, Vec<u64>>,
}

impl Plan {
    /// Passages given a shared vector.
    pub fn shared(&self) -> u64 {
        self.followers.values().map(|f| f.len() as u64).sum()
    }
}

/// Walk the English passages of a store in embedding `order`, ask `cached`
/// about each (with its embedded text, [`passage_text`]), and group the
/// missing ones with [`Dedup`]. `None` when `cached` said [`Lookup::Stop`].
pub fn plan(
    conn: &Connection,
    order: &[(u64, u64, u8)],
    mut cached: impl FnMut(u64, &str) -> Result<Lookup, CorpusError>,
) -> Result<Option<Plan>, CorpusError> {
    let mut dedup = Dedup::new();
    let mut out = Plan::default();
    let mut st = conn.prepare_cached(
        "SELECT p.ord, p.heading, p.text, p.reference, d.type FROM passages p \
         JOIN documents d ON d.idx = p.doc_idx WHERE p.ord >= ?1 AND p.ord < ?2 ORDER BY p.ord",
    )?;
    for &(first, count, rank) in order {
        let mut rows = st.query(rusqlite::params![first as i64, (first + count) as i64])?;
        while let Some(r) = rows.next()? {
            let ord = r.get::<_, i64>(0)? as u64;
            let heading: Option<String> = r.get(1)?;
            let text: String = r.get(2)?;
            match cached(ord, &passage_text(heading.as_deref(), &text))? {
                Lookup::Stop => return Ok(None),
                Lookup::Cached => continue,
                Lookup::Missing => {}
            }
            let reference: String = r.get(3)?;
            let doc_type: String = r.get(4)?;
            let row = PassageRow {
                ord,
                doc_type: &doc_type,
                reference: &reference,
                heading: heading.as_deref(),
                text: &text,
            };
            match dedup.representative(&row) {
                Some(first) => out.followers.entry(first).or_default().push(ord),
                None => {
                    out.compute.push(ord);
                    if is_priority(rank) {
                        out.priority_compute += 1;
                    }
                }
            }
        }
    }
    Ok(Some(out))
}

/// One passage as the de-duplication sees it.
#[derive(Debug, Clone)]
pub struct PassageRow<'a> {
    /// Passage ordinal.
    pub ord: u64,
    /// The document's type (`scripture` …).
    pub doc_type: &'a str,
    /// How the passage is cited (`John 3:16`).
    pub reference: &'a str,
    /// Heading the passage stands under.
    pub heading: Option<&'a str>,
    /// The text.
    pub text: &'a str,
}

/// Word sets of two verses overlap at least this much (Jaccard) to count as
/// two translations of one verse: a guard against a versification mismatch.
pub const MIN_TRANSLATION_OVERLAP: f64 = 0.25;

/// Groups passages whose vector can be shared: exact repeats of the embedded
/// text after folding case, punctuation and spacing, and, in Scripture, the
/// same reference in another English translation whose wording overlaps
/// enough ([`MIN_TRANSLATION_OVERLAP`]). Feed rows in embedding order; the
/// first row of a group is the one embedded.
#[derive(Debug, Default)]
pub struct Dedup {
    by_text: HashMap<[u8; 32], u64>,
    by_verse: HashMap<String, (u64, Vec<String>)>,
    shared: u64,
}

/// Case-, punctuation- and spacing-folded text: [`ecclesia_fold::words`].
fn fold(text: &str) -> String {
    ecclesia_fold::words(text)
}

fn words(folded: &str) -> Vec<String> {
    let mut w: Vec<String> = folded.split(' ').map(str::to_string).collect();
    w.sort_unstable();
    w.dedup();
    w
}

fn jaccard(a: &[String], b: &[String]) -> f64 {
    let (mut i, mut j, mut both) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                both += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = a.len() + b.len() - both;
    if union == 0 {
        0.0
    } else {
        both as f64 / union as f64
    }
}

impl Dedup {
    /// An empty grouping.
    pub fn new() -> Self {
        Self::default()
    }

    /// The ordinal whose vector this passage shares, or `None` when it is
    /// the first of its group (and must be embedded).
    pub fn representative(&mut self, p: &PassageRow<'_>) -> Option<u64> {
        let folded = fold(&passage_text(p.heading, p.text));
        let key: [u8; 32] = Sha256::digest(folded.as_bytes()).into();
        if let Some(&first) = self.by_text.get(&key) {
            self.shared += 1;
            return Some(first);
        }
        if p.doc_type == "scripture" && !p.reference.is_empty() {
            let w = words(&fold(p.text));
            if let Some((first, first_words)) = self.by_verse.get(p.reference) {
                if jaccard(first_words, &w) >= MIN_TRANSLATION_OVERLAP {
                    self.shared += 1;
                    return Some(*first);
                }
            } else {
                self.by_verse.insert(p.reference.to_string(), (p.ord, w));
            }
        }
        self.by_text.insert(key, p.ord);
        None
    }

    /// Passages given a shared vector so far.
    pub fn shared(&self) -> u64 {
        self.shared
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(ord: u64, ty: &'a str, reference: &'a str, text: &'a str) -> PassageRow<'a> {
        PassageRow {
            ord,
            doc_type: ty,
            reference,
            heading: None,
            text,
        }
    }

    #[test]
    fn priority_set_comes_first() {
        assert_eq!(rank("x", "encyclical", true), 0);
        assert_eq!(rank("ccc", "catechism", false), 1);
        assert_eq!(rank("bible-dr-jhn", "scripture", false), 2);
        assert_eq!(
            rank("cf-thomas-aquinas-summa-theologiae-i-q2", "theology", false),
            3
        );
        assert_eq!(
            rank(
                "cf-augustine-of-hippo-confessions-book-8",
                "patristic",
                false
            ),
            4
        );
        assert!(is_priority(4));
        let rest = [
            rank("cf-augustine-of-hippo-sermons-sermon-1", "patristic", false),
            rank("cf-bonaventure-x", "theology", false),
            rank("haydock-jhn", "commentary", false),
            rank("x", "speech", false),
        ];
        assert!(rest.iter().all(|&r| !is_priority(r)), "{rest:?}");
        assert_eq!(rank("haydock-jhn", "commentary", false), 8);
    }

    #[test]
    fn translations_of_a_verse_share_one_vector() {
        let mut d = Dedup::new();
        let cpdv = "For God so loved the world that he gave his only-begotten Son, so that all who believe in him may not perish, but may have eternal life";
        let dr = "For God so loved the world, as to give his only begotten Son; that whosoever believeth in him, may not perish, but may have life everlasting.";
        assert_eq!(
            d.representative(&row(10, "scripture", "John 3:16", cpdv)),
            None
        );
        assert_eq!(
            d.representative(&row(90, "scripture", "John 3:16", dr)),
            Some(10)
        );
        // Another verse at the same reference with other words is not shared.
        assert_eq!(
            d.representative(&row(
                91,
                "scripture",
                "John 3:17",
                "In the beginning was the Word"
            )),
            None
        );
        assert_eq!(
            d.representative(&row(92, "scripture", "John 3:17", "Blessed are the meek")),
            None
        );
        assert_eq!(d.shared(), 1);
    }

    #[test]
    fn repeated_boilerplate_is_shared_but_not_across_other_texts() {
        let mut d = Dedup::new();
        let a = "Copyright © Libreria Editrice Vaticana.";
        assert_eq!(d.representative(&row(1, "encyclical", "1", a)), None);
        assert_eq!(
            d.representative(&row(
                7,
                "speech",
                "1",
                "copyright  libreria editrice VATICANA"
            )),
            Some(1)
        );
        assert_eq!(
            d.representative(&row(8, "speech", "1", "Copyright 2005")),
            None
        );
        // The same words in another order are another text.
        assert_eq!(
            d.representative(&row(
                9,
                "speech",
                "1",
                "Vaticana editrice libreria copyright"
            )),
            None
        );
    }

    #[test]
    fn priority_set_membership() {
        // (first, count, rank) in embedding order: by rank, not by ordinal.
        let order = [(20, 5, 0), (0, 10, 2), (40, 3, 4), (10, 10, 5), (25, 15, 8)];
        let p = PrioritySet::from_order(&order);
        assert_eq!(p.passages(), 18);
        let inside: Vec<u64> = (0..50).filter(|&o| p.contains(o)).collect();
        let want: Vec<u64> = (0..10).chain(20..25).chain(40..43).collect();
        assert_eq!(inside, want);
        assert!(!PrioritySet::default().contains(0));
    }

    #[test]
    fn fold_and_jaccard() {
        assert_eq!(fold("  Hath, THEE;  said!"), "hath thee said");
        let a = words("a b c");
        let b = words("b c d");
        assert!((jaccard(&a, &b) - 0.5).abs() < 1e-9);
        assert_eq!(jaccard(&[], &[]), 0.0);
    }
}

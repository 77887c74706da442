//! Passages that state an error in order to condemn it: quoted alone they
//! would read as the teaching they reject. Such passages are labelled here and
//! kept out of answers by the reranker (`retrieve.rs`), unless the question
//! names the document or the error itself is what is asked about ("What did
//! Pius X condemn as modernism?" still gets the condemnation's own words from
//! the rest of the document).
//!
//! Three kinds are recognised:
//! - curated expositions: the paragraphs of a document that lay out the
//!   condemned system (Pascendi §§ 5–38, which Pius X calls "this exposition
//!   of the doctrines of the Modernists" in § 39; the first book of Irenaeus
//!   against the heresies, which sets out the Valentinian system; the books of
//!   Hippolytus' Refutation that expound the sects);
//! - lists of condemned propositions (a Syllabus, Lamentabili, any document
//!   titled as condemned propositions or errors): their numbered items;
//! - Summa objections (`… obj. n`), which argue the position the article
//!   rejects (also weighed down in the rerank).

use crate::passage::Passage;

/// Why a passage is not quoted as teaching.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condemned {
    /// A paragraph of a curated exposition of a condemned system.
    Exposition,
    /// A numbered condemned proposition.
    Proposition,
    /// An objection of a scholastic article.
    Objection,
}

/// Documents (id prefix) whose numbered paragraphs in a range expound an error.
const EXPOSITIONS: &[(&str, u32, u32)] = &[("pius-x-pascendi-dominici-gregis-1907", 5, 38)];

/// Documents (id prefix) that, as a whole, expound heretical systems.
const WHOLE_EXPOSITIONS: &[&str] = &[
    "cf-irenaeus-irenaeus-against-heresies-book-1",
    "cf-hippolytus-of-rome-the-refutation-of-all-heresies-book-5",
    "cf-hippolytus-of-rome-the-refutation-of-all-heresies-book-6",
    "cf-hippolytus-of-rome-the-refutation-of-all-heresies-book-7",
    "cf-hippolytus-of-rome-the-refutation-of-all-heresies-book-8",
    "cf-hippolytus-of-rome-the-refutation-of-all-heresies-book-9",
];

/// Title words of lists of condemned propositions.
const PROPOSITION_LISTS: &[&str] = &[
    "syllabus",
    "lamentabili",
    "condemned propositions",
    "errors condemned",
    "propositions condemned",
];

/// The leading paragraph number of a reference (`"12"`, `"12a"` → 12).
fn paragraph(reference: &str) -> Option<u32> {
    let digits: String = reference
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// Does `p` state an error in order to condemn it?
pub fn label(p: &Passage) -> Option<Condemned> {
    let reference = p.reference.as_deref().unwrap_or("");
    if reference.to_ascii_lowercase().contains("obj.") {
        return Some(Condemned::Objection);
    }
    for (prefix, from, to) in EXPOSITIONS {
        if p.doc_id.starts_with(prefix) {
            if let Some(n) = paragraph(reference) {
                if (*from..=*to).contains(&n) {
                    return Some(Condemned::Exposition);
                }
            }
        }
    }
    if WHOLE_EXPOSITIONS.iter().any(|d| p.doc_id.starts_with(d)) {
        return Some(Condemned::Exposition);
    }
    let title = p.doc_title.to_lowercase();
    if PROPOSITION_LISTS.iter().any(|t| title.contains(t)) && paragraph(reference).is_some() {
        return Some(Condemned::Proposition);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passage(doc_id: &str, title: &str, reference: &str) -> Passage {
        Passage {
            doc_id: doc_id.into(),
            doc_title: title.into(),
            author: None,
            year: None,
            doc_type: "encyclical".into(),
            reference: Some(reference.into()),
            heading: None,
            text: "text".into(),
            source_url: None,
            score: 0.0,
            magisterial: true,
            machine_translated: false,
            index: None,
        }
    }

    #[test]
    fn labels() {
        let pascendi = "pius-x-pascendi-dominici-gregis-1907-en";
        assert_eq!(
            label(&passage(pascendi, "Pascendi Dominici Gregis", "6")),
            Some(Condemned::Exposition)
        );
        assert_eq!(
            label(&passage(pascendi, "Pascendi Dominici Gregis", "39")),
            None
        );
        assert_eq!(
            label(&passage(pascendi, "Pascendi Dominici Gregis", "2")),
            None
        );
        assert_eq!(
            label(&passage(
                "pius-ix-syllabus-1864",
                "The Syllabus of Errors",
                "15"
            )),
            Some(Condemned::Proposition)
        );
        assert_eq!(
            label(&passage(
                "cf-x-summa",
                "Summa",
                "I-II, q. 109, a. 2, obj. 1"
            )),
            Some(Condemned::Objection)
        );
        assert_eq!(
            label(&passage("cf-x-summa", "Summa", "I-II, q. 109, a. 2, co.")),
            None
        );
        assert_eq!(
            label(&passage(
                "leo-xiii-mirae-caritatis-1902-en",
                "Mirae Caritatis",
                "6"
            )),
            None
        );
    }
}

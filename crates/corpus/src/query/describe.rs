//! Documents named by title or described: "Pascendi dominici gregis" (a title
//! or incipit), "Tertullian's Apology" (an author's work), "the encyclical on
//! the rosary" (a kind of document and its subject).
//!
//! [`parse`] reads these forms; the lexical layer then adds a title phrase, an
//! author clause and a document-type clause beside the query's own words.

use super::normalize::Normalized;

/// Kinds of document named in descriptions, with the types the store gives them.
const GENRES: &[(&str, &[&str])] = &[
    ("encyclical", &["encyclical"]),
    ("encyclicals", &["encyclical"]),
    ("letter", &["letter", "encyclical"]),
    ("epistle", &["letter"]),
    ("apostolic letter", &["letter"]),
    ("exhortation", &["exhortation"]),
    ("homily", &["homily"]),
    ("sermon", &["homily"]),
    ("speech", &["speech"]),
    ("address", &["speech"]),
    ("constitution", &["constitution"]),
    ("catechism", &["catechism"]),
];

/// What a query says about the document it wants.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Described {
    /// The words that may be the document's title (the query without the
    /// author's possessive and the kind of document), folded.
    pub title: String,
    /// An author named with a possessive ("Leo XIII's", "Augustine's"), folded.
    pub author: Option<String>,
    /// Document types named ("encyclical").
    pub types: Vec<&'static str>,
}

/// Words dropped from a described title.
const LEADING: &[&str] = &["the", "a", "an", "his", "her", "its"];
/// Words that join the kind of document to its subject.
const JOINERS: &[&str] = &["on", "about", "of", "concerning", "for", "against", "to"];

/// Read a title, an author's work or a described document from `q`
/// (`None` for queries of one word or longer than ten).
pub fn parse(q: &str) -> Option<Described> {
    let n = Normalized::new(q);
    if n.words.len() < 2 || n.words.len() > 10 {
        return None;
    }
    let mut words: Vec<String> = n.words.clone();
    // "Leo XIII's encyclical …", "Augustine's Confessions": the folded form
    // splits the possessive into "… xiii s …".
    let mut author = None;
    if let Some(i) = words.iter().position(|w| w == "s") {
        if (1..=3).contains(&i) && (q.contains('\'') || q.contains('’')) {
            author = Some(words[..i].join(" "));
            words.drain(..=i);
        }
    }
    while words.first().is_some_and(|w| LEADING.contains(&w.as_str())) {
        words.remove(0);
    }
    let mut types = Vec::new();
    for (genre, ts) in GENRES {
        let g: Vec<&str> = genre.split(' ').collect();
        if words.len() > g.len() && words.iter().zip(&g).all(|(w, x)| w == x) {
            types.extend_from_slice(ts);
            words.drain(..g.len());
            if words.first().is_some_and(|w| JOINERS.contains(&w.as_str())) {
                words.remove(0);
            }
            while words.first().is_some_and(|w| LEADING.contains(&w.as_str())) {
                words.remove(0);
            }
            break;
        }
    }
    if words.is_empty() {
        return None;
    }
    Some(Described {
        title: words.join(" "),
        author,
        types,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let d = parse("Pascendi dominici gregis").unwrap();
        assert_eq!(d.title, "pascendi dominici gregis");
        assert!(d.author.is_none() && d.types.is_empty());
        let d = parse("Leo XIII's encyclical on the Eucharist").unwrap();
        assert_eq!(d.author.as_deref(), Some("leo xiii"));
        assert_eq!(d.types, vec!["encyclical"]);
        assert_eq!(d.title, "eucharist");
        let d = parse("Tertullian's Apology").unwrap();
        assert_eq!(
            (d.author.as_deref(), d.title.as_str()),
            (Some("tertullian"), "apology")
        );
        let d = parse("the encyclical on the rosary").unwrap();
        assert_eq!(
            (d.title.as_str(), d.types.clone()),
            ("rosary", vec!["encyclical"])
        );
        assert_eq!(parse("grace"), None);
    }
}

//! The shape of a query: a long description of a half-remembered passage in
//! one's own words ("charity should set up lasting institutions that train
//! workers to save…") is matched best by meaning, a short topic or a quoted
//! line by its words. The fusion weighs its lists by this shape.

/// What kind of query a text is, for weighing the ranked lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A few words, a quotation in double quotes, a reference: matched by its words.
    Short,
    /// A sentence-long description in plain words: matched by its meaning.
    Description,
}

/// The words of a query (runs of letters or digits).
pub fn words(q: &str) -> usize {
    q.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .count()
}

/// The shape of `q`: a [`Shape::Description`] has at least `min_words` words
/// (0: never), no double-quoted phrase and no Summa reference.
pub fn shape(q: &str, min_words: usize) -> Shape {
    if min_words == 0 || words(q) < min_words || q.contains('"') || super::summa::parse(q).is_some()
    {
        Shape::Short
    } else {
        Shape::Description
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_plain_sentence_is_a_description() {
        let d =
            "charity should set up lasting institutions that train workers to save and plan ahead";
        assert_eq!(words(d), 14);
        assert_eq!(shape(d, 10), Shape::Description);
        // too short, switched off, quoted, or a reference: short
        assert_eq!(shape("the rosary of the Blessed Virgin", 10), Shape::Short);
        assert_eq!(shape(d, 0), Shape::Short);
        assert_eq!(shape(&format!("\"{d}\""), 10), Shape::Short);
        assert_eq!(
            shape(
                "Summa I-II q. 109 a. 2 whether man can will or do any good without grace",
                10
            ),
            Shape::Short
        );
        assert_eq!(words("don't worry about tomorrow"), 5);
    }
}

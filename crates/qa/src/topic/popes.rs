//! A pope named with his number ("Pius X", "Benedict XV", "Leo XIII", "John
//! Paul II"): the encyclicals of the corpus are asked about that way, and the
//! name alone ("Leo", "Benedict") is too common to count.

use super::normalize::Normalized;

/// Papal names taken by several popes, folded. Names also borne by numbered
/// kings and emperors more often asked about (Henry, Louis, Charles,
/// Alexander, John on its own) are left out.
const NAMES: &[&str] = &[
    "pius",
    "leo",
    "benedict",
    "gregory",
    "paul",
    "clement",
    "innocent",
    "urban",
    "boniface",
    "sixtus",
    "honorius",
    "celestine",
    "adrian",
    "hadrian",
    "nicholas",
    "eugene",
    "eugenius",
    "callistus",
    "calixtus",
    "julius",
    "marcellus",
    "sergius",
    "felix",
    "anastasius",
    "sylvester",
    "silvester",
    "pio",
    "leone",
    "benedetto",
    "gregorio",
    "paolo",
    "pablo",
    "benedicto",
    "paulo",
    "bento",
    "pie",
    "benoit",
    "gregoire",
    "lev",
];

/// Whether `w` is a Roman numeral from II to XXIII (the first of a name is
/// rarely numbered in questions: "Pius I" is written but so is "World War I").
fn is_numeral(w: &str) -> bool {
    const NUMERALS: &[&str] = &[
        "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv",
        "xvi", "xvii", "xviii", "xix", "xx", "xxi", "xxii", "xxiii",
    ];
    NUMERALS.contains(&w)
}

/// Whether the question names a pope by name and number.
pub fn names_a_pope(q: &Normalized) -> bool {
    q.words()
        .windows(2)
        .any(|w| NAMES.contains(&w[0].as_str()) && is_numeral(&w[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pope(q: &str) -> bool {
        names_a_pope(&Normalized::new(q))
    }

    #[test]
    fn name_and_number() {
        assert!(pope("What did Pius X teach about modernism?"));
        assert!(pope("Why did Benedict XV praise Dante?"));
        assert!(pope("John Paul II on work"));
        assert!(pope("Che cosa scrisse Pio XI?"));
        assert!(!pope("Who was Henry VIII?"));
        assert!(!pope("Who was Alexander III of Macedon?"));
        assert!(!pope("Leo is a star sign"));
        assert!(!pope("Rocky V or Rocky IV?"));
        assert!(!pope(""));
    }
}

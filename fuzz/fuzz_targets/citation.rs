//! The Tamil and English Bible citation parsers.
#![no_main]
use ecclesia_liturgy::citation::{self, BookMap};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// A few rows of `tamil-book-abbrev-to-osis.verified.tsv` (the parser, not the map, is fuzzed).
const BOOKS: &str = "tamil_abbrev\tosis\tenglish_name\tevidence
திபா\tPs\tPsalms\t-
மத்\tMatt\tMatthew\t-
யோவா\tJohn\tJohn\t-
தொநூ\tGen\tGenesis\t-
1 கொரி\t1Cor\t1 Corinthians\t-
எசா\tIsa\tIsaiah\t-
லூக்\tLuke\tLuke\t-
";

fn books() -> &'static BookMap {
    static B: OnceLock<BookMap> = OnceLock::new();
    B.get_or_init(|| BookMap::from_tsv(BOOKS))
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let _ = citation::looks_like_citation(s);
    let _ = citation::parse_tamil(books(), s);
    let _ = citation::parse_english(books(), s);
});

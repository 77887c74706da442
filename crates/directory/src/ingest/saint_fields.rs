//! The fields two saints datasets both give, reconciled: which value is kept, from which
//! source (the profile's `field_sources`), and every disagreement said out loud as an
//! ingest warning that `tests/saints.rs` checks against a reasoned list
//! (`tests/fixtures/saint-field-disagreements.tsv`).
//!
//! What each source says about a person is gathered in [`Claims`] while the saints are
//! joined (`saints.rs`); [`reconcile`] then applies one written rule per field:
//!
//! * **canonical_status**: a person named in `data/canonizations.tsv` (the canonizations
//!   since the lists below were made, each with its date, pope and source) is a saint,
//!   whatever the older lists say: a list can only lag (a canonization goes blessed →
//!   saint). Otherwise the Church's own lists over Wikidata, the most recent list
//!   first: romcal's `canonizationLevel` (the calendars' catalogue, 2024), then the Roman
//!   Missal's own name for the celebration (LitCal: "Saint …", "Blessed …"), then the Roman
//!   Martyrology (CRMEDR, 2004 edition: "Sanctus …", "Beatus …"); Wikidata only for a
//!   person on none of them. Wikidata's labels mix canonization with local cult
//!   ("locally-venerated saint", "patron saint"), so they never override a list.
//! * **birth_date / death_date**: Wikidata and romcal's catalogue. When they give the same
//!   year the more precise value is kept (a day over a bare year; not a disagreement); when
//!   both give a day and the days differ, or the years differ, Wikidata's is kept (each
//!   statement there is a sourced claim, romcal's are hand-entered, often marked
//!   approximate) and the disagreement is reported.
//! * **latin_name**: the Martyrology's nominative ("Sanctus Hieronymus" → "Hieronymus");
//!   the Missal's Latin (LitCal) is a genitive title ("S. Hieronymi, presbyteri …"), so it
//!   is compared by the stem of the first name only, never shown as the name.
//! * **primary_name** (vernacular): Wikidata's English label, else the Martyrology's English
//!   (or Latin) name, with romcal's fuller name when those gave a bare given name; the other
//!   English names (romcal, Martyrology, Missal) must be compatible with it (same first
//!   word, one name's words within the other's).
//! * **titles**: the Missal's own titles for a one-person celebration in the General Roman
//!   Calendar (LitCal, latest missal) decide the liturgical titles (priest, bishop, martyr,
//!   virgin, doctor of the Church …); romcal's titles outside that vocabulary (missionary,
//!   queen …) are added; romcal's alone where the Missal has none.
//! * **feast_day** (General Roman Calendar): the Missal's (LitCal, latest missal: 2008,
//!   2002, 1970) over romcal's `general_roman` row.
//!
//! Fields only one source gives (places, gender, orders, citizenship: Wikidata; the
//! Martyrology day and country: CRMEDR; biography: the 1914 elogia) are not compared.
//! The Martyrology day is the join key with Wikidata's death day, so those agree by
//! construction.

use crate::fold::{fold, strip_title, tokens};

/// Wikidata, as `field_sources` names it.
pub(crate) const WIKIDATA: &str = "wikidata";
/// The Roman Martyrology ids and names (CRMEDR).
pub(crate) const CRMEDR: &str = "crmedr";
/// romcal's catalogue and calendars.
pub(crate) const ROMCAL: &str = "romcal";
/// LitCal's missals (the Roman Missal's proper of saints).
pub(crate) const LITCAL: &str = "litcal";
/// Our list of canonizations (`data/canonizations.tsv`).
pub(crate) const CANONIZATIONS: &str = "canonizations";

/// The canonizations the older lists lag behind, written from public facts.
const CANONIZATIONS_TSV: &str = include_str!("../../data/canonizations.tsv");

/// One canonization of `data/canonizations.tsv`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Canonization {
    /// The record's primary name, as in our data.
    pub name: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub pope: String,
    pub source: String,
}

/// A line of the canonizations list that cannot be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CanonizationsError {
    #[error("canonizations.tsv line {line}: {why}")]
    Line { line: usize, why: String },
}

/// Whether `d` is `YYYY-MM-DD` with a plausible month and day.
fn is_iso_day(d: &str) -> bool {
    let parts: Vec<&str> = d.split('-').collect();
    parts.len() == 3
        && parts[0].len() == 4
        && parts[1].len() == 2
        && parts[2].len() == 2
        && ymd(d).is_some()
}

/// The canonizations of a list in the file's format (comments `#`, a header `name`, then
/// name, date, pope, source separated by tabs).
pub(crate) fn parse_canonizations(text: &str) -> Result<Vec<Canonization>, CanonizationsError> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let line = i + 1;
        if l.starts_with('#') || l.trim().is_empty() || l.starts_with("name\t") {
            continue;
        }
        let cols: Vec<&str> = l.split('\t').map(str::trim).collect();
        let [name, date, pope, source] = cols[..] else {
            return Err(CanonizationsError::Line {
                line,
                why: format!("{} columns, 4 expected", cols.len()),
            });
        };
        if name.is_empty() || pope.is_empty() || source.is_empty() {
            return Err(CanonizationsError::Line {
                line,
                why: "an empty column".into(),
            });
        }
        if !is_iso_day(date) {
            return Err(CanonizationsError::Line {
                line,
                why: format!("date {date:?} is not YYYY-MM-DD"),
            });
        }
        out.push(Canonization {
            name: name.to_string(),
            date: date.to_string(),
            pope: pope.to_string(),
            source: source.to_string(),
        });
    }
    Ok(out)
}

/// The canonizations of `data/canonizations.tsv`.
pub(crate) fn canonizations() -> Result<Vec<Canonization>, CanonizationsError> {
    parse_canonizations(CANONIZATIONS_TSV)
}

/// The key a name is looked up by in the canonizations list (folded, without "Saint",
/// "Blessed" …).
pub(crate) fn canonization_key(name: &str) -> String {
    tokens(&strip_title(name)).join(" ")
}

/// Fields whose disagreements are too many to list one by one (a hundred and more, of a
/// few kinds): the ingest warns once per class (`Disagreement::class`) with the count, and
/// the fixture lists the count; each one is logged at debug level.
pub(crate) const BULK: &[&str] = &["canonical_status"];

/// The liturgical titles the Missal uses in its celebrations' names.
const MISSAL_TITLES: &[&str] = &[
    "priest",
    "bishop",
    "martyr",
    "virgin",
    "religious",
    "doctor of the church",
    "pope",
    "abbot",
    "abbess",
    "apostle",
    "evangelist",
    "deacon",
    "hermit",
    "monk",
    "the first martyr",
];

/// `field_sources.titles` when the Missal's titles and romcal's others are both kept.
pub(crate) const LITCAL_ROMCAL: &str = "litcal+romcal";

/// A date as romcal gives it: `YYYY` or `YYYY-MM-DD`, and whether it says "approximate".
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct SourceDate {
    pub value: String,
    pub approximate: bool,
}

/// Everything the sources say about one person, per field, before reconciliation.
#[derive(Debug, Clone, Default)]
pub(crate) struct Claims {
    /// Wikidata's status (normalised) with its raw label.
    pub wikidata_status: Option<(&'static str, String)>,
    /// "Sanctus"/"Beatus" of the Martyrology entry.
    pub crmedr_status: Option<&'static str>,
    /// romcal's `canonizationLevel`.
    pub romcal_status: Option<&'static str>,
    /// "Saint"/"Blessed" of a LitCal celebration's English name.
    pub litcal_status: Option<&'static str>,
    /// The person's canonization in `data/canonizations.tsv`.
    pub canonization: Option<Canonization>,
    /// Wikidata's birth and death dates (`YYYY` or `YYYY-MM-DD`).
    pub wikidata_birth: Option<String>,
    /// Wikidata's death date.
    pub wikidata_death: Option<String>,
    /// romcal's `dateOfBirth`.
    pub romcal_birth: Option<SourceDate>,
    /// romcal's `dateOfDeath`.
    pub romcal_death: Option<SourceDate>,
    /// The Martyrology's Latin name, nominative, with its status word.
    pub crmedr_latin: Option<String>,
    /// The Missal's Latin name of a one-person celebration (genitive).
    pub litcal_latin: Option<String>,
    /// English names by source (Wikidata label, Martyrology, romcal, Missal).
    pub names: Vec<(&'static str, String)>,
    /// The source of the record's primary name.
    pub name_from: Option<&'static str>,
    /// romcal's titles, lower case ("doctor of the church").
    pub romcal_titles: Vec<String>,
    /// The Missal's titles of a one-person General Roman celebration.
    pub litcal_titles: Option<Vec<String>>,
    /// romcal's General Roman Calendar day.
    pub romcal_feast: Option<(u32, u32)>,
    /// The latest Missal's day (LitCal General Roman) and that missal's label.
    pub litcal_feast: Option<(u32, u32, String)>,
}

impl Claims {
    /// Take what `other` knows and `self` does not (two records of one person merged).
    pub(crate) fn absorb(&mut self, other: Claims) {
        fn fill<T>(a: &mut Option<T>, b: Option<T>) {
            if a.is_none() {
                *a = b;
            }
        }
        fill(&mut self.wikidata_status, other.wikidata_status);
        fill(&mut self.crmedr_status, other.crmedr_status);
        fill(&mut self.romcal_status, other.romcal_status);
        fill(&mut self.litcal_status, other.litcal_status);
        fill(&mut self.canonization, other.canonization);
        fill(&mut self.wikidata_birth, other.wikidata_birth);
        fill(&mut self.wikidata_death, other.wikidata_death);
        fill(&mut self.romcal_birth, other.romcal_birth);
        fill(&mut self.romcal_death, other.romcal_death);
        fill(&mut self.crmedr_latin, other.crmedr_latin);
        fill(&mut self.litcal_latin, other.litcal_latin);
        fill(&mut self.name_from, other.name_from);
        fill(&mut self.litcal_titles, other.litcal_titles);
        fill(&mut self.romcal_feast, other.romcal_feast);
        fill(&mut self.litcal_feast, other.litcal_feast);
        if self.romcal_titles.is_empty() {
            self.romcal_titles = other.romcal_titles;
        }
        for n in other.names {
            if !self.names.contains(&n) {
                self.names.push(n);
            }
        }
    }
}

/// A field two sources give differently.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Disagreement {
    /// The profile field.
    pub field: &'static str,
    /// The class of the difference (`year`, `day`, `status`, `name` …).
    pub kind: &'static str,
    pub kept: String,
    pub kept_from: &'static str,
    pub other: String,
    pub other_from: &'static str,
}

impl Disagreement {
    /// The ingest warning (`saint field: jerome: death_date: kept "0420" (wikidata); romcal has "0419"`).
    pub(crate) fn warning(&self, saint_id: &str) -> String {
        format!(
            "saint field: {saint_id}: {}: kept {:?} ({}); {} has {:?}",
            self.field, self.kept, self.kept_from, self.other_from, self.other
        )
    }

    /// The class a disagreement is counted under: the warning without the saint and
    /// without Wikidata's raw label (`canonical_status: kept "blessed" (crmedr); wikidata
    /// has "saint"`).
    pub(crate) fn class(&self) -> String {
        let other = self.other.split(" (").next().unwrap_or(&self.other);
        format!(
            "{}: kept {:?} ({}); {} has {:?}",
            self.field, self.kept, self.kept_from, self.other_from, other
        )
    }
}

/// The values kept for one saint, each with its source, and the disagreements.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Reconciled {
    pub status: Option<&'static str>,
    pub status_from: Option<&'static str>,
    pub birth: Option<String>,
    pub birth_from: Option<&'static str>,
    pub death: Option<String>,
    pub death_from: Option<&'static str>,
    pub latin_name: Option<String>,
    pub latin_from: Option<&'static str>,
    pub titles: Vec<String>,
    pub titles_from: Option<&'static str>,
    pub feast: Option<(u32, u32)>,
    pub feast_from: Option<&'static str>,
    /// Same year, one source more precise: not a disagreement, counted for the notes.
    pub precision_choices: Vec<(&'static str, &'static str)>,
    pub disagreements: Vec<Disagreement>,
}

/// The year of `YYYY`, `YYYY-MM-DD` or `-YYYY…`.
fn year_of(d: &str) -> Option<i64> {
    let (neg, rest) = match d.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, d),
    };
    let y: i64 = rest.split('-').next()?.parse().ok()?;
    Some(if neg { -y } else { y })
}

/// Whether a date string has a day (`YYYY-MM-DD`).
fn has_day(d: &str) -> bool {
    d.trim_start_matches('-').split('-').count() >= 3
}

/// The Julian Day Number of a day in the Gregorian (`gregorian`) or the Julian calendar.
fn day_number(y: i64, m: i64, d: i64, gregorian: bool) -> i64 {
    let a = (14 - m) / 12;
    let y = y + 4800 - a;
    let m = m + 12 * a - 3;
    let base = d + (153 * m + 2) / 5 + 365 * y + y.div_euclid(4);
    if gregorian {
        base - y.div_euclid(100) + y.div_euclid(400) - 32045
    } else {
        base - 32083
    }
}

/// (year, month, day) of `YYYY-MM-DD`, with a plausible month and day.
fn ymd(s: &str) -> Option<(i64, i64, i64)> {
    let y = year_of(s)?;
    let mut rest = s.trim_start_matches('-').split('-').skip(1);
    let m: i64 = rest.next()?.parse().ok()?;
    let d: i64 = rest.next()?.parse().ok()?;
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
}

/// Whether Wikidata's day is romcal's Julian day written in the Gregorian calendar (the
/// Wikidata Query Service gives every date in the proleptic Gregorian calendar; the
/// Martyrology, the calendars and the historians keep the Julian date before 1582).
fn same_day_julian(wikidata: &str, romcal: &str) -> bool {
    match (ymd(wikidata), ymd(romcal)) {
        (Some((wy, wm, wd)), Some((ry, rm, rd))) => {
            ry < 1583 && (wy, wm, wd) != (ry, rm, rd) && {
                day_number(wy, wm, wd, true) == day_number(ry, rm, rd, false)
            }
        }
        _ => false,
    }
}

/// One date field from Wikidata and romcal (see the module's rule).
pub(crate) fn date(
    field: &'static str,
    wikidata: Option<&str>,
    romcal: Option<&SourceDate>,
    out: &mut Reconciled,
) -> (Option<String>, Option<&'static str>) {
    match (wikidata, romcal) {
        (None, None) => (None, None),
        (Some(w), None) => (Some(w.to_string()), Some(WIKIDATA)),
        (None, Some(r)) => (Some(r.value.clone()), Some(ROMCAL)),
        (Some(w), Some(r)) if same_day_julian(w, &r.value) => {
            out.disagreements.push(Disagreement {
                field,
                kind: "julian",
                kept: r.value.clone(),
                kept_from: ROMCAL,
                other: w.to_string(),
                other_from: WIKIDATA,
            });
            (Some(r.value.clone()), Some(ROMCAL))
        }
        (Some(w), Some(r)) => {
            let same_year = year_of(w).is_some() && year_of(w) == year_of(&r.value);
            if same_year {
                if has_day(&r.value) && !has_day(w) {
                    out.precision_choices.push((field, ROMCAL));
                    return (Some(r.value.clone()), Some(ROMCAL));
                }
                if has_day(w) && !has_day(&r.value) {
                    out.precision_choices.push((field, WIKIDATA));
                } else if has_day(w) && w != r.value {
                    out.disagreements.push(Disagreement {
                        field,
                        kind: "day",
                        kept: w.to_string(),
                        kept_from: WIKIDATA,
                        other: r.value.clone(),
                        other_from: ROMCAL,
                    });
                }
            } else {
                out.disagreements.push(Disagreement {
                    field,
                    kind: match (year_of(w), year_of(&r.value)) {
                        (Some(a), Some(b)) if (a - b).abs() > 100 => "year-far",
                        _ if r.approximate => "year-approximate",
                        _ => "year",
                    },
                    kept: w.to_string(),
                    kept_from: WIKIDATA,
                    other: r.value.clone(),
                    other_from: ROMCAL,
                });
            }
            (Some(w.to_string()), Some(WIKIDATA))
        }
    }
}

/// The status kept (see the module's rule) and where the others differ.
fn status(c: &Claims, out: &mut Reconciled) {
    let listed = [
        (CANONIZATIONS, c.canonization.as_ref().map(|_| "saint")),
        (ROMCAL, c.romcal_status),
        (LITCAL, c.litcal_status),
        (CRMEDR, c.crmedr_status),
        (WIKIDATA, c.wikidata_status.as_ref().map(|(s, _)| *s)),
    ];
    let Some((from, kept)) = listed.iter().find_map(|(src, s)| s.map(|s| (*src, s))) else {
        return;
    };
    out.status = Some(kept);
    out.status_from = Some(from);
    for (src, s) in listed {
        let Some(s) = s else { continue };
        if src == from || s == kept {
            continue;
        }
        let other = match (src, &c.wikidata_status) {
            (WIKIDATA, Some((_, raw))) if raw != s => format!("{s} ({raw})"),
            _ => s.to_string(),
        };
        out.disagreements.push(Disagreement {
            field: "canonical_status",
            kind: "status",
            kept: kept.to_string(),
            kept_from: from,
            other,
            other_from: src,
        });
    }
}

/// A Latin word without its case ending ("Hieronymi", "Hieronymus" → "hieronym";
/// "Pii", "Pius" → "pi"), V = U and J = I.
fn latin_stem(w: &str) -> String {
    let w: String = fold(w)
        .replace("ph", "f")
        .chars()
        .filter(|c| c.is_alphabetic())
        .map(|c| match c {
            'v' | 'w' => 'u',
            'j' | 'y' => 'i',
            c => c,
        })
        .collect();
    for end in [
        "orum", "arum", "ius", "ii", "us", "um", "is", "ae", "es", "em", "er", "i", "a", "o", "e",
    ] {
        if let Some(s) = w.strip_suffix(end) {
            if s.chars().count() >= 2 {
                return s.to_string();
            }
        }
    }
    w
}

/// The first name word of a Latin name, without "Sanctus", "S.", "Beati" ….
fn latin_first_name(la: &str) -> Option<&str> {
    la.split([' ', ',']).filter(|w| !w.is_empty()).find(|w| {
        let f = fold(w);
        !(f.starts_with("sanct")
            || f.starts_with("beat")
            || matches!(f.as_str(), "s" | "ss" | "b" | "bb" | "bmv"))
    })
}

/// The Martyrology's Latin name without its status word ("Sanctus Hieronymus" →
/// "Hieronymus"), and the Missal's compared by first-name stem.
fn latin(c: &Claims, out: &mut Reconciled) {
    let Some(la) = c.crmedr_latin.as_deref() else {
        return;
    };
    let words: Vec<&str> = la.split_whitespace().collect();
    let skip = words
        .iter()
        .take_while(|w| {
            let f = fold(w);
            f.starts_with("sanct") || f.starts_with("beat")
        })
        .count();
    let name = words[skip.min(words.len())..].join(" ");
    if name.is_empty() {
        return;
    }
    if let (Some(lit), Some(a)) = (c.litcal_latin.as_deref(), latin_first_name(&name)) {
        if let Some(b) = latin_first_name(lit) {
            let (sa, sb) = (latin_stem(a), latin_stem(b));
            if !(sa.starts_with(&sb) || sb.starts_with(&sa)) {
                out.disagreements.push(Disagreement {
                    field: "latin_name",
                    kind: "name",
                    kept: name.clone(),
                    kept_from: CRMEDR,
                    other: lit.to_string(),
                    other_from: LITCAL,
                });
            }
        }
    }
    out.latin_name = Some(name);
    out.latin_from = Some(CRMEDR);
}

/// The English names of the other sources against the primary name.
fn names(
    c: &Claims,
    primary: &str,
    compatible: &dyn Fn(&[String], &[String]) -> bool,
    out: &mut Reconciled,
) {
    let Some(from) = c.name_from else { return };
    let pt = tokens(&strip_title(primary));
    let mut seen: Vec<&'static str> = Vec::new();
    for (src, n) in &c.names {
        if *src == from || seen.contains(src) {
            continue;
        }
        let t = tokens(&strip_title(n));
        if t.is_empty() || pt.is_empty() {
            continue;
        }
        // a source that gives several names disagrees only when none of them agrees
        let any_agrees = c
            .names
            .iter()
            .filter(|(s, _)| s == src)
            .any(|(_, m)| compatible(&tokens(&strip_title(m)), &pt));
        if !any_agrees {
            seen.push(src);
            out.disagreements.push(Disagreement {
                field: "primary_name",
                kind: "name",
                kept: primary.to_string(),
                kept_from: from,
                other: n.clone(),
                other_from: src,
            });
        }
    }
}

/// The Missal's titles of one person ("Priest and Doctor of the Church" → priest, doctor
/// of the church); `None` when the words after the name are not all one person's titles
/// ("Monk, and Methodius, Bishop"; "Bishop, and Companions, Martyrs").
pub(crate) fn missal_titles(suffix: &str) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for part in suffix.split(',').flat_map(|p| p.split(" and ")) {
        let t = part.trim().to_lowercase();
        if t.is_empty() {
            continue;
        }
        let t = match t.as_str() {
            "doctor" => "doctor of the church".to_string(),
            _ => t,
        };
        if !MISSAL_TITLES.contains(&t.as_str()) {
            return None;
        }
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Some(out)
}

/// Titles: the Missal's, then romcal's that the Missal does not give (see the module's rule).
fn titles(c: &Claims, out: &mut Reconciled) {
    let romcal_missal: Vec<&String> = c
        .romcal_titles
        .iter()
        .filter(|t| MISSAL_TITLES.contains(&t.as_str()))
        .collect();
    match &c.litcal_titles {
        Some(lit) if !lit.is_empty() => {
            let mut kept: Vec<String> = lit.clone();
            for t in &c.romcal_titles {
                if !kept.contains(t) {
                    kept.push(t.clone());
                }
            }
            let same =
                romcal_missal.len() == lit.len() && lit.iter().all(|t| romcal_missal.contains(&t));
            if !c.romcal_titles.is_empty() && !same {
                out.disagreements.push(Disagreement {
                    field: "titles",
                    kind: "titles",
                    kept: lit.join(", "),
                    kept_from: LITCAL,
                    other: c.romcal_titles.join(", "),
                    other_from: ROMCAL,
                });
            }
            out.titles_from = Some(if kept.len() > lit.len() {
                LITCAL_ROMCAL
            } else {
                LITCAL
            });
            out.titles = kept;
        }
        _ if !c.romcal_titles.is_empty() => {
            out.titles = c.romcal_titles.clone();
            out.titles_from = Some(ROMCAL);
        }
        _ => {}
    }
}

/// The General Roman Calendar day: the Missal's over romcal's.
fn feast(c: &Claims, out: &mut Reconciled) {
    let fmt = |(m, d): (u32, u32)| format!("{m:02}-{d:02}");
    match (&c.litcal_feast, c.romcal_feast) {
        (Some((m, d, missal)), r) => {
            if let Some(r) = r.filter(|r| *r != (*m, *d)) {
                out.disagreements.push(Disagreement {
                    field: "feast_day",
                    kind: "day",
                    kept: format!("{} ({missal})", fmt((*m, *d))),
                    kept_from: LITCAL,
                    other: fmt(r),
                    other_from: ROMCAL,
                });
            }
            out.feast = Some((*m, *d));
            out.feast_from = Some(LITCAL);
        }
        (None, Some(r)) => {
            out.feast = Some(r);
            out.feast_from = Some(ROMCAL);
        }
        (None, None) => {}
    }
}

/// Every compared field of one saint, by the module's rules. `primary` is the record's
/// primary name; `compatible` the ingest's name-compatibility test.
pub(crate) fn reconcile(
    c: &Claims,
    primary: &str,
    compatible: &dyn Fn(&[String], &[String]) -> bool,
) -> Reconciled {
    let mut out = Reconciled::default();
    status(c, &mut out);
    let (b, bf) = date(
        "birth_date",
        c.wikidata_birth.as_deref(),
        c.romcal_birth.as_ref(),
        &mut out,
    );
    let (d, df) = date(
        "death_date",
        c.wikidata_death.as_deref(),
        c.romcal_death.as_ref(),
        &mut out,
    );
    (out.birth, out.birth_from, out.death, out.death_from) = (b, bf, d, df);
    latin(c, &mut out);
    names(c, primary, compatible, &mut out);
    titles(c, &mut out);
    feast(c, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compat(a: &[String], b: &[String]) -> bool {
        a.first() == b.first()
            && (a.iter().all(|t| b.contains(t)) || b.iter().all(|t| a.contains(t)))
    }

    fn sd(v: &str, approximate: bool) -> SourceDate {
        SourceDate {
            value: v.to_string(),
            approximate,
        }
    }

    #[test]
    fn the_church_lists_decide_the_status() {
        let c = Claims {
            wikidata_status: Some(("saint", "locally-venerated saint".into())),
            crmedr_status: Some("blessed"),
            ..Default::default()
        };
        let r = reconcile(&c, "X", &compat);
        assert_eq!((r.status, r.status_from), (Some("blessed"), Some(CRMEDR)));
        assert_eq!(r.disagreements.len(), 1);
        assert_eq!(r.disagreements[0].other, "saint (locally-venerated saint)");
        let c = Claims {
            wikidata_status: Some(("blessed", "blessed".into())),
            crmedr_status: Some("blessed"),
            romcal_status: Some("saint"),
            ..Default::default()
        };
        let r = reconcile(&c, "X", &compat);
        assert_eq!((r.status, r.status_from), (Some("saint"), Some(ROMCAL)));
        assert_eq!(r.disagreements.len(), 2);
        let c = Claims {
            wikidata_status: Some(("venerable", "venerable".into())),
            ..Default::default()
        };
        let r = reconcile(&c, "X", &compat);
        assert_eq!(
            (r.status, r.status_from),
            (Some("venerable"), Some(WIKIDATA))
        );
        assert!(r.disagreements.is_empty());
    }

    #[test]
    fn a_canonization_since_the_lists_makes_a_saint() {
        let list = "# comment\nname\tdate\tpope\tsource\n\
                    Titus Brandsma\t2022-05-15\tFrancis\tcanonization Mass 15 May 2022\n";
        let cs = parse_canonizations(list).expect("a well-formed list");
        assert_eq!(cs.len(), 1);
        assert_eq!(
            canonization_key("Blessed Titus Brandsma"),
            canonization_key(&cs[0].name)
        );
        let c = Claims {
            wikidata_status: Some(("saint", "blessed;Catholic saint".into())),
            crmedr_status: Some("blessed"),
            canonization: cs.first().cloned(),
            ..Default::default()
        };
        let r = reconcile(&c, "Titus Brandsma", &compat);
        assert_eq!(
            (r.status, r.status_from),
            (Some("saint"), Some(CANONIZATIONS))
        );
        assert_eq!(r.disagreements.len(), 1, "{:?}", r.disagreements);
        assert_eq!(
            r.disagreements[0].class(),
            r#"canonical_status: kept "saint" (canonizations); crmedr has "blessed""#
        );
        // whatever the older lists say, romcal included
        let c = Claims {
            romcal_status: Some("blessed"),
            ..c
        };
        assert_eq!(reconcile(&c, "X", &compat).status_from, Some(CANONIZATIONS));
        // a malformed line is an error, not a guess
        assert!(parse_canonizations("X\t2022-5-15\tFrancis\tsource\n").is_err());
        assert!(parse_canonizations("X\t2022-05-15\tFrancis\n").is_err());
        assert!(parse_canonizations("X\t2022-13-15\tFrancis\ts\n").is_err());
        // the shipped list reads
        let shipped = canonizations().expect("data/canonizations.tsv reads");
        assert!(shipped.len() >= 30);
        assert!(shipped.iter().all(|c| c.date.as_str() > "1999"));
    }

    #[test]
    fn dates_keep_the_more_precise_and_wikidata_when_they_differ() {
        let mut r = Reconciled::default();
        let d = sd("1897-09-30", false);
        assert_eq!(
            date("death_date", Some("1897"), Some(&d), &mut r),
            (Some("1897-09-30".into()), Some(ROMCAL))
        );
        assert_eq!(r.precision_choices, [("death_date", ROMCAL)]);
        assert!(r.disagreements.is_empty());
        let d = sd("0419", true);
        assert_eq!(
            date("death_date", Some("0420-09-30"), Some(&d), &mut r).1,
            Some(WIKIDATA)
        );
        assert_eq!(r.disagreements[0].kind, "year-approximate");
        let d = sd("1231-06-14", false);
        date("death_date", Some("1231-06-13"), Some(&d), &mut r);
        assert_eq!(r.disagreements[1].kind, "day");
        assert_eq!(date("birth_date", None, None, &mut r), (None, None));
        assert_eq!(year_of("-0100"), Some(-100));
        // Thomas Becket: 29 December 1170 (Julian) is 5 January 1171 (Gregorian)
        let d = sd("1170-12-29", false);
        assert_eq!(
            date("death_date", Some("1171-01-05"), Some(&d), &mut r),
            (Some("1170-12-29".into()), Some(ROMCAL))
        );
        assert_eq!(r.disagreements[2].kind, "julian");
        assert!(!same_day_julian("1897-10-12", "1897-09-30"));
        assert!(same_day_julian("0420-10-01", "0420-09-30"));
        let d = sd("0258", false);
        date("death_date", Some("1515-08-10"), Some(&d), &mut r);
        assert_eq!(r.disagreements[3].kind, "year-far");
        assert_eq!(year_of("nonsense"), None);
    }

    #[test]
    fn latin_names_compare_by_stem() {
        let c = Claims {
            crmedr_latin: Some("Sanctus Hieronymus".into()),
            litcal_latin: Some("S. Hieronymi, presbyteri et Ecclesiae doctoris".into()),
            ..Default::default()
        };
        let r = reconcile(&c, "Jerome", &compat);
        assert_eq!(r.latin_name.as_deref(), Some("Hieronymus"));
        assert!(r.disagreements.is_empty(), "{:?}", r.disagreements);
        assert_eq!(latin_stem("Pii"), latin_stem("Pius"));
        assert_eq!(latin_stem("Ioannis"), latin_stem("Ioannes"));
        assert_eq!(latin_stem("Aloisii"), latin_stem("Aloysius"));
        assert_eq!(latin_stem("Alfonsi"), latin_stem("Alphonsus"));
        assert_eq!(latin_stem("Hedvigis"), latin_stem("Hedwigis"));
        assert!(latin_stem("Silvestri").starts_with(&latin_stem("Silvester")));
        let c = Claims {
            crmedr_latin: Some("Sancta Catharina".into()),
            litcal_latin: Some("S. Brigittae, religiosae".into()),
            ..Default::default()
        };
        assert_eq!(
            reconcile(&c, "X", &compat).disagreements[0].field,
            "latin_name"
        );
        // no Latin from the Martyrology: none shown (the Missal's is a genitive)
        let c = Claims {
            litcal_latin: Some("S. Pii".into()),
            ..Default::default()
        };
        assert_eq!(reconcile(&c, "Pio", &compat).latin_name, None);
    }

    #[test]
    fn the_missal_decides_liturgical_titles_and_days() {
        assert_eq!(
            missal_titles("Priest and Doctor"),
            Some(vec![
                "priest".to_string(),
                "doctor of the church".to_string()
            ])
        );
        assert_eq!(missal_titles("Monk, and Methodius, Bishop"), None);
        assert_eq!(missal_titles("Bishop, and Companions, Martyrs"), None);
        let c = Claims {
            romcal_titles: vec!["bishop".into(), "missionary".into()],
            litcal_titles: Some(vec!["bishop".into(), "martyr".into()]),
            romcal_feast: Some((6, 5)),
            litcal_feast: Some((6, 5, "2008".into())),
            ..Default::default()
        };
        let r = reconcile(&c, "Boniface", &compat);
        assert_eq!(r.titles, ["bishop", "martyr", "missionary"]);
        assert_eq!(r.titles_from, Some(LITCAL_ROMCAL));
        assert_eq!(r.disagreements.len(), 1, "{:?}", r.disagreements);
        assert_eq!(r.feast, Some((6, 5)));
        let c = Claims {
            romcal_feast: Some((6, 5)),
            litcal_feast: Some((6, 6, "2008".into())),
            ..Default::default()
        };
        let r = reconcile(&c, "X", &compat);
        assert_eq!(
            r.disagreements[0].class(),
            r#"feast_day: kept "06-06 (2008)" (litcal); romcal has "06-05""#
        );
    }

    #[test]
    fn english_names_must_be_compatible() {
        let c = Claims {
            names: vec![
                (WIKIDATA, "Jerome".into()),
                (ROMCAL, "Jerome".into()),
                (CRMEDR, "Saint Eusebius".into()),
            ],
            name_from: Some(WIKIDATA),
            ..Default::default()
        };
        let r = reconcile(&c, "Jerome", &compat);
        assert_eq!(r.disagreements.len(), 1);
        assert_eq!(r.disagreements[0].other_from, CRMEDR);
    }
}

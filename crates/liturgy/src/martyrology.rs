//! The Roman Martyrology (`martyrology/divinum-officium-1908-en-1749-la`):
//! English (1908, Marquess of Bute) and Latin (1749), one text per calendar
//! day, with the traditional leap-year shift of late February.

use crate::error::LiturgyError;
use chrono::{Datelike, NaiveDate};
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;

/// The Martyrology text of one day.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MartyrologyDay {
    /// The file used (`02-24`): differs from the civil date in late February of leap years.
    pub source_day: String,
    /// Language (`en`, `la`).
    pub language: String,
    /// Heading lines ("Upon the 24th day of February, were born into the better life:").
    pub heading: Vec<String>,
    /// The elogia, in order.
    pub entries: Vec<String>,
    /// A note on the leap-year shift, when it applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The loaded Martyrology.
#[derive(Debug, Clone, Default)]
pub struct Martyrology {
    /// (language, "MM-DD") -> (heading, entries).
    days: HashMap<(String, String), (Vec<String>, Vec<String>)>,
}

fn clean(line: &str) -> String {
    let mut s = line.trim().to_string();
    // Divinum Officium markup: "/:...:/" rubrics, trailing "~" continuations.
    while let (Some(a), Some(b)) = (s.find("/:"), s.find(":/")) {
        if b > a {
            s.replace_range(a..b + 2, "");
        } else {
            break;
        }
    }
    s.trim().trim_end_matches('~').trim().to_string()
}

fn parse_day(text: &str) -> (Vec<String>, Vec<String>) {
    let mut heading = Vec::new();
    let mut entries = Vec::new();
    let mut in_body = false;
    for raw in text.lines() {
        let l = raw.trim();
        if l == "_" {
            in_body = true;
            continue;
        }
        let c = clean(l);
        if c.is_empty() {
            continue;
        }
        if in_body {
            entries.push(c);
        } else {
            heading.push(c);
        }
    }
    (heading, entries)
}

/// The file day ("MM-DD") whose Martyrology is read on a civil date.
/// In leap years the 24th of February is the bissextile day (the stub `02-29`),
/// and the entries of 24–28 February are read on 25–29 February.
pub fn source_day(date: NaiveDate) -> String {
    let leap = NaiveDate::from_ymd_opt(date.year(), 2, 29).is_some();
    if leap && date.month() == 2 && date.day() >= 24 {
        if date.day() == 24 {
            return "02-29".into();
        }
        return format!("02-{:02}", date.day() - 1);
    }
    format!("{:02}-{:02}", date.month(), date.day())
}

impl Martyrology {
    /// Load both languages.
    pub fn load(data_dir: &Path) -> Result<Self, LiturgyError> {
        let base = data_dir.join("martyrology/divinum-officium-1908-en-1749-la");
        let mut days = HashMap::new();
        for (lang, dir) in [
            ("en", "English/Martyrologium"),
            ("la", "Latin/Martyrologium"),
        ] {
            let d = base.join(dir);
            let rd = std::fs::read_dir(&d).map_err(|e| LiturgyError::io(&d, e))?;
            for f in rd.flatten() {
                let p = f.path();
                let Some(stem) = p.file_stem().and_then(|s| s.to_str()) else {
                    continue;
                };
                if stem.len() != 5 || !stem.as_bytes()[2].eq(&b'-') {
                    continue;
                }
                let text = std::fs::read_to_string(&p).map_err(|e| LiturgyError::io(&p, e))?;
                days.insert((lang.to_string(), stem.to_string()), parse_day(&text));
            }
        }
        if days.len() < 700 {
            return Err(LiturgyError::data(
                &base,
                format!("only {} day files", days.len()),
            ));
        }
        Ok(Martyrology { days })
    }

    /// Number of day texts loaded (both languages).
    pub fn len(&self) -> usize {
        self.days.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.days.is_empty()
    }

    /// The Martyrology of a civil date in `en` or `la`; `None` when the data has nothing.
    pub fn day(&self, date: NaiveDate, language: &str) -> Option<MartyrologyDay> {
        let src = source_day(date);
        let (heading, entries) = self.days.get(&(language.to_string(), src.clone()))?;
        if heading.is_empty() && entries.is_empty() {
            return None;
        }
        let civil = format!("{:02}-{:02}", date.month(), date.day());
        let note = (src != civil).then(|| {
            if src == "02-29" {
                "Leap year: 24 February is the bissextile day; the entries of 24 February are read tomorrow.".to_string()
            } else {
                format!(
                    "Leap year: the entries of {} February are read on {} February.",
                    &src[3..],
                    date.day()
                )
            }
        });
        Some(MartyrologyDay {
            source_day: src,
            language: language.to_string(),
            heading: heading.clone(),
            entries: entries.clone(),
            note,
        })
    }
}

/// The formatted text of a day: date heading, the Martyrology's heading, each entry in order.
pub fn format_day(date: NaiveDate, d: &MartyrologyDay) -> String {
    let mut out = format!("Roman Martyrology — {}\n", date.format("%A, %-d %B %Y"));
    if let Some(n) = &d.note {
        out.push_str(&format!("({n})\n"));
    }
    out.push('\n');
    for h in &d.heading {
        out.push_str(h);
        out.push('\n');
    }
    for e in &d.entries {
        out.push('\n');
        out.push_str(e);
        out.push('\n');
    }
    out.trim_end().to_string()
}

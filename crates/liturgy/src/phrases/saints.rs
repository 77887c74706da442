//! Saints and feasts named by the calendar's own names ("Saint Agnes",
//! "Our Lady of Guadalupe"): every word must be in one celebration's name.

use super::fold;
use crate::calendar::CalendarData;
use std::sync::{Arc, Mutex, OnceLock};

/// Titles and joining words of saints' names, which a phrase may add or leave
/// out ("Saint Agnes", "St Agnes, virgin and martyr"). Every other word of a
/// saint's name in a phrase must be in the celebration's name.
pub const NAME_TITLES: &[&str] = &[
    "saint",
    "saints",
    "st",
    "sts",
    "ss",
    "san",
    "santa",
    "santo",
    "santi",
    "sao",
    "sainte",
    "the",
    "of",
    "and",
    "feast",
    "day",
    "de",
    "di",
    "da",
    "do",
    "la",
    "el",
    "le",
    "del",
    "della",
    "des",
    "du",
    "y",
    "e",
    "et",
    "sv",
    "svateho",
    "svate",
    "blessed",
    "our",
    "lady",
    "martyr",
    "bishop",
    "priest",
    "virgin",
    "pope",
    "doctor",
    "church",
    "apostle",
    "religious",
    "abbot",
    "companions",
    "martyrs",
    "nuestra",
    "senora",
    "madonna",
    "notre",
    "dame",
    "nossa",
    "senhora",
];

/// The calendar's names, folded and split once per calendar.
struct NameIndex {
    /// (key, words of one name other than titles, is an Our Lady key).
    names: Vec<(String, Vec<String>, bool)>,
}

fn name_words(s: &str) -> Vec<String> {
    fold(s)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !NAME_TITLES.contains(w))
        .map(str::to_string)
        .collect()
}

/// A calendar's address, its number of names, and its index.
type CachedIndex = (usize, usize, Arc<NameIndex>);

/// The index of a calendar's names, cached by the calendar's address and
/// number of names (a few calendars at most are alive at once).
fn name_index(cal: &CalendarData) -> Arc<NameIndex> {
    static CACHE: OnceLock<Mutex<Vec<CachedIndex>>> = OnceLock::new();
    let id = (cal as *const CalendarData as usize, cal.all_names().count());
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    if let Ok(c) = cache.lock() {
        if let Some((_, _, ix)) = c.iter().find(|(a, n, _)| (*a, *n) == id) {
            return ix.clone();
        }
    }
    let ix = Arc::new(NameIndex {
        names: cal
            .all_names()
            .map(|(key, _lang, name)| {
                (
                    key.to_string(),
                    name_words(name),
                    key.starts_with("OurLady"),
                )
            })
            .filter(|(_, words, _)| !words.is_empty())
            .collect(),
    });
    if let Ok(mut c) = cache.lock() {
        if c.len() >= 8 {
            c.remove(0);
        }
        c.push((id.0, id.1, ix.clone()));
    }
    ix
}

/// A saint or feast named by the calendar's own names: every word of
/// `spaced` other than [`NAME_TITLES`] is in one celebration's name, and no
/// other celebration fits as well (the shortest fitting name wins; a tie
/// between two celebrations is no answer).
pub fn match_name(cal: &CalendarData, spaced: &str) -> Option<String> {
    let q = name_words(spaced);
    if q.is_empty() || q.iter().any(|w| w.parse::<i64>().is_ok()) {
        return None;
    }
    let lady = ["lady", "senora", "madonna", "notre dame", "senhora"]
        .iter()
        .any(|w| spaced.contains(w));
    let mut best: Option<(f64, &str, bool)> = None;
    let ix = name_index(cal);
    for (key, words, our_lady) in &ix.names {
        if !q.iter().all(|w| words.contains(w)) {
            continue;
        }
        let mut score = q.len() as f64 / words.len() as f64;
        if lady && *our_lady {
            score += 1.0;
        }
        match best {
            Some((s, k, _)) if (score - s).abs() < 1e-9 && k != key => {
                best = Some((s, k, true));
            }
            Some((s, _, _)) if score <= s => {}
            _ => best = Some((score, key, false)),
        }
    }
    best.filter(|(_, _, tie)| !tie)
        .map(|(_, k, _)| k.to_string())
}

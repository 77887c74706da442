//! The saints an elogium of the Roman Martyrology commemorates, linked to saint records: the
//! principal names of its first sentence ("holy Joseph", "SS. Peter and Paul"), each linked
//! when the day corroborates it ("Cecily" on 22 November → `cecilia`), or by an exact,
//! unambiguous name alone when the record keeps no day at all.

use crate::index::Kind;
use crate::{Directory, Lookup, Outcome, SaintLink};
use serde_json::Value;

/// Words that introduce or qualify a commemorated person in an elogium.
const INTRODUCERS: &[&str] = &[
    "st",
    "saint",
    "ss",
    "saints",
    "holy",
    "blessed",
    "sancti",
    "sanctae",
    "sanctorum",
    "beati",
    "beatae",
    "beatorum",
];
/// Capitalised words that are titles, not names.
const TITLES: &[&str] = &[
    "st",
    "saint",
    "ss",
    "saints",
    "holy",
    "blessed",
    "virgin",
    "virgins",
    "bishop",
    "bishops",
    "pope",
    "abbot",
    "abbess",
    "martyr",
    "martyrs",
    "priest",
    "priests",
    "deacon",
    "confessor",
    "doctor",
    "apostle",
    "apostles",
    "evangelist",
    "prophet",
    "widow",
    "hermit",
    "monk",
    "the",
    "pontiff",
    "supreme",
    "patriarch",
    "archbishop",
    "king",
    "queen",
    "emperor",
    "empress",
    "lady",
    "our",
    "lord",
    "sancti",
    "sanctae",
    "sanctorum",
    "beati",
    "beatae",
    "beatorum",
    "papae",
    "episcopi",
    "martyris",
    "virginis",
    "archdeacon",
    "subdeacon",
    "presbyter",
    "levite",
    "reader",
    "exorcist",
    "cardinal",
    "father",
    "fathers",
    "mother",
    "brother",
    "sister",
    "doctors",
    "confessors",
    "abbots",
    "deacons",
    "monks",
    "hermits",
    "widows",
];

fn is_title(w: &str) -> bool {
    let l = w.trim_end_matches('.').to_lowercase();
    TITLES.contains(&l.as_str())
}

fn is_name_word(w: &str) -> bool {
    let w = w.trim_end_matches('.');
    w.chars().next().is_some_and(char::is_uppercase)
        && w.chars()
            .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        && !is_title(w)
}

/// The principal name(s) of an elogium: the capitalised names after the first
/// "St."/"holy"/"blessed"/"SS."/… of the first sentence ("holy Joseph" →
/// `Joseph`; "SS. Peter and Paul" → `Peter`, `Paul`; "the holy martyrs Quintus,
/// Quintilla, …" → `Quintus`, `Quintilla`, …). At most four names.
pub fn principal_names(elogium: &str) -> Vec<String> {
    // the first sentence; "St." and "SS." do not end it
    let mut sentence = String::new();
    for w in elogium.split_whitespace() {
        sentence.push_str(w);
        sentence.push(' ');
        let l = w.to_lowercase();
        if w.ends_with('.') && !matches!(l.as_str(), "st." | "ss." | "bl.") && w.len() > 3 {
            break;
        }
    }
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let Some(start) = words.iter().position(|w| {
        let l = w.trim_matches(|c: char| !c.is_alphabetic()).to_lowercase();
        INTRODUCERS.contains(&l.as_str())
    }) else {
        return Vec::new();
    };
    let plural = words[start..].iter().take(4).any(|w| {
        let l = w.trim_matches(|c: char| !c.is_alphabetic()).to_lowercase();
        matches!(
            l.as_str(),
            "ss" | "saints"
                | "martyrs"
                | "sanctorum"
                | "beatorum"
                | "virgins"
                | "apostles"
                | "bishops"
        )
    });
    let mut names: Vec<String> = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    let mut started = false;
    for w in &words[start + 1..] {
        let core = w.trim_end_matches([',', ';', ':', '.']);
        let ends = core.len() != w.len() && !matches!(w.to_lowercase().as_str(), "st." | "ss.");
        if is_name_word(core) {
            started = true;
            cur.push(core);
        } else if started && (core == "and" || core == "et") && !cur.is_empty() {
            names.push(cur.join(" "));
            cur.clear();
            continue;
        } else if started {
            // a lower-case word ends the name ("Valentine, a Priest" ends at the comma)
            if !cur.is_empty() {
                names.push(cur.join(" "));
                cur.clear();
            }
            if !plural {
                break;
            }
            if core.chars().next().is_some_and(char::is_lowercase) && core != "and" {
                break;
            }
        }
        if ends && started {
            if !cur.is_empty() {
                names.push(cur.join(" "));
                cur.clear();
            }
            if !plural || w.ends_with('.') {
                break;
            }
        }
        if names.len() >= 4 {
            break;
        }
    }
    if !cur.is_empty() {
        names.push(cur.join(" "));
    }
    names.retain(|n| n.split_whitespace().count() <= 4);
    names.truncate(4);
    names
}

/// Whether a saint profile is kept on `(month, day)`: a feast day, the dies
/// natalis, or a Martyrology day.
fn profile_on(profile: &Value, month: u32, day: u32) -> bool {
    let on = |v: &Value| {
        v.get("month").and_then(Value::as_u64) == Some(u64::from(month))
            && v.get("day").and_then(Value::as_u64) == Some(u64::from(day))
    };
    let list = |k: &str| {
        profile
            .get(k)
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(on))
    };
    list("feast_days") || list("martyrology") || profile.get("dies_natalis").is_some_and(on)
}

/// The name without titles and without its "of …"/"the …" tail, folded
/// ("Saint Cecilia" → `cecilia`; "Meinrad of Einsiedeln" → `meinrad`).
fn core_name(s: &str) -> String {
    let folded = fold_name(s);
    folded
        .split(' ')
        .skip_while(|w| matches!(*w, "saint" | "st" | "blessed" | "bl" | "ss"))
        .take_while(|w| !matches!(*w, "of" | "the" | "and"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Same name, allowing old English spellings of it: equal core names, or as
/// many words and the first ones sharing their first four letters or more
/// ("Cecily" = "Cecilia", "Meinard" = "Meinrad"; not "Lawrence" = "Laurentius").
fn same_name(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (wa, wb): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
    if wa.len() != wb.len() || wa.len() > 1 && wa[1..] != wb[1..] {
        return false;
    }
    let common = wa[0]
        .chars()
        .zip(wb[0].chars())
        .take_while(|(x, y)| x == y)
        .count();
    common >= 4
}

/// Lower-case words of a name, accents kept: [`ecclesia_fold::words`].
fn fold_name(s: &str) -> String {
    ecclesia_fold::words(s)
}

/// Whether a profile records any day at all (feast, dies natalis, Martyrology).
fn has_days(profile: &Value) -> bool {
    let list = |k: &str| {
        profile
            .get(k)
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
    };
    list("feast_days")
        || list("martyrology")
        || profile.get("dies_natalis").is_some_and(|v| !v.is_null())
}

/// Link one name to a saint: accepted only when exactly one candidate (the top
/// match or an alternate) is kept on one of `days`, or, when none is, the top
/// match is an exact name match with no alternates and records no day at all
/// (a record kept on another day is another saint).
pub fn link_name(dir: &Directory, name: &str, days: &[(u32, u32)]) -> Option<SaintLink> {
    let Ok(Outcome::Found(top)) = dir.lookup(Kind::Saint, Lookup::Query(name)) else {
        return None;
    };
    let top_id = top.get("saint_id")?.as_str()?.to_string();
    let alternates: Vec<String> = top
        .get("alternates")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.get("saint_id").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let name_of = |p: &Value| {
        p.get("primary_name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    // kept on the day and named the same (the index also matches other-language
    // forms: "Lawrence" finds "Laurentius of Kaluga", another saint)
    let wanted = core_name(name);
    let on_day = |p: &Value| {
        same_name(&core_name(&name_of(p)), &wanted)
            && days.iter().any(|&(m, d)| profile_on(p, m, d))
    };
    let mut hits: Vec<(String, String)> = Vec::new();
    if on_day(&top) {
        hits.push((top_id.clone(), name_of(&top)));
    }
    for id in &alternates {
        if let Ok(Outcome::Found(p)) = dir.lookup(Kind::Saint, Lookup::Id(id)) {
            if on_day(&p) {
                hits.push((id.clone(), name_of(&p)));
            }
        }
    }
    match hits.len() {
        1 => hits.pop().map(|(saint_id, primary_name)| SaintLink {
            saint_id,
            primary_name,
            by_date: true,
        }),
        0 if alternates.is_empty()
            && !has_days(&top)
            && fold_name(&name_of(&top)) == fold_name(name) =>
        {
            Some(SaintLink {
                primary_name: name_of(&top),
                saint_id: top_id,
                by_date: false,
            })
        }
        _ => None,
    }
}

/// The saints of a day's elogia: per entry, the links of its principal names that are kept
/// (by the day, or by an exact name alone when that name falls on one entry only: two
/// namesakes of the day, such as the two Valentines of 14 February, are ambiguous).
pub fn link_entries(
    dir: &Directory,
    entries: &[String],
    days: &[(u32, u32)],
) -> Vec<Vec<SaintLink>> {
    let links: Vec<Vec<SaintLink>> = entries
        .iter()
        .map(|e| {
            principal_names(e)
                .iter()
                .filter_map(|name| link_name(dir, name, days))
                .collect()
        })
        .collect();
    let by_name_entries = |id: &str| {
        links
            .iter()
            .filter(|ls| ls.iter().any(|l| l.saint_id == id))
            .count()
    };
    links
        .iter()
        .map(|ls| {
            ls.iter()
                .filter(|l| l.by_date || by_name_entries(&l.saint_id) == 1)
                .cloned()
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_spellings_are_the_same_name() {
        assert!(same_name("cecily", "cecilia"));
        assert!(same_name("meinard", "meinrad"));
        assert!(!same_name("lawrence", "laurentius"));
        assert!(!same_name("mark", "marcellus"));
        assert_eq!(core_name("Saint Cecilia"), "cecilia");
        assert_eq!(core_name("Meinrad of Einsiedeln"), "meinrad");
    }

    #[test]
    fn principal_names_of_elogia() {
        assert_eq!(
            principal_names("In Judea, holy Joseph, the husband of the most Blessed Virgin Mary."),
            vec!["Joseph"]
        );
        assert_eq!(
            principal_names(
                "At Rome, upon the Flaminian Way, the blessed martyr Valentine, a Priest, who"
            ),
            vec!["Valentine"]
        );
        assert_eq!(
            principal_names("At Sorrento, the holy martyrs Quintus, Quintilla, Quartilla, Mark, and nine others."),
            vec!["Quintus", "Quintilla", "Quartilla", "Mark"]
        );
        assert!(principal_names("At Rome, many others.").is_empty());
    }
}

//! Linking a name read in a calendar or the Martyrology on a given day to one
//! saint record ("Cecily" on 22 November → `cecilia`).
//!
//! The day corroborates the name: a candidate below the look-up's confidence cut
//! ([`crate::is_confident`]) is linked when it is the only candidate of that name kept
//! on that day. Without a day match, only an exact, unambiguous name is linked.

use crate::fold::{analyze, fold};
use crate::index::{Kind, MIN_SCORE};
use crate::{store, Directory, DirectoryError};
use serde_json::Value;

/// A name linked to a saint record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaintLink {
    /// The saint's id.
    pub saint_id: String,
    /// Its primary name.
    pub primary_name: String,
    /// True when the record is kept on one of the days asked (else linked by an
    /// exact, unambiguous name alone).
    pub by_date: bool,
}

/// How many candidates are checked against the days.
const CANDIDATES: usize = 8;

/// The name's first word and the words before its "of …"/"the …" tail, as
/// canonical tokens ("Saint Cecilia" → `[cecilia]`; "Meinrad of Einsiedeln" →
/// `[meinrad]`; "Giovanni Bosco" → `[john, bosco]`).
pub fn core_name(s: &str) -> Vec<String> {
    let folded = fold(s);
    let head: Vec<&str> = folded
        .split(' ')
        .take_while(|w| !matches!(*w, "of" | "the" | "and" | "de" | "di" | "da" | "von"))
        .collect();
    analyze(&head.join(" ")).0
}

/// Same name, allowing old spellings of it: equal core names, or as many words,
/// equal after the first, and the first ones sharing four letters or more
/// ("Cecily" = "Cecilia", "Meinard" = "Meinrad"; not "Lawrence" = "Laurentius",
/// which the canonical forms already join).
pub fn same_name(a: &[String], b: &[String]) -> bool {
    if a == b {
        return true;
    }
    if a.is_empty() || a.len() != b.len() || a[1..] != b[1..] {
        return false;
    }
    let common = a[0]
        .chars()
        .zip(b[0].chars())
        .take_while(|(x, y)| x == y)
        .count();
    common >= 4
}

fn kept_on(profile: &Value, days: &[(u32, u32)]) -> bool {
    let on = |v: &Value| {
        days.iter().any(|&(m, d)| {
            v.get("month").and_then(Value::as_u64) == Some(u64::from(m))
                && v.get("day").and_then(Value::as_u64) == Some(u64::from(d))
        })
    };
    let list = |k: &str| {
        profile
            .get(k)
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(on))
    };
    list("feast_days") || list("martyrology") || profile.get("dies_natalis").is_some_and(on)
}

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

impl Directory {
    /// Link `name`, read on one of `days` (`(month, day)`), to one saint record:
    /// the only candidate of the same name kept on one of those days, else the
    /// confident top match when its name is exactly `name`, no other candidate is
    /// close, and it records no day at all (a record kept on another day is another
    /// saint). `None` when ambiguous or unknown.
    pub fn link_saint(
        &self,
        name: &str,
        days: &[(u32, u32)],
    ) -> Result<Option<SaintLink>, DirectoryError> {
        let (cands, _) = self.index.search(name, &[Kind::Saint], MIN_SCORE);
        let wanted = core_name(name);
        let mut hits: Vec<SaintLink> = Vec::new();
        let mut top: Option<(Value, crate::Scored)> = None;
        for c in cands.iter().take(CANDIDATES) {
            let id = &self.index.entry(c.entry).id;
            let Some(p) = self.with_conn(|conn| store::profile(conn, Kind::Saint, id))? else {
                continue;
            };
            let primary = p
                .get("primary_name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if same_name(&core_name(&primary), &wanted) && kept_on(&p, days) {
                hits.push(SaintLink {
                    saint_id: id.clone(),
                    primary_name: primary,
                    by_date: true,
                });
            }
            if top.is_none() {
                top = Some((p, *c));
            }
        }
        if hits.len() == 1 {
            return Ok(hits.pop());
        }
        if !hits.is_empty() {
            return Ok(None);
        }
        let Some((p, best)) = top else {
            return Ok(None);
        };
        let close = cands.iter().skip(1).any(|c| c.score >= best.score - 0.2);
        let primary = p
            .get("primary_name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if crate::is_confident(&best) && !close && !has_days(&p) && fold(primary) == fold(name) {
            let id = p
                .get("saint_id")
                .and_then(Value::as_str)
                .unwrap_or_default();
            return Ok(Some(SaintLink {
                saint_id: id.to_string(),
                primary_name: primary.to_string(),
                by_date: false,
            }));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_spellings_are_the_same_name() {
        assert!(same_name(&core_name("Cecily"), &core_name("Saint Cecilia")));
        assert!(same_name(
            &core_name("Meinard"),
            &core_name("Meinrad of Einsiedeln")
        ));
        assert!(same_name(
            &core_name("Giovanni Bosco"),
            &core_name("John Bosco")
        ));
        assert!(!same_name(&core_name("Lawrence"), &core_name("Leo")));
        assert!(!same_name(
            &core_name("John Bosco"),
            &core_name("John Vianney")
        ));
    }
}

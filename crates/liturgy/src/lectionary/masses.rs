//! A liturgical [`Day`] → its Masses and readings.
//!
//! - The proper of time reads its own key plus the Sunday or weekday cycle key
//!   (`OW00-Trinity` + `OW00-Trinity B`); a more specific key replaces the same slot.
//! - Solemnities and feasts of the saints read their own formulary (and their Vigil Mass).
//! - On a memorial the weekday readings are read, except where the saint has proper
//!   readings: a part marked `x.n01` replaces the weekday's part, a formulary marked `x.n09`
//!   replaces the whole weekday Mass (see [`super::slot`]). The memorial's own readings follow
//!   as another Mass (they may be chosen).
//! - Where the Lectionary prints one set for every year with the year's own readings as
//!   options (Pentecost, All Souls), the common set comes first and the year's follow as "or".

use super::slot::{self, Proper};
use super::{Lectionary, Mass, ReadingRef, Row};
use crate::calendar::CalendarData;
use crate::types::{Celebration, Day, Rank};
use chrono::Datelike;

/// Keys whose cycle-specific rows are options after the common set, not replacements, and
/// whether the cycle-A rows belong to the common set (Pentecost: the US and Roman Lectionary
/// print Year A's readings for every year, with B's and C's as options).
const CYCLE_OPTION_KEYS: &[(&str, bool)] = &[("EW08-Pentecost", true), ("All Souls", false)];

fn cycle_options(key: &str) -> Option<bool> {
    CYCLE_OPTION_KEYS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, a)| *a)
}

/// Temporal celebrations that are looked up in the sanctorale part of the table.
fn sanctoral_table_key(key: &str) -> Option<&'static str> {
    match key {
        "ImmaculateHeart" => Some("OW00-ImmaculateHeart"),
        "MaryMotherChurch" => Some("OW00-MaryMotherofChurch"),
        "MaryMotherOfGod" => Some("Blessed Virgin Mary, the Mother of God"),
        _ => None,
    }
}

/// A row with the group it sorts in: 0 for the Mass's own rows, 1 for options appended after.
type Ranked = (u8, Row);

/// The Mass of a saint and its Vigil.
struct SaintMasses {
    key: String,
    main: Mass,
    vigil: Option<Mass>,
}

impl Lectionary {
    /// Rows of several keys, a later key replacing the slots of an earlier one.
    fn merged(&self, keys: &[String], calendar: &str) -> Vec<Ranked> {
        let mut rows: Vec<Ranked> = Vec::new();
        for k in keys {
            for row in self.rows_for(k, calendar) {
                rows.retain(|(_, x)| x.slot != row.slot);
                rows.push((0, row));
            }
        }
        rows
    }

    /// Build a Mass from ranked rows; `None` when nothing readable is left.
    fn build(
        &self,
        title: &str,
        keys: Vec<String>,
        mut rows: Vec<Ranked>,
        vigil: bool,
    ) -> Option<Mass> {
        if vigil {
            rows.sort_by_key(|(g, r)| (*g, vigil_order(&r.slot)));
        } else {
            rows.sort_by(|(ga, a), (gb, b)| {
                let pa: u32 = slot::part(&a.slot).parse().unwrap_or(99);
                let pb: u32 = slot::part(&b.slot).parse().unwrap_or(99);
                (pa, ga)
                    .cmp(&(pb, gb))
                    .then(slot::number(&a.slot).total_cmp(&slot::number(&b.slot)))
            });
        }
        let mut readings = Vec::new();
        let mut commons = Vec::new();
        let mut prev_part = "";
        for (_, r) in &rows {
            let part = slot::part(&r.slot);
            if part == "9" {
                commons.push(r.reference.trim().to_string());
                continue;
            }
            let mut kind = slot::heading(&r.slot, vigil);
            if !vigil && part == prev_part && !kind.contains("shorter") {
                kind = format!("{kind} (or)");
            }
            prev_part = part;
            let (citation, note) = match self.citations.get(&r.reference) {
                Some(c) => (Some(c.clone()), None),
                None => match slot::sequence_name(r.reference.trim()) {
                    Some(seq) => (None, Some(seq.to_string())),
                    None => continue,
                },
            };
            readings.push(ReadingRef {
                kind,
                slot: r.slot.clone(),
                citation,
                note,
            });
        }
        if readings.is_empty() {
            return None;
        }
        Some(Mass {
            title: title.to_string(),
            keys,
            readings,
            commons,
        })
    }

    fn mass(&self, title: &str, keys: &[String], vigil: bool, calendar: &str) -> Option<Mass> {
        self.build(title, keys.to_vec(), self.merged(keys, calendar), vigil)
    }

    /// The common set of `base` (with its cycle-A key where that is common to every year)
    /// first, then the year's own rows as options.
    fn with_cycle_options(
        &self,
        title: &str,
        base: &str,
        cycle: char,
        calendar: &str,
    ) -> Option<Mass> {
        let a_is_common = cycle_options(base).unwrap_or(false);
        let mut keys = vec![base.to_string()];
        if a_is_common {
            keys.push(format!("{base} A"));
        }
        let mut rows = self.merged(&keys, calendar);
        if cycle != 'A' || !a_is_common {
            let own = format!("{base} {cycle}");
            rows.extend(self.rows_for(&own, calendar).into_iter().map(|r| (1, r)));
            keys.push(own);
        }
        self.build(title, keys, rows, false)
    }

    /// The Masses of the proper of time for a day.
    fn temporal_masses(&self, day: &Day, calendar: &str) -> Vec<Mass> {
        let cyc = day.sunday_cycle;
        let tkey = day.temporal.lectionary_key.as_str();
        let with = |base: &str| vec![base.to_string(), format!("{base} {cyc}")];
        let found = |list: Vec<Option<Mass>>| list.into_iter().flatten().collect::<Vec<_>>();
        match tkey {
            "Nativity of the Lord" => found(
                [
                    (4, "Mass during the Day"),
                    (1, "Vigil Mass"),
                    (2, "Mass during the Night"),
                    (3, "Mass at Dawn"),
                ]
                .into_iter()
                .map(|(i, t)| self.mass(t, &[format!("Nativity of the Lord {i}")], false, calendar))
                .collect(),
            ),
            "LW06-6Sat" => found(vec![self.mass(
                "Easter Vigil in the Holy Night",
                &with(tkey),
                true,
                calendar,
            )]),
            "LW06-4Thu" => found(vec![
                self.mass(
                    "Evening Mass of the Lord's Supper",
                    &with(tkey),
                    false,
                    calendar,
                ),
                self.mass(
                    "Chrism Mass",
                    &["LW06-4Thu~Chrism".to_string()],
                    false,
                    calendar,
                ),
            ]),
            "EW08-Pentecost" => found(vec![
                self.with_cycle_options("Mass during the Day", tkey, cyc, calendar),
                self.mass(
                    "Vigil Mass",
                    &["EW08-Pentecost - Vigil".to_string()],
                    false,
                    calendar,
                ),
            ]),
            _ => found(vec![self.mass(
                "Mass of the day",
                &temporal_keys(day),
                false,
                calendar,
            )]),
        }
    }

    /// The table key of a celebration of the saints (or of a temporal one kept there).
    fn celebration_key(&self, cal: &CalendarData, day: &Day, c: &Celebration) -> Option<String> {
        if let Some(k) = sanctoral_table_key(&c.key) {
            return Some(k.to_string());
        }
        let date = c.transferred_from.unwrap_or(day.date);
        self.saint_key(cal, &c.key, date.month(), date.day())
    }

    fn saint_masses(
        &self,
        cal: &CalendarData,
        day: &Day,
        c: &Celebration,
        calendar: &str,
    ) -> Option<SaintMasses> {
        let key = self.celebration_key(cal, day, c)?;
        let main = if cycle_options(&key).is_some() {
            self.with_cycle_options(&c.name, &key, day.sunday_cycle, calendar)
        } else {
            self.mass(
                &c.name,
                &[key.clone(), format!("{key} {}", day.sunday_cycle)],
                false,
                calendar,
            )
        }?;
        let vigil = self.mass(
            &format!("{} (Vigil Mass)", c.name),
            &[format!("{key} - Vigil")],
            false,
            calendar,
        );
        Some(SaintMasses { key, main, vigil })
    }

    /// A memorial: the weekday's Mass with the saint's proper parts, then the saint's own.
    fn memorial_masses(
        &self,
        cal: &CalendarData,
        day: &Day,
        c: &Celebration,
        calendar: &str,
    ) -> Vec<Mass> {
        let weekday = self.temporal_masses(day, calendar);
        let Some(saint) = self.saint_masses(cal, day, c, calendar) else {
            return weekday;
        };
        let own = self.rows_for(&saint.key, calendar);
        if own.iter().any(|r| slot::proper(&r.slot) == Proper::Whole) {
            let mut out = vec![saint.main];
            out.extend(weekday);
            return out;
        }
        let replacing: Vec<Row> = own
            .into_iter()
            .filter(|r| slot::proper(&r.slot) == Proper::Replaces)
            .collect();
        let mut out = Vec::new();
        let mut rest = weekday.into_iter();
        match rest.next() {
            Some(first) if !replacing.is_empty() => {
                let mut rows = self.merged(&first.keys, calendar);
                rows.retain(|(_, r)| {
                    !replacing
                        .iter()
                        .any(|p| slot::part(&p.slot) == slot::part(&r.slot))
                });
                rows.extend(replacing.into_iter().map(|r| (0, r)));
                let mut keys = first.keys.clone();
                keys.push(saint.key.clone());
                out.extend(self.build(&first.title, keys, rows, false).or(Some(first)));
            }
            Some(first) => out.push(first),
            None => {}
        }
        out.extend(rest);
        out.push(saint.main);
        out
    }

    /// The Masses of a liturgical day in `calendar`: the first is the Mass of the day's
    /// celebration, the others are the day's other Masses (vigils, the Chrism Mass, the
    /// readings of a memorial or of optional memorials).
    pub fn masses(&self, cal: &CalendarData, day: &Day, calendar: &str) -> Vec<Mass> {
        let principal = day.principal();
        let mut out = Vec::new();
        if principal.temporal && sanctoral_table_key(&principal.key).is_none() {
            out.extend(self.temporal_masses(day, calendar));
        } else if matches!(principal.rank, Rank::Solemnity | Rank::Feast) {
            match self.saint_masses(cal, day, principal, calendar) {
                Some(s) => {
                    out.push(s.main);
                    out.extend(s.vigil);
                }
                None => out.extend(self.temporal_masses(day, calendar)),
            }
        } else {
            out.extend(self.memorial_masses(cal, day, principal, calendar));
        }
        for c in day.celebrations.iter().skip(1) {
            if c.temporal && c.rank == Rank::Weekday {
                continue;
            }
            if let Some(s) = self.saint_masses(cal, day, c, calendar) {
                if !out.iter().any(|x| x.keys == s.main.keys) {
                    out.push(s.main);
                }
            }
        }
        // The vigil Mass of tomorrow's solemnity is not included here (see the README).
        out
    }
}

/// The keys of a day of the proper of time: its own, then its Sunday cycle's (the Sundays and
/// solemnities, and the weekdays whose Gospel changes in one year: `OW18-1Mon A`), then its
/// weekday cycle's (`OW05-3Wed 1`).
fn temporal_keys(day: &Day) -> Vec<String> {
    let tkey = &day.temporal.lectionary_key;
    vec![
        tkey.clone(),
        format!("{tkey} {}", day.sunday_cycle),
        format!("{tkey} {}", day.weekday_cycle),
    ]
}

/// Easter Vigil order: reading 1.n then psalm 2.n for each n, then the epistle and the rest.
fn vigil_order(slot: &str) -> (u32, u32, u64) {
    let (i, f) = slot.split_once('.').unwrap_or((slot, "0"));
    let first: u32 = f.chars().next().and_then(|c| c.to_digit(10)).unwrap_or(0);
    let i: u32 = i.parse().unwrap_or(9);
    let order = if i <= 2 { first * 10 + i } else { 100 + i * 10 };
    (order, 0, slot::number(slot).to_bits())
}

//! Precedence (the Table of Liturgical Days): which celebration each day of a year keeps,
//! which are optional, and where impeded solemnities are transferred.

use super::data::nth_weekday;
use super::moveable::{advent1, cycles, d, moveable};
use super::temporal::temporal;
use super::{CalendarData, CalendarSpec, MIN_YEAR};
use crate::error::LiturgyError;
use crate::types::{Celebration, Color, Day, Rank, TemporalPosition};
use chrono::{Datelike, Duration, NaiveDate, Weekday};

pub(super) fn precedence_of(grade: u8, proper: bool) -> u8 {
    match (grade, proper) {
        (6.., false) => 3,
        (6.., true) => 4,
        (5, _) => 5,
        (4, false) => 7,
        (4, true) => 8,
        (3, false) => 10,
        (3, true) => 11,
        _ => 12,
    }
}

pub(super) fn rank_of(grade: u8) -> Rank {
    match grade {
        6.. => Rank::Solemnity,
        4 | 5 => Rank::Feast,
        3 => Rank::Memorial,
        _ => Rank::OptionalMemorial,
    }
}

pub(super) fn compute_year(
    data: &CalendarData,
    spec: &CalendarSpec,
    year: i32,
) -> Result<Vec<Day>, LiturgyError> {
    let m = moveable(spec, year)?;
    let prev_adv = if year > MIN_YEAR {
        advent1(year - 1)?
    } else {
        m.advent1
    };
    let name = |key: &str| {
        data.name(key, "en")
            .map(str::to_string)
            .unwrap_or_else(|| key.to_string())
    };
    let first = d(year, 1, 1)?;
    let last = d(year, 12, 31)?;
    let ndays = (last - first).num_days() as usize + 1;
    let mut temporals = Vec::with_capacity(ndays);
    for i in 0..ndays {
        temporals.push(temporal(&m, prev_adv, first + Duration::days(i as i64))?);
    }
    let idx = |x: NaiveDate| (x - first).num_days() as usize;
    // Sanctoral candidates per day.
    let mut cands: Vec<Vec<Celebration>> = vec![Vec::new(); ndays];
    for s in &spec.sanctorale {
        if year < s.from_year || s.until_year.is_some_and(|u| year > u) {
            continue;
        }
        let date = match (s.easter_offset, s.rule) {
            (Some(o), _) => Some(m.easter + Duration::days(o)).filter(|x| x.year() == year),
            (None, Some(r)) => nth_weekday(year, r),
            (None, None) => NaiveDate::from_ymd_opt(year, s.month, s.day),
        };
        let Some(mut date) = date else { continue };
        if s.sunday_to_monday && date.weekday() == Weekday::Sun {
            date += Duration::days(1);
        }
        if let Some((_, shift)) = s.weekday_moves.iter().find(|(w, _)| *w == date.weekday()) {
            date += Duration::days(*shift);
            if date.year() != year {
                continue;
            }
        }
        cands[idx(date)].push(Celebration {
            key: s.key.clone(),
            name: name(&s.key),
            name_local: None,
            rank: rank_of(s.grade),
            color: s.color,
            optional: s.grade <= 2,
            precedence: precedence_of(s.grade, s.proper),
            temporal: false,
            transferred_from: None,
        });
    }
    // Moveable memorials of the proper of time.
    // A national entry with the key of a built-in moveable memorial replaces it (Poland keeps
    // Mary, Mother of the Church as a feast).
    let replaced = |key: &str| {
        spec.sanctorale
            .iter()
            .any(|s| s.key == key && s.easter_offset.is_some())
    };
    let ih = m.easter + Duration::days(69);
    if ih.year() == year && !replaced("ImmaculateHeart") {
        let grade = if year >= 1996 { 3 } else { 2 };
        cands[idx(ih)].push(Celebration {
            key: "ImmaculateHeart".into(),
            name: "The Immaculate Heart of the Blessed Virgin Mary".into(),
            name_local: None,
            rank: rank_of(grade),
            color: Color::White,
            optional: grade == 2,
            precedence: precedence_of(grade, false),
            temporal: true,
            transferred_from: None,
        });
    }
    if year >= 2018 && !replaced("MaryMotherChurch") {
        cands[idx(m.pentecost + Duration::days(1))].push(Celebration {
            key: "MaryMotherChurch".into(),
            name: "The Blessed Virgin Mary, Mother of the Church".into(),
            name_local: None,
            rank: Rank::Memorial,
            color: Color::White,
            optional: false,
            precedence: 10,
            temporal: true,
            transferred_from: None,
        });
    }
    // Solemnities: resolve clashes and transfers first.
    let easter = m.easter;
    let palm = easter - Duration::days(7);
    let divine_mercy = easter + Duration::days(7);
    let sacred_heart = easter + Duration::days(68);
    let mut placed_solemnity: Vec<Option<Celebration>> = vec![None; ndays];
    let mut pending: Vec<(NaiveDate, Celebration)> = Vec::new();
    for i in 0..ndays {
        let date = first + Duration::days(i as i64);
        let sols: Vec<Celebration> = cands[i]
            .iter()
            .filter(|c| c.rank == Rank::Solemnity)
            .cloned()
            .collect();
        cands[i].retain(|c| c.rank != Rank::Solemnity);
        for s in sols {
            let tp = temporals[i].cel.precedence;
            let impeded = tp < s.precedence
                || (tp == s.precedence && temporals[i].cel.rank == Rank::Solemnity)
                || placed_solemnity[i].is_some();
            if !impeded {
                placed_solemnity[i] = Some(s);
                continue;
            }
            let target = if s.key == "StJoseph" && date >= palm && date < easter + Duration::days(7)
            {
                // In Holy Week: anticipated to the Saturday before Palm Sunday.
                Some(palm - Duration::days(1))
            } else if s.key == "Annunciation" && date >= palm && date <= divine_mercy {
                Some(divine_mercy + Duration::days(1))
            } else if date == sacred_heart {
                // Precedent of 2022 (Nativity of John the Baptist): anticipated to the day before.
                Some(date - Duration::days(1))
            } else {
                None
            };
            pending.push((target.unwrap_or(date + Duration::days(1)), {
                let mut s = s;
                s.transferred_from = Some(date);
                s
            }));
            // Place pending items whose target is fixed immediately below.
        }
        // Try to place pending transferred solemnities on this or later days.
        let _ = i;
    }
    // Place transferred solemnities on the first free day from their target.
    for (target, s) in pending {
        let mut x = target;
        while x.year() == year {
            let j = idx(x);
            let free = temporals[j].cel.precedence > 8
                && placed_solemnity[j].is_none()
                && !cands[j].iter().any(|c| c.precedence <= 8);
            if free {
                placed_solemnity[j] = Some(s);
                break;
            }
            x += Duration::days(1);
        }
    }
    // Resolve each day.
    let mut days = Vec::with_capacity(ndays);
    for (i, t) in temporals.into_iter().enumerate() {
        let date = first + Duration::days(i as i64);
        let (sunday_cycle, weekday_cycle) = cycles(date)?;
        let mut list: Vec<Celebration> = Vec::new();
        let tcel = t.cel.clone();
        let privileged = tcel.precedence == 9; // Lent weekdays, 17–24 Dec., Christmas octave
        let mut principal = tcel.clone();
        if let Some(s) = placed_solemnity[i].take() {
            if s.precedence < principal.precedence {
                principal = s;
            }
        }
        // Feasts (precedence 5, 7, 8) against the day.
        let mut others: Vec<Celebration> = cands[i].clone();
        others.sort_by_key(|c| c.precedence);
        if let Some(best) = others.first().cloned() {
            if best.precedence <= 8 && best.precedence < principal.precedence {
                principal = best.clone();
                others.remove(0);
            }
        }
        let principal_is_weekday =
            principal.temporal && principal.rank == Rank::Weekday && principal.precedence >= 9;
        list.push(principal.clone());
        if principal_is_weekday {
            let memorials: Vec<Celebration> =
                others.into_iter().filter(|c| c.precedence >= 10).collect();
            let mut obligatory = memorials
                .iter()
                .filter(|c| c.rank == Rank::Memorial)
                .count();
            // Table of Liturgical Days: an obligatory memorial of the General Calendar (10)
            // outranks a proper one (11: US Thanksgiving Day on St Cecilia, 22 Nov 2029); the
            // loser stays listed as optional. Only memorials of equal rank become both optional.
            let mut memorials = memorials;
            let mut demoted = Vec::new();
            if obligatory > 1 {
                let best = memorials
                    .iter()
                    .filter(|c| c.rank == Rank::Memorial)
                    .map(|c| c.precedence)
                    .min()
                    .unwrap_or(10);
                let at_best = memorials
                    .iter()
                    .filter(|c| c.rank == Rank::Memorial && c.precedence == best)
                    .count();
                if at_best == 1 {
                    let (lost, kept): (Vec<_>, Vec<_>) = memorials
                        .into_iter()
                        .partition(|c| c.rank == Rank::Memorial && c.precedence != best);
                    memorials = kept;
                    demoted = lost;
                    obligatory = 1;
                }
            }
            if privileged {
                for mut c in memorials {
                    c.rank = Rank::Commemoration;
                    c.optional = true;
                    list.push(c);
                }
            } else if obligatory == 1 {
                let mut rest = Vec::new();
                for c in memorials {
                    if c.rank == Rank::Memorial {
                        list.insert(0, c);
                    } else {
                        rest.push(c);
                    }
                }
                // Optional memorials cannot be kept on a day with an obligatory memorial.
                let _ = rest;
                // An outranked proper memorial stays listed as optional (its Mass may be said).
                for mut c in demoted {
                    c.rank = Rank::OptionalMemorial;
                    c.optional = true;
                    list.push(c);
                }
            } else {
                // Two obligatory memorials (e.g. the Immaculate Heart with another): both optional.
                for mut c in memorials {
                    if c.rank == Rank::Memorial {
                        c.rank = Rank::OptionalMemorial;
                    }
                    c.optional = true;
                    list.push(c);
                }
            }
            // Mary, Mother of the Church prevails over another obligatory memorial of the day.
            if let Some(pos) = list.iter().position(|c| c.key == "MaryMotherChurch") {
                let mmc = list.remove(pos);
                let mut mmc = mmc;
                mmc.rank = Rank::Memorial;
                mmc.optional = false;
                list.retain(|c| c.temporal && c.rank == Rank::Weekday);
                list.insert(0, mmc);
            }
            if obligatory >= 1 && !privileged {
                // The weekday stays listed after the memorial (its readings remain usable).
                if let Some(pos) = list.iter().position(|c| c.key == tcel.key) {
                    if pos != 0 {
                        let mut w = list.remove(pos);
                        w.optional = true;
                        list.push(w);
                    }
                }
            }
        }
        if let Some(lang) = &spec.language {
            for c in list.iter_mut() {
                c.name_local = data
                    .names
                    .get(&c.key)
                    .and_then(|m| m.get(lang))
                    .filter(|n| **n != c.name)
                    .cloned();
            }
        }
        days.push(Day {
            date,
            season: t.season,
            week_of_season: t.week,
            sunday_cycle,
            weekday_cycle,
            celebrations: list,
            temporal: TemporalPosition {
                lectionary_key: t.lect,
                key: tcel.key,
            },
        });
    }
    Ok(days)
}

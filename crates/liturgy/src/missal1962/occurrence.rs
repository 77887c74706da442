//! Which Mass a day of the 1962 calendar has, and what it commemorates: the rules of
//! occurrence of the Codex Rubricarum (1960), applied to the Temporale and the Sanctorale of
//! the day.
//!
//! The ranks are Divinum Officium's numbers (see [`super::office`]); the rules below are the
//! 1960 ones, each with its paragraph. Concurrence (which Vespers) is an Office matter and is
//! not computed: a calendar of the Mass needs occurrence only.

use super::kalendar::{Kalendar, YearTransfers};
use super::office::{Class, Office};
use super::source::{Context, Library};
use super::temporal;
use chrono::{Datelike, NaiveDate, Weekday};

/// The outcome of occurrence for one date.
#[derive(Debug, Clone)]
pub struct Occurrence {
    /// The Mass of the day.
    pub winner: Office,
    /// The class the day's Mass is celebrated with.
    pub class: Class,
    /// The commemorations made at Mass, in order.
    pub commemorations: Vec<Office>,
    /// The Temporale formulary of the date, whether it won or not.
    pub temporal: Option<Office>,
}

/// What the calendar needs to decide a date.
pub struct Rules<'a> {
    /// The Mass texts.
    pub library: &'a Library,
    /// The Kalendarium and transfer tables.
    pub kalendar: &'a Kalendar,
}

impl Rules<'_> {
    /// Decide a date, given the year's transfer table and Easter.
    pub fn decide(
        &self,
        date: NaiveDate,
        easter: NaiveDate,
        transfers: &YearTransfers,
    ) -> Option<Occurrence> {
        let ctx = Context {
            paschal: temporal::paschal(date, easter),
            penitential: temporal::penitential(date, easter),
        };
        let month_day = sanctoral_day(date);
        let week = temporal::week_name(date, easter);
        let sunday = date.weekday() == Weekday::Sun;
        let moved_here = transfers.on(&month_day).unwrap_or(&[]);

        let (temporal, moved_saints) = self.temporal_office(date, easter, moved_here, ctx);
        let (mut saint, mut commemorated) =
            self.sanctoral_office(&month_day, moved_saints, transfers, ctx);

        // Octaves are not kept in Lent (the day "infra octavam" gives way to the next entry).
        if saint
            .as_ref()
            .is_some_and(|s| s.title_la.to_lowercase().contains("octava"))
            && temporal.as_ref().is_some_and(|t| in_lent(&t.file))
        {
            saint = commemorated
                .first()
                .cloned()
                .and_then(|f| Office::read(self.library, &f, ctx));
            commemorated.clear();
        }

        let trank = temporal.as_ref().map_or(0.0, |t| t.rank);
        let mut srank = saint.as_ref().map_or(0.0, |s| s.rank);
        let t_is_sunday = temporal.as_ref().is_some_and(Office::is_sunday);
        let t_name: String = temporal
            .as_ref()
            .map(|t| t.title_la.clone())
            .unwrap_or_default();
        let ordinary_temporal = ["Dominica", "Feria", "Sabbato", "In Octava"]
            .iter()
            .any(|w| t_name.contains(w));

        let drop_saint = saint.is_some()
            && (
                // On days of I class, no feast below I class (CR 91, 109).
                (trank >= 6.0 && srank < 6.0)
                // Simple feasts on I class feasts of the Temporale.
                || (!ordinary_temporal && trank >= 6.0 && srank < 2.1)
                // When 13 January is the Sunday of the Holy Family, the commemoration of the
                // Baptism of the Lord is omitted (1960 Kalendarium, 13 January).
                || (sunday && month_day == "01-13")
                // A vigil falling on a Sunday is omitted (CR 28), Christmas Eve excepted.
                || (saint.as_ref().is_some_and(Office::is_vigil) && sunday && date.month() < 12)
                // On Sundays, feasts of lower class than the Sunday are neither kept nor
                // commemorated (CR 13–15).
                || (sunday && ((trank >= 6.0 && srank < 6.0) || (trank >= 5.0 && srank < 5.0)))
            );
        if drop_saint {
            saint = None;
            srank = 0.0;
            commemorated.clear();
        }

        let mut temporal = temporal;
        let feast_of_lord_on_sunday = t_is_sunday
            && !week.starts_with("Nat1")
            && trank <= 5.0
            && srank >= 5.0
            && saint.as_ref().is_some_and(Office::feast_of_the_lord);
        let privileged_feria = [2.1_f32, 3.9, 4.9]
            .iter()
            .any(|r| (trank - r).abs() < 0.001);
        // A I class feast takes the place of a feria that is not privileged, with no
        // commemoration of it; a feast of the Lord replaces a Sunday of II class (CR 15).
        if (srank >= 6.0 && trank < 6.0 && !privileged_feria && !t_is_sunday)
            || feast_of_lord_on_sunday
        {
            temporal = None;
        }
        let trank = temporal.as_ref().map_or(0.0, |t| t.rank);

        // Saturday of Our Lady on free Saturdays (CR 243).
        if date.weekday() == Weekday::Sat && trank < 1.4 && srank < 1.4 {
            let file = format!("Commune/{}", saturday_commune(&week, date));
            if let Some(mut bmv) = Office::read(self.library, &file, ctx) {
                bmv.rank = 1.3;
                bmv.title_la = "Sanctae Mariae Sabbato".into();
                if let Some(s) = saint.take().filter(|s| !is_feria_of_january(s)) {
                    commemorated.insert(0, s.file);
                }
                return Some(Occurrence {
                    class: Class::IV,
                    winner: bmv,
                    commemorations: self.commemorations(&commemorated, Class::IV, ctx),
                    temporal,
                });
            }
        }

        // In Advent and Lent a I class feast yields to the Sunday of I class (CR 91: Sundays of
        // Advent and Lent precede every feast).
        if (week.starts_with("Adv") || week.starts_with("Quad"))
            && srank > 6.0
            && month_day != "12-24"
            && !saint.as_ref().is_some_and(|s| s.rule.contains("Patronus"))
        {
            srank = 6.01;
        }
        // The Holy Family outranks the feast of its day.
        if week == "Epi1" && t_is_sunday && (srank - 5.6).abs() < 0.001 {
            srank = 2.9;
        }

        let saint_wins = match &saint {
            None => false,
            Some(_) if srank <= 1.1 => false,
            Some(_) if srank > trank => true,
            // A feast of II class precedes a day within the octave of Christmas (CR 91, II
            // class 5 and 6): the Holy Innocents on 28 December.
            Some(_)
                if !t_is_sunday
                    && srank >= 5.0
                    && (srank - trank).abs() < 0.001
                    && t_name.contains("infra Octavam Nativitatis") =>
            {
                true
            }
            Some(s) if t_is_sunday && !week.starts_with("Nat1") => {
                (trank <= 5.0 && (srank >= 6.0 || (srank >= 5.0 && s.feast_of_the_lord())))
                    || s.title_la.contains("Conceptione Immaculata")
            }
            Some(_) => false,
        };

        let (winner, loser) = if saint_wins {
            (saint, temporal.clone())
        } else {
            (temporal.clone(), saint)
        };
        let winner = winner?;
        let class = class_of(&winner, date);
        let mut files: Vec<String> = Vec::new();
        if let Some(l) = loser {
            let commemorate = if l.temporal {
                temporal_commemorated(&l, &winner, class)
            } else {
                // A saint that gives way is commemorated; a day "of January" is a feria.
                !is_feria_of_january(&l)
            };
            if commemorate {
                files.push(l.file);
            }
        }
        files.extend(commemorated);
        let mut commemorations = self.commemorations(&files, class, ctx);
        commemorations.extend(collect_commemorations(self.library, &winner, ctx));
        Some(Occurrence {
            commemorations,
            class,
            winner,
            temporal,
        })
    }

    /// The Temporale formulary of a date, and the Sanctoral files the transfer table puts on it.
    fn temporal_office(
        &self,
        date: NaiveDate,
        easter: NaiveDate,
        moved_here: &[String],
        ctx: Context,
    ) -> (Option<Office>, Vec<String>) {
        let mut file = format!("Tempora/{}", temporal::file_key(date, easter));
        let mut saints: Vec<String> = Vec::new();
        for f in moved_here {
            if let Some(t) = f.strip_prefix("Tempora/") {
                file = format!("Tempora/{t}");
            } else if f != "X-X" && f != "X/X" {
                saints.push(f.clone());
            }
        }
        if let Some(ember) = temporal::september_ember(date) {
            file = format!("Tempora/{ember}");
        }
        let file = self.kalendar.tempora_file(&file).to_string();
        let mut office = Office::read(self.library, &file, ctx);
        if let Some(o) = office.as_mut() {
            // The ferias of Advent from 17 to 23 December are of II class (CR 16).
            if date.month() == 12 && date.day() > 16 && !o.is_sunday() && o.rank < 4.9 {
                o.rank = 4.9;
            }
        }
        (office, saints)
    }

    /// The Sanctoral formulary of a date and the files commemorated with it.
    fn sanctoral_office(
        &self,
        month_day: &str,
        moved_here: Vec<String>,
        transfers: &YearTransfers,
        ctx: Context,
    ) -> (Option<Office>, Vec<String>) {
        let mut files: Vec<String> = if moved_here.is_empty() {
            self.kalendar.files(month_day).to_vec()
        } else {
            moved_here
        };
        let Some(first) = files.first().cloned() else {
            return (None, files);
        };
        files.remove(0);
        // A feast the transfer table moves elsewhere is not kept on its own date.
        if transfers.moved_to(&first).is_some_and(|to| to != month_day) {
            return (None, files);
        }
        let key = sanctoral_key(&first);
        (
            Office::read(self.library, &key, ctx),
            files.iter().map(|f| sanctoral_key(f)).collect(),
        )
    }

    /// Read the commemorated files, keeping as many as the class allows (CR 109: one on days
    /// of I and II class, two on days of III and IV class).
    fn commemorations(&self, files: &[String], class: Class, ctx: Context) -> Vec<Office> {
        let limit = match class {
            Class::I | Class::II => 1,
            Class::III | Class::IV => 2,
        };
        files
            .iter()
            .filter_map(|f| Office::read(self.library, f, ctx))
            .take(limit)
            .collect()
    }
}

/// The Kalendarium's day of a date. In a leap year the added day is 24 February, kept under
/// the key `02-29`, and the feasts from 24 February on are kept a day later (St Matthias on
/// the 25th): the bissextile rule the 1960 rubrics keep (Divinum Officium's `get_sday`).
fn sanctoral_day(date: NaiveDate) -> String {
    let leap = NaiveDate::from_ymd_opt(date.year(), 2, 29).is_some();
    let day = match (leap, date.month(), date.day()) {
        (true, 2, 24) => 29,
        (true, 2, d) if d > 24 => d - 1,
        (_, _, d) => d,
    };
    format!("{:02}-{day:02}", date.month())
}

/// From Ash Wednesday to Holy Saturday, by Temporale file (`Quadp3-3` to `Quad6-6`).
fn in_lent(file: &str) -> bool {
    let week = file.trim_start_matches("Tempora/");
    let lent_week = week
        .strip_prefix("Quad")
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
    let ash_week = ["Quadp3-3", "Quadp3-4", "Quadp3-5", "Quadp3-6"]
        .iter()
        .any(|w| week.starts_with(w));
    lent_week || ash_week
}

/// Whether the Temporale's day that gave way is commemorated at Mass (Rubricae generales
/// Missalis 109–111): a Sunday always; a feria of Advent or Lent (ranks 2.1, 3.9, 4.9) even on
/// days of I class (a privileged commemoration), except on the Vigil of Christmas; an Ember
/// day on days below I class. The days within the octave of Christmas and the other ferias
/// are not.
fn temporal_commemorated(l: &Office, winner: &Office, winner_class: Class) -> bool {
    if l.is_sunday() {
        return true;
    }
    let title = l.title_la.to_lowercase();
    let ember = title.contains("quat") && title.contains("tempor");
    let privileged = [2.1_f32, 3.9, 4.9]
        .iter()
        .any(|r| (l.rank - r).abs() < 0.001);
    if winner_class == Class::I && (winner.file.contains("12-24") || !privileged) {
        // The Vigil of Christmas admits no commemoration but the Sunday's.
        return false;
    }
    (ember || privileged) && !title.contains("octav")
}

/// The commemorations a formulary makes in its own Collect (`!Commemoratio S. Pauli` on the
/// feasts of St Peter, the Seven Sorrows on the Friday of Passion week), said under one
/// conclusion and not counted among the commemorations of occurrence.
fn collect_commemorations(library: &Library, winner: &Office, ctx: Context) -> Vec<Office> {
    let Some(oratio) = library.section(&winner.file, "Oratio", ctx) else {
        return Vec::new();
    };
    oratio
        .lines()
        .filter_map(|l| l.trim().strip_prefix("!Commemoratio "))
        .map(|title| Office {
            file: winner.file.clone(),
            title_la: title.trim().to_string(),
            rank: 0.0,
            commune: None,
            rule: String::new(),
            temporal: false,
        })
        .collect()
}

/// The days of January after the Epiphany ("Die Septima Januarii"): ferias of the Sanctorale.
fn is_feria_of_january(o: &Office) -> bool {
    !o.temporal && o.rank < 2.0 && o.title_la.starts_with("Die ")
}

/// `01-14cc` → `Sancti/01-14cc`; `Tempora/…` and `../Commune/…` kept as they are.
fn sanctoral_key(file: &str) -> String {
    if file.starts_with("Tempora/") || file.starts_with("Sancti/") {
        file.to_string()
    } else if let Some(c) = file.strip_prefix("../") {
        c.to_string()
    } else {
        format!("Sancti/{file}")
    }
}

/// The formulary of the Saturday of Our Lady by season (the Commune's five Masses).
fn saturday_commune(week: &str, date: NaiveDate) -> &'static str {
    if week.starts_with("Adv") {
        "C10a"
    } else if date.month() == 1 || (date.month() == 2 && date.day() == 1) {
        "C10b"
    } else if week.starts_with("Epi") || week.starts_with("Quad") {
        "C10c"
    } else if week.starts_with("Pasc") {
        "C10Pasc"
    } else {
        "C10"
    }
}

/// The class of the day's Mass: the class of its rank, with the days the 1960 rubrics class
/// apart from their rank number: the ferias of 17–23 December and the Ember days of Advent,
/// Lent and September are of II class (CR 16), the Vigil of the Ascension of II class, the
/// days within the octaves of Easter and Pentecost of I class (CR 12).
fn class_of(office: &Office, date: NaiveDate) -> Class {
    let title = office.title_la.to_lowercase();
    // All Souls and the Octave of Christmas (1 January) are of I class, the Vigil of the
    // Assumption of II class (CR, Tabella dierum liturgicorum, and the 1960 Kalendarium).
    if title.contains("omnium fidelium defunctorum") || office.file == "Sancti/01-01" {
        return Class::I;
    }
    if title.contains("vigilia assumptionis") {
        return Class::II;
    }
    if office.temporal {
        if title.contains("quat") && title.contains("tempor") && !title.contains("pentecost") {
            return Class::II;
        }
        if date.month() == 12 && (17..=23).contains(&date.day()) && !office.is_sunday() {
            return Class::II;
        }
        if office.file.contains("Pasc5-3") {
            return Class::II;
        }
    }
    Class::of_rank(office.rank)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bissextile_day() {
        let d = |m, day| NaiveDate::from_ymd_opt(2028, m, day).unwrap();
        assert_eq!(sanctoral_day(d(2, 23)), "02-23");
        assert_eq!(sanctoral_day(d(2, 24)), "02-29");
        assert_eq!(sanctoral_day(d(2, 25)), "02-24");
        assert_eq!(sanctoral_day(d(2, 29)), "02-28");
        assert_eq!(
            sanctoral_day(NaiveDate::from_ymd_opt(2027, 2, 24).unwrap()),
            "02-24"
        );
    }
}

//! Easter Sunday by the Gregorian computus.

use chrono::NaiveDate;

/// Easter Sunday of a Gregorian year (the "anonymous Gregorian algorithm" of
/// Meeus/Jones/Butcher). Valid for every year from 1583; `None` only for
/// years chrono cannot represent.
pub fn easter(year: i32) -> Option<NaiveDate> {
    let a = year.rem_euclid(19);
    let b = year.div_euclid(100);
    let c = year.rem_euclid(100);
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15).rem_euclid(30);
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k).rem_euclid(7);
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    NaiveDate::from_ymd_opt(year, month as u32, day as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Datelike;

    /// A second, independent computus: Lilius/Clavius with epacts, as in the
    /// tables of the Gregorian reform (golden number, solar and lunar
    /// equations, the epact corrections for 25 and 24), then the Sunday
    /// after the paschal full moon found by stepping days.
    fn easter_by_epact(year: i32) -> NaiveDate {
        let golden = year % 19 + 1;
        let century = year / 100 + 1;
        let solar = (3 * century) / 4 - 12;
        let lunar = (8 * century + 5) / 25 - 5;
        let mut epact = (11 * golden + 20 + lunar - solar).rem_euclid(30);
        if (epact == 25 && golden > 11) || epact == 24 {
            epact += 1;
        }
        // Paschal full moon: 44 - epact days after 1 March's "day 0" (21 March + ...).
        let mut pfm = 44 - epact;
        if pfm < 21 {
            pfm += 30;
        }
        let full_moon =
            NaiveDate::from_ymd_opt(year, 3, 1).unwrap() + chrono::Duration::days((pfm - 1) as i64);
        let mut d = full_moon + chrono::Duration::days(1);
        while d.weekday() != chrono::Weekday::Sun {
            d += chrono::Duration::days(1);
        }
        d
    }

    #[test]
    fn easter_matches_epact_computus_1583_4099() {
        for y in 1583..=4099 {
            assert_eq!(easter(y).unwrap(), easter_by_epact(y), "year {y}");
        }
    }

    #[test]
    fn easter_known_dates() {
        let known = [
            (1970, 3, 29),
            (1981, 4, 19),
            (2000, 4, 23),
            (2008, 3, 23),
            (2011, 4, 24),
            (2019, 4, 21),
            (2024, 3, 31),
            (2025, 4, 20),
            (2026, 4, 5),
            (2038, 4, 25),
            (2285, 3, 22),
        ];
        for (y, m, d) in known {
            assert_eq!(easter(y), NaiveDate::from_ymd_opt(y, m, d), "{y}");
        }
    }

    #[test]
    fn easter_is_sunday_in_range() {
        for y in 1583..=4099 {
            let e = easter(y).unwrap();
            assert_eq!(e.weekday(), chrono::Weekday::Sun);
            let lo = NaiveDate::from_ymd_opt(y, 3, 22).unwrap();
            let hi = NaiveDate::from_ymd_opt(y, 4, 25).unwrap();
            assert!(e >= lo && e <= hi, "{y}: {e}");
        }
    }
}

//! "Today" in a time zone, without a time-zone database: UTC, fixed offsets
//! (`+05:30`, `UTC-3`) and the common IANA zones with their standard offset and
//! EU/US summer-time rules. Unknown names fall back to UTC (logged).

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc, Weekday};

#[derive(Clone, Copy)]
enum Dst {
    None,
    Eu,
    Us,
}

const ZONES: &[(&str, i32, Dst)] = &[
    ("Europe/London", 0, Dst::Eu),
    ("Europe/Dublin", 0, Dst::Eu),
    ("Europe/Lisbon", 0, Dst::Eu),
    ("Europe/Paris", 60, Dst::Eu),
    ("Europe/Rome", 60, Dst::Eu),
    ("Europe/Vatican", 60, Dst::Eu),
    ("Europe/Madrid", 60, Dst::Eu),
    ("Europe/Berlin", 60, Dst::Eu),
    ("Europe/Prague", 60, Dst::Eu),
    ("Europe/Vienna", 60, Dst::Eu),
    ("Europe/Warsaw", 60, Dst::Eu),
    ("Europe/Brussels", 60, Dst::Eu),
    ("Europe/Amsterdam", 60, Dst::Eu),
    ("Europe/Zurich", 60, Dst::Eu),
    ("Europe/Malta", 60, Dst::Eu),
    ("Europe/Athens", 120, Dst::Eu),
    ("Europe/Kiev", 120, Dst::Eu),
    ("Europe/Kyiv", 120, Dst::Eu),
    ("America/New_York", -300, Dst::Us),
    ("America/Detroit", -300, Dst::Us),
    ("America/Toronto", -300, Dst::Us),
    ("America/Chicago", -360, Dst::Us),
    ("America/Denver", -420, Dst::Us),
    ("America/Phoenix", -420, Dst::None),
    ("America/Los_Angeles", -480, Dst::Us),
    ("America/Anchorage", -540, Dst::Us),
    ("Pacific/Honolulu", -600, Dst::None),
    ("America/Mexico_City", -360, Dst::None),
    ("America/Bogota", -300, Dst::None),
    ("America/Lima", -300, Dst::None),
    ("America/Sao_Paulo", -180, Dst::None),
    ("America/Argentina/Buenos_Aires", -180, Dst::None),
    ("Asia/Kolkata", 330, Dst::None),
    ("Asia/Calcutta", 330, Dst::None),
    ("Asia/Dhaka", 360, Dst::None),
    ("Asia/Shanghai", 480, Dst::None),
    ("Asia/Hong_Kong", 480, Dst::None),
    ("Asia/Taipei", 480, Dst::None),
    ("Asia/Manila", 480, Dst::None),
    ("Asia/Singapore", 480, Dst::None),
    ("Asia/Seoul", 540, Dst::None),
    ("Asia/Tokyo", 540, Dst::None),
    ("Asia/Jakarta", 420, Dst::None),
    ("Asia/Ho_Chi_Minh", 420, Dst::None),
    ("Africa/Lagos", 60, Dst::None),
    ("Africa/Nairobi", 180, Dst::None),
    ("Africa/Johannesburg", 120, Dst::None),
    ("Australia/Perth", 480, Dst::None),
    ("Etc/UTC", 0, Dst::None),
    ("UTC", 0, Dst::None),
    ("GMT", 0, Dst::None),
];

fn nth_sunday(year: i32, month: u32, nth: i64, last: bool) -> Option<NaiveDate> {
    if last {
        let mut d = NaiveDate::from_ymd_opt(year, month + 1, 1)? - Duration::days(1);
        while d.weekday() != Weekday::Sun {
            d -= Duration::days(1);
        }
        return Some(d);
    }
    let mut d = NaiveDate::from_ymd_opt(year, month, 1)?;
    while d.weekday() != Weekday::Sun {
        d += Duration::days(1);
    }
    Some(d + Duration::days(7 * (nth - 1)))
}

fn parse_offset(tz: &str) -> Option<i32> {
    let s = tz
        .trim()
        .trim_start_matches("UTC")
        .trim_start_matches("GMT");
    if s.is_empty() {
        return Some(0);
    }
    let sign = match s.chars().next()? {
        '+' => 1,
        '-' => -1,
        _ => return None,
    };
    let body = &s[1..];
    let (h, m) = match body.split_once(':') {
        Some((h, m)) => (h.parse::<i32>().ok()?, m.parse::<i32>().ok()?),
        None if body.len() == 4 => (body[..2].parse().ok()?, body[2..].parse().ok()?),
        None => (body.parse().ok()?, 0),
    };
    (h <= 14 && m < 60).then_some(sign * (h * 60 + m))
}

/// Offset in minutes of a zone at an instant; `None` for an unknown zone.
pub fn offset_minutes(tz: &str, at: DateTime<Utc>) -> Option<i32> {
    if let Some(o) = parse_offset(tz) {
        return Some(o);
    }
    let (_, std, dst) = ZONES
        .iter()
        .find(|(n, _, _)| n.eq_ignore_ascii_case(tz.trim()))?;
    let y = at.year();
    let summer = match dst {
        Dst::None => false,
        Dst::Eu => {
            let (Some(a), Some(b)) = (nth_sunday(y, 3, 0, true), nth_sunday(y, 10, 0, true)) else {
                return Some(*std);
            };
            let start = Utc.from_utc_datetime(&a.and_hms_opt(1, 0, 0)?);
            let end = Utc.from_utc_datetime(&b.and_hms_opt(1, 0, 0)?);
            at >= start && at < end
        }
        Dst::Us => {
            let (Some(a), Some(b)) = (nth_sunday(y, 3, 2, false), nth_sunday(y, 11, 1, false))
            else {
                return Some(*std);
            };
            let start =
                Utc.from_utc_datetime(&a.and_hms_opt(2, 0, 0)?) - Duration::minutes(*std as i64);
            let end = Utc.from_utc_datetime(&b.and_hms_opt(2, 0, 0)?)
                - Duration::minutes(*std as i64 + 60);
            at >= start && at < end
        }
    };
    Some(std + if summer { 60 } else { 0 })
}

/// Today's date in a zone (IANA name from the table, `UTC`, or an offset such as `+05:30`).
pub fn today_in(tz: &str) -> NaiveDate {
    let now = Utc::now();
    let off = offset_minutes(tz, now).unwrap_or_else(|| {
        tracing::warn!("time zone {tz:?} not known to the built-in table; reading today in UTC");
        0
    });
    (now + Duration::minutes(off as i64)).date_naive()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets() {
        let winter = Utc.with_ymd_and_hms(2026, 1, 15, 12, 0, 0).unwrap();
        let summer = Utc.with_ymd_and_hms(2026, 7, 15, 12, 0, 0).unwrap();
        assert_eq!(offset_minutes("Asia/Kolkata", winter), Some(330));
        assert_eq!(offset_minutes("Europe/Prague", winter), Some(60));
        assert_eq!(offset_minutes("Europe/Prague", summer), Some(120));
        assert_eq!(offset_minutes("America/New_York", summer), Some(-240));
        assert_eq!(offset_minutes("+05:30", summer), Some(330));
        assert_eq!(offset_minutes("UTC-3", summer), Some(-180));
        assert_eq!(offset_minutes("Mars/Olympus", summer), None);
    }
}

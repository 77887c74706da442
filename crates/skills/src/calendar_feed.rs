//! `GET /calendar.ics`: the liturgical calendar as an iCalendar feed that Google Calendar,
//! Apple Calendar and Thunderbird subscribe to.
//!
//! Query: `calendar` (`general-roman` unless `[liturgy] calendar` says otherwise; a
//! nation's ISO code `us`, `pl`, `gb-eng`, …; a diocese `boston-us`, …; `1962`), `from` and `to` (`YYYY-MM-DD`; default: 1 January of this year to
//! 31 December of next year, so a subscription always shows the coming year), and
//! `readings=true` for each day's Mass readings in the event description. At most
//! [`MAX_DAYS`] days per request.

use crate::liturgy::DateEnv;
use chrono::{Datelike, NaiveDate};
use ecclesia_core::{Feed, SkillError};
use ecclesia_liturgy::Liturgy;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The longest range one request may ask for (three years and a day).
pub const MAX_DAYS: i64 = 1097;

/// The feed over the loaded liturgy.
pub struct CalendarFeed {
    pub(crate) lit: Arc<Liturgy>,
    pub(crate) env: DateEnv,
}

fn date_param(
    query: &BTreeMap<String, String>,
    name: &str,
) -> Result<Option<NaiveDate>, SkillError> {
    let Some(v) = query.get(name) else {
        return Ok(None);
    };
    NaiveDate::parse_from_str(v.trim(), "%Y-%m-%d")
        .map(Some)
        .map_err(|_| {
            SkillError::InvalidParams(format!("{name}: expected a date as YYYY-MM-DD, got {v:?}"))
        })
}

fn bool_param(query: &BTreeMap<String, String>, name: &str) -> Result<bool, SkillError> {
    match query
        .get(name)
        .map(|s| s.trim().to_ascii_lowercase())
        .as_deref()
    {
        None | Some("") | Some("false") | Some("0") | Some("no") => Ok(false),
        Some("true") | Some("1") | Some("yes") => Ok(true),
        Some(other) => Err(SkillError::InvalidParams(format!(
            "{name}: expected true or false, got {other:?}"
        ))),
    }
}

impl Feed for CalendarFeed {
    fn path(&self) -> &'static str {
        "/calendar.ics"
    }

    fn content_type(&self) -> &'static str {
        "text/calendar; charset=utf-8"
    }

    fn render(&self, query: &BTreeMap<String, String>) -> Result<String, SkillError> {
        if let Some(k) = query
            .keys()
            .find(|k| !matches!(k.as_str(), "calendar" | "from" | "to" | "readings"))
        {
            return Err(SkillError::InvalidParams(format!(
                "unknown parameter {k:?}; accepted: calendar, from, to (YYYY-MM-DD), readings (true/false)"
            )));
        }
        let today = self.env.today();
        let from = date_param(query, "from")?
            .or_else(|| NaiveDate::from_ymd_opt(today.year(), 1, 1))
            .ok_or_else(|| SkillError::internal("no first day"))?;
        let to = date_param(query, "to")?
            .or_else(|| NaiveDate::from_ymd_opt(today.year() + 1, 12, 31))
            .ok_or_else(|| SkillError::internal("no last day"))?;
        if to < from {
            return Err(SkillError::InvalidParams(format!(
                "to ({to}) is before from ({from})"
            )));
        }
        if (to - from).num_days() >= MAX_DAYS {
            return Err(SkillError::InvalidParams(format!(
                "at most {MAX_DAYS} days per feed; ask for {from} to {} or split the range",
                from + chrono::Duration::days(MAX_DAYS - 1)
            )));
        }
        let calendar = query
            .get("calendar")
            .map(String::as_str)
            .or(self.env.calendar());
        let stamp = chrono::Utc::now().naive_utc();
        self.lit
            .calendar_ics(calendar, from, to, bool_param(query, "readings")?, stamp)
            .map_err(crate::liturgy::map_err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed() -> CalendarFeed {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data");
        let lit = Arc::new(Liturgy::load(std::path::Path::new(dir)).expect("data"));
        let env = crate::SkillEnv {
            today: NaiveDate::from_ymd_opt(2026, 3, 1),
            ..Default::default()
        };
        CalendarFeed {
            lit,
            env: DateEnv::from(&env),
        }
    }

    fn q(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn invalid(r: Result<String, SkillError>) -> String {
        match r {
            Err(SkillError::InvalidParams(m)) => m,
            other => panic!("expected invalid params, got {other:?}"),
        }
    }

    #[test]
    fn defaults_to_this_year_and_next() {
        let ics = feed().render(&q(&[])).unwrap();
        assert_eq!(ics.matches("BEGIN:VEVENT").count(), 365 + 365);
        assert!(ics.contains("DTSTART;VALUE=DATE:20260101"));
        assert!(ics.contains("DTSTART;VALUE=DATE:20271231"));
    }

    #[test]
    fn calendar_range_and_readings_are_honoured() {
        let f = feed();
        let ics = f
            .render(&q(&[
                ("calendar", "us"),
                ("from", "2026-05-17"),
                ("to", "2026-05-17"),
                ("readings", "true"),
            ]))
            .unwrap();
        assert_eq!(ics.matches("BEGIN:VEVENT").count(), 1);
        assert!(ics.contains("SUMMARY:The Ascension of the Lord"), "{ics}");
        assert!(ics.contains("Gospel: "));
    }

    #[test]
    fn bad_queries_are_clear_errors() {
        let f = feed();
        assert!(invalid(f.render(&q(&[("from", "2026-13-01")]))).contains("YYYY-MM-DD"));
        assert!(
            invalid(f.render(&q(&[("from", "2026-02-01"), ("to", "2026-01-01")])))
                .contains("before")
        );
        assert!(
            invalid(f.render(&q(&[("from", "1970-01-01"), ("to", "2100-01-01")])))
                .contains("at most")
        );
        assert!(invalid(f.render(&q(&[("calendar", "narnia")]))).contains("narnia"));
        assert!(invalid(f.render(&q(&[("readings", "maybe")]))).contains("true or false"));
        assert!(invalid(f.render(&q(&[("<script>", "1")]))).contains("unknown parameter"));
    }
}

//! The calendar as an iCalendar feed (RFC 5545) that Google Calendar, Apple Calendar and
//! Thunderbird subscribe to: one all-day event per day, named after the day's celebration,
//! with rank, colour, season, cycles and psalter week (and, on request, the Mass readings'
//! citations) in its description.

use crate::types::Day;
use chrono::{Duration, NaiveDateTime};

/// What a feed is made of, besides its days.
#[derive(Debug, Clone)]
pub struct IcsFeed<'a> {
    /// Calendar id (`general-roman`, `us`, `boston-us`), part of every event's UID.
    pub calendar: &'a str,
    /// The feed's display name (`X-WR-CALNAME`).
    pub name: &'a str,
    /// When the feed was made (UTC), written as every event's `DTSTAMP`.
    pub stamp: NaiveDateTime,
}

/// Escape a TEXT value (RFC 5545 3.3.11).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// Write one content line, folded at 75 octets (RFC 5545 3.1) on character boundaries.
fn line(out: &mut String, content: &str) {
    let mut width = 0;
    for c in content.chars() {
        let n = c.len_utf8();
        if width + n > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += n;
    }
    out.push_str("\r\n");
}

/// The description of a day: rank, colour, season and week, cycles, psalter week, the
/// other celebrations, then `readings` (one citation per line) when given.
fn description(day: &Day, readings: &[String]) -> String {
    let p = day.principal();
    let mut text = format!(
        "{} · {} · {}, week {} · Sunday cycle {} · Weekday cycle {} · Psalter week {}",
        p.rank.name(),
        p.color.name(),
        day.season.name(),
        day.week_of_season,
        day.sunday_cycle,
        day.weekday_cycle_roman(),
        day.psalter_week_roman()
    );
    if let Some(also) = day.also_line() {
        text.push('\n');
        text.push_str(&also);
    }
    for r in readings {
        text.push('\n');
        text.push_str(r);
    }
    text
}

/// One all-day event of a feed.
#[derive(Debug, Clone, PartialEq)]
pub struct IcsEvent {
    /// The day.
    pub date: chrono::NaiveDate,
    /// A key unique within the day (the celebration's key), part of the UID.
    pub key: String,
    /// The event's title (the celebration).
    pub summary: String,
    /// The description (rank, colour, season, readings).
    pub description: String,
    /// The category (the rank or class).
    pub category: String,
    /// The CSS3 colour name (RFC 7986 `COLOR`).
    pub colour: &'static str,
}

impl IcsEvent {
    /// The event of a day of the General Roman (or a national) calendar.
    pub fn of_day(day: &Day, readings: &[String]) -> IcsEvent {
        let p = day.principal();
        IcsEvent {
            date: day.date,
            key: p.key.clone(),
            summary: p.name.clone(),
            description: description(day, readings),
            category: p.rank.name().to_string(),
            colour: css_color(p.color),
        }
    }
}

/// The feed of a list of events.
pub fn calendar_ics(feed: &IcsFeed<'_>, events: &[IcsEvent]) -> String {
    let mut out = String::new();
    line(&mut out, "BEGIN:VCALENDAR");
    line(&mut out, "VERSION:2.0");
    line(&mut out, "PRODID:-//Ecclesia//Liturgical Calendar//EN");
    line(&mut out, "CALSCALE:GREGORIAN");
    line(&mut out, "METHOD:PUBLISH");
    line(&mut out, &format!("X-WR-CALNAME:{}", escape(feed.name)));
    line(&mut out, "X-PUBLISHED-TTL:P1D");
    let stamp = feed.stamp.format("%Y%m%dT%H%M%SZ").to_string();
    for event in events {
        let date = event.date.format("%Y%m%d");
        line(&mut out, "BEGIN:VEVENT");
        line(
            &mut out,
            &format!("UID:{date}-{}@ecclesia.{}", event.key, feed.calendar),
        );
        line(&mut out, &format!("DTSTAMP:{stamp}"));
        line(&mut out, &format!("DTSTART;VALUE=DATE:{date}"));
        line(
            &mut out,
            &format!(
                "DTEND;VALUE=DATE:{}",
                (event.date + Duration::days(1)).format("%Y%m%d")
            ),
        );
        line(&mut out, &format!("SUMMARY:{}", escape(&event.summary)));
        line(
            &mut out,
            &format!("DESCRIPTION:{}", escape(&event.description)),
        );
        line(&mut out, &format!("CATEGORIES:{}", escape(&event.category)));
        line(&mut out, &format!("COLOR:{}", event.colour));
        line(&mut out, "TRANSP:TRANSPARENT");
        line(&mut out, "END:VEVENT");
    }
    line(&mut out, "END:VCALENDAR");
    out
}

/// The CSS3 colour name of a liturgical colour (RFC 7986 `COLOR`).
pub fn css_color(c: crate::types::Color) -> &'static str {
    use crate::types::Color;
    match c {
        Color::White => "white",
        Color::Red => "red",
        Color::Green => "green",
        Color::Violet => "purple",
        Color::Rose => "pink",
        Color::Black => "black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_long_lines_at_75_octets_on_character_boundaries() {
        let mut out = String::new();
        line(&mut out, &format!("SUMMARY:{}", "é".repeat(60)));
        for l in out.split("\r\n").filter(|l| !l.is_empty()) {
            assert!(l.len() <= 75, "{} octets", l.len());
        }
        assert!(out.contains("\r\n "));
    }

    #[test]
    fn escapes_text() {
        assert_eq!(escape("a, b; c\\d\ne"), "a\\, b\\; c\\\\d\\ne");
    }
}

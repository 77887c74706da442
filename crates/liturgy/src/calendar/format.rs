//! The calendar's output lines: JSONL and a table.

use crate::types::{Day, Rank};
use serde_json::Value;

/// One JSONL line of `ecclesia calendar --format jsonl`:
/// `{"date","weekday","season","week_of_season","sunday_cycle","weekday_cycle","psalter_week","celebrations":[{"key","name","rank","color","optional"}]}`.
pub fn calendar_jsonl_line(day: &Day) -> String {
    let cels: Vec<Value> = day
        .celebrations
        .iter()
        .filter(|c| !(c.temporal && c.rank == Rank::Weekday && c.optional))
        .map(|c| {
            serde_json::json!({
                "key": c.key,
                "name": c.name,
                "rank": c.rank.code(),
                "color": c.color.code(),
                "optional": c.optional,
            })
        })
        .collect();
    let v = serde_json::json!({
        "date": day.date.format("%Y-%m-%d").to_string(),
        "weekday": day.weekday_name(),
        "season": day.season.code(),
        "week_of_season": day.week_of_season,
        "sunday_cycle": day.sunday_cycle.to_string(),
        "weekday_cycle": day.weekday_cycle_roman(),
        "psalter_week": day.psalter_week_roman(),
        "celebrations": cels,
    });
    v.to_string()
}

/// One line of the `table` format: date, weekday, season/week, cycles, psalter week, then
/// the celebrations.
pub fn calendar_table_line(day: &Day) -> String {
    let cels: Vec<String> = day
        .celebrations
        .iter()
        .filter(|c| !(c.temporal && c.rank == Rank::Weekday && c.optional))
        .map(|c| format!("{} [{}, {}]", c.name, c.rank.name(), c.color.name()))
        .collect();
    format!(
        "{}  {:<9}  {:<15} {:>2}  {}/{:<2}  Ps {:<3}  {}",
        day.date.format("%Y-%m-%d"),
        day.weekday_name(),
        day.season.code(),
        day.week_of_season,
        day.sunday_cycle,
        day.weekday_cycle_roman(),
        day.psalter_week_roman(),
        cels.join(" | ")
    )
}

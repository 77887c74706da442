//! The liturgical engine of Ecclesia.
//!
//! * [`CalendarData`] computes the General Roman Calendar (and national
//!   calendars such as the United States) for any year from 1970: Easter and
//!   the moveable feasts, seasons and weeks, Sunday cycle A/B/C and weekday
//!   cycle I/II, the proper of saints with ranks, colours, precedence and
//!   transfers. [`Day`] is one liturgical day.
//!
//! ```no_run
//! use ecclesia_liturgy::CalendarData;
//! let data = CalendarData::load(std::path::Path::new("../shared/data")).unwrap();
//! let gr = data.spec("general-roman").unwrap();
//! let day = data.day(gr, chrono::NaiveDate::from_ymd_opt(2026, 3, 19).unwrap()).unwrap();
//! println!("{}", ecclesia_liturgy::calendar_jsonl_line(&day));
//! ```
#![deny(missing_docs)]

pub mod bible;
pub mod calendar;
pub mod citation;
pub mod clock;
pub mod crosscheck;
pub mod easter;
pub mod engine;
pub mod error;
pub mod ics;
pub mod ingest;
pub mod lectionary;
pub mod martyrology;
pub mod missal1962;
pub mod phrases;
pub mod types;

pub use calendar::{calendar_jsonl_line, calendar_table_line, CalendarData, CalendarSpec};
pub use easter::easter;
pub use engine::{Liturgy, Reading, ReadingsAnswer};
pub use error::LiturgyError;
pub use ingest::LiturgyIngester;
pub use types::{Celebration, Color, Day, Rank, Season, TemporalPosition};

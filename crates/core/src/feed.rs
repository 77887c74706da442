//! Documents served by a plain HTTP `GET` beside the skills (an iCalendar feed that
//! calendar apps subscribe to): the domain renders them, the server only routes.

use crate::skill::SkillError;
use std::collections::BTreeMap;

/// A document at a fixed path, rendered from the query string.
pub trait Feed: Send + Sync + 'static {
    /// The path it is served at (`/calendar.ics`).
    fn path(&self) -> &'static str;
    /// Its media type (`text/calendar; charset=utf-8`).
    fn content_type(&self) -> &'static str;
    /// The document for these query parameters. [`SkillError::InvalidParams`] is a 400 with
    /// its message; [`SkillError::Unavailable`] a 503.
    fn render(&self, query: &BTreeMap<String, String>) -> Result<String, SkillError>;
}

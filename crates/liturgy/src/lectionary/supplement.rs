//! Our supplement to the lectionary table (`data/lectionary-supplement.tsv`): readings the
//! table lacks or gives in another order than the printed Lectionary, and the US
//! Lectionary's own forms. Compiled in; `ecclesia sources` lists it with its provenance.

use crate::error::LiturgyError;
use std::path::Path;

/// The supplement file, compiled into the binary.
pub(crate) const SUPPLEMENT_TSV: &str = include_str!("../../data/lectionary-supplement.tsv");

/// How `ecclesia sources` names the supplement.
pub const SUPPLEMENT_SOURCE: &str = "crates/liturgy/data/lectionary-supplement.tsv";

/// One supplement row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SupplementRow {
    pub key: String,
    pub slot: String,
    /// `None` for every calendar, `Some("us")` for one calendar's own form.
    pub calendar: Option<String>,
    /// English citation (`Luke 7:18b-23`).
    pub citation: String,
}

/// The parsed supplement.
#[derive(Debug, Clone, Default)]
pub(crate) struct Supplement {
    rows: Vec<SupplementRow>,
}

impl Supplement {
    /// Parse the tab-separated file (comments start with `#`).
    pub fn parse(text: &str) -> Result<Self, LiturgyError> {
        let mut rows = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() < 4 || f[1].parse::<f64>().is_err() {
                return Err(LiturgyError::data(
                    Path::new(SUPPLEMENT_SOURCE),
                    format!(
                        "line {}: expected key, slot, calendar, citation, source",
                        n + 1
                    ),
                ));
            }
            rows.push(SupplementRow {
                key: f[0].to_string(),
                slot: f[1].to_string(),
                calendar: (f[2] != "*").then(|| f[2].to_string()),
                citation: f[3].to_string(),
            });
        }
        Ok(Supplement { rows })
    }

    /// Every row.
    pub fn rows(&self) -> &[SupplementRow] {
        &self.rows
    }

    /// The rows of a key that apply in `calendar`.
    pub fn rows_of<'a>(
        &'a self,
        key: &'a str,
        calendar: &'a str,
    ) -> impl Iterator<Item = &'a SupplementRow> {
        self.rows
            .iter()
            .filter(move |r| r.key == key && r.calendar.as_deref().is_none_or(|c| c == calendar))
    }
}

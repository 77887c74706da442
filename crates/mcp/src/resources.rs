//! Resources: corpus documents as `ecclesia://document/{id}` (a section with
//! `?ref=34`), and today's Mass readings as `ecclesia://readings/today`.

use crate::content;
use crate::runner::Runner;
use ecclesia_a2a::Part;
use ecclesia_server::Caller;
use rmcp::model::{Resource, ResourceContents, ResourceTemplate};
use rmcp::ErrorData;
use serde_json::{json, Map, Value};

/// The document template (RFC 6570, with an optional `ref` query).
pub const DOCUMENT_TEMPLATE: &str = "ecclesia://document/{id}{?ref}";
/// Today's readings.
pub const TODAY_READINGS: &str = "ecclesia://readings/today";
const DOCUMENT_PREFIX: &str = "ecclesia://document/";
const MAX_URI_CHARS: usize = 2048;

/// The fixed resources.
pub fn list() -> Vec<Resource> {
    vec![Resource::new(TODAY_READINGS, "todays_readings")
        .with_title("Today's Mass readings")
        .with_description("The Mass readings of today (Roman Rite), formatted as text")
        .with_mime_type("text/plain")]
}

/// The templates.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![ResourceTemplate::new(DOCUMENT_TEMPLATE, "document")
        .with_title("A corpus document")
        .with_description(
            "The full text of a document by the id `search` returns; add ?ref=<paragraph, canon or chapter:verse> for one section",
        )
        .with_mime_type("text/plain")]
}

/// What a URI names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A document (and maybe a section).
    Document {
        /// Its id.
        id: String,
        /// A section reference.
        reference: Option<String>,
    },
    /// Today's readings.
    TodayReadings,
}

/// Parse a resource URI.
pub fn parse(uri: &str) -> Result<Target, ErrorData> {
    if uri.chars().count() > MAX_URI_CHARS {
        return Err(ErrorData::invalid_params(
            format!("the URI is too long; the limit is {MAX_URI_CHARS} characters"),
            None,
        ));
    }
    if uri == TODAY_READINGS {
        return Ok(Target::TodayReadings);
    }
    let not_found = || {
        ErrorData::resource_not_found(
            format!("no resource {uri:?}: use ecclesia://document/{{id}} or {TODAY_READINGS}"),
            Some(json!({"uri": uri})),
        )
    };
    let rest = uri.strip_prefix(DOCUMENT_PREFIX).ok_or_else(not_found)?;
    let (id, query) = match rest.split_once('?') {
        Some((id, q)) => (id, Some(q)),
        None => (rest, None),
    };
    let id = percent_decode(id).ok_or_else(not_found)?;
    if id.trim().is_empty() {
        return Err(not_found());
    }
    let mut reference = None;
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        if k == "ref" {
            reference = percent_decode(&v.replace('+', " ")).filter(|r| !r.trim().is_empty());
        }
    }
    Ok(Target::Document { id, reference })
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Read `uri`: the text, then the metadata as JSON.
pub async fn read(
    runner: &Runner,
    uri: &str,
    caller: Option<&Caller>,
) -> Result<Vec<ResourceContents>, ErrorData> {
    let target = parse(uri)?;
    let (skill, data) = match &target {
        Target::Document { id, reference } => {
            let mut d = Map::new();
            d.insert("id".into(), Value::String(id.clone()));
            if let Some(r) = reference {
                d.insert("ref".into(), Value::String(r.clone()));
            }
            ("document_fetch", d)
        }
        Target::TodayReadings => {
            let mut d = Map::new();
            d.insert("date".into(), Value::String("today".into()));
            ("liturgical_readings", d)
        }
    };
    let artifacts = runner
        .run(skill, vec![Part::data(Value::Object(data))], caller)
        .await
        .map_err(|e| {
            if e.is_invalid_params() {
                ErrorData::invalid_params(e.to_string(), None)
            } else {
                ErrorData::internal_error(e.to_string(), None)
            }
        })?;
    let meta = content::structured(&artifacts);
    let text = meta
        .get("text")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    if matches!(target, Target::Document { .. }) && text.trim() == "Document not found." {
        return Err(ErrorData::resource_not_found(
            format!("Document not found: {uri}"),
            Some(json!({"uri": uri})),
        ));
    }
    let mut data = meta.clone();
    data.remove("text");
    let mut out = vec![ResourceContents::text(text, uri)];
    if !data.is_empty() {
        out.push(
            ResourceContents::text(
                serde_json::to_string(&Value::Object(data)).unwrap_or_default(),
                uri,
            )
            .with_mime_type("application/json"),
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(parse(TODAY_READINGS).unwrap(), Target::TodayReadings);
        assert_eq!(
            parse("ecclesia://document/lumen%20gentium?ref=John+6%3A51").unwrap(),
            Target::Document {
                id: "lumen gentium".into(),
                reference: Some("John 6:51".into())
            }
        );
        assert!(parse("ecclesia://document/").is_err());
        assert!(parse("file:///etc/passwd").is_err());
        assert!(parse("ecclesia://document/%zz").is_err());
    }
}

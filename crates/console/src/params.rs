//! Query-string and form parameters, bounded: a value over its cap is a 400
//! page that says so, never a truncated surprise or a panic.

use crate::error::ConsoleError;
use axum::body::Body;
use axum::http::Uri;
use futures::StreamExt;
use std::time::Duration;

/// The form body, at most [`MAX_FORM_BYTES`]. A larger body is read on (up to
/// [`MAX_DRAIN_BYTES`], discarded) before the error, so the client is not cut
/// off mid-send; memory stays bounded by [`MAX_FORM_BYTES`].
pub async fn read_form(body: Body) -> Result<Vec<u8>, ConsoleError> {
    let too_large = || {
        ConsoleError::BadInput(format!(
            "the form is too large (at most {MAX_FORM_BYTES} bytes)"
        ))
    };
    let read = async {
        let mut kept = Vec::new();
        let mut seen = 0usize;
        let mut stream = body.into_data_stream();
        while let Some(chunk) = stream.next().await {
            let chunk =
                chunk.map_err(|_| ConsoleError::BadInput("the form could not be read".into()))?;
            seen = seen.saturating_add(chunk.len());
            if seen <= MAX_FORM_BYTES {
                kept.extend_from_slice(&chunk);
            } else if seen > MAX_DRAIN_BYTES {
                return Err(too_large());
            }
        }
        if seen > MAX_FORM_BYTES {
            return Err(too_large());
        }
        Ok(kept)
    };
    tokio::time::timeout(FORM_TIMEOUT, read)
        .await
        .map_err(|_| ConsoleError::BadInput("the form was not received in time".into()))?
}

/// Largest form body the console reads.
pub const MAX_FORM_BYTES: usize = 16 * 1024;
/// Most bytes of an oversized form read and thrown away before the 400 page,
/// so that a browser still sending gets the page rather than a reset connection.
const MAX_DRAIN_BYTES: usize = 1024 * 1024;
/// How long the console waits for a form body.
const FORM_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest free-text input (question, search, look-up name), in characters.
pub const MAX_QUERY_CHARS: usize = 500;
/// Longest short input (ids, calendar names, dates), in characters.
pub const MAX_SHORT_CHARS: usize = 100;

/// Decoded parameters, in order.
#[derive(Debug, Clone, Default)]
pub struct Params(pub Vec<(String, String)>);

impl Params {
    /// The query string of `uri`; malformed is a 400.
    pub fn from_uri(uri: &Uri) -> Result<Self, ConsoleError> {
        if uri.query().is_some_and(|q| q.len() > MAX_FORM_BYTES) {
            return Err(ConsoleError::BadInput("the address is too long".into()));
        }
        axum::extract::Query::<Vec<(String, String)>>::try_from_uri(uri)
            .map(|q| Params(q.0))
            .map_err(|_| ConsoleError::BadInput("the address has malformed parameters".into()))
    }

    /// A form body (`application/x-www-form-urlencoded`).
    pub fn from_form(body: &[u8]) -> Result<Self, ConsoleError> {
        if body.len() > MAX_FORM_BYTES {
            return Err(ConsoleError::BadInput("the form is too large".into()));
        }
        let s = std::str::from_utf8(body)
            .map_err(|_| ConsoleError::BadInput("the form is not UTF-8".into()))?;
        let uri: Uri = format!("/?{s}")
            .parse()
            .map_err(|_| ConsoleError::BadInput("the form is malformed".into()))?;
        Params::from_uri(&uri)
    }

    /// The trimmed value of `key` (the last one given), or `None` when blank;
    /// longer than `max` characters is a 400 naming the field.
    pub fn get(&self, key: &str, max: usize) -> Result<Option<String>, ConsoleError> {
        let Some((_, v)) = self.0.iter().rev().find(|(k, _)| k == key) else {
            return Ok(None);
        };
        let v = v.trim();
        let n = v.chars().count();
        if n > max {
            return Err(ConsoleError::BadInput(format!(
                "the field “{key}” is too long ({n} characters; at most {max})"
            )));
        }
        if v.chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r')
        {
            return Err(ConsoleError::BadInput(format!(
                "the field “{key}” holds control characters"
            )));
        }
        Ok((!v.is_empty()).then(|| v.to_string()))
    }

    /// A short value (ids, names of lists).
    pub fn short(&self, key: &str) -> Result<Option<String>, ConsoleError> {
        self.get(key, MAX_SHORT_CHARS)
    }

    /// An integer in `lo..=hi`, or a 400 naming the field.
    pub fn int(&self, key: &str, lo: i64, hi: i64) -> Result<Option<i64>, ConsoleError> {
        let Some(v) = self.short(key)? else {
            return Ok(None);
        };
        match v.parse::<i64>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(Some(n)),
            _ => Err(ConsoleError::BadInput(format!(
                "the field “{key}” must be a whole number from {lo} to {hi}"
            ))),
        }
    }

    /// A choice among `allowed`, or a 400 listing them.
    pub fn choice(&self, key: &str, allowed: &[&str]) -> Result<Option<String>, ConsoleError> {
        let Some(v) = self.short(key)? else {
            return Ok(None);
        };
        if allowed.contains(&v.as_str()) {
            Ok(Some(v))
        } else {
            Err(ConsoleError::BadInput(format!(
                "the field “{key}” must be one of: {}",
                allowed.join(", ")
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded() {
        let uri: Uri = "/x?q=a%20b&n=12&q=last&big=99999".parse().unwrap();
        let p = Params::from_uri(&uri).unwrap();
        assert_eq!(p.get("q", 10).unwrap().as_deref(), Some("last"));
        assert_eq!(p.int("n", 1, 12).unwrap(), Some(12));
        assert!(p.int("big", 1, 12).is_err());
        assert!(p.get("q", 2).is_err());
        assert!(p.choice("q", &["a"]).is_err());
        let p = Params::from_form(b"q=%00").unwrap();
        assert!(p.get("q", 10).is_err());
        assert!(Params::from_form(&[0xff, 0xfe]).is_err());
    }
}

//! The agent card served: `/.well-known/agent-card.json` in the caller's version (with
//! `ETag`, and signed in 1.0 when a key is configured) and the signing keys. The card itself
//! is the core's ([`crate::core::card`]).

pub use crate::core::card::agent_card;
use crate::state::AppState;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;

/// `card` (1.0's shape) with the operator's signature, when a key is configured. A card that
/// cannot be signed is served unsigned, and the failure logged: clients that require a
/// signature then refuse it, which is the safe side.
fn signed(state: &AppState, card: serde_json::Value) -> serde_json::Value {
    let Some(signer) = &state.config.card_signer else {
        return card;
    };
    match signer.signed(card.clone()) {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(error = %e, "the agent card could not be signed");
            card
        }
    }
}

/// The public key of the card signature, as a JWK Set (`jku`); 404 without a key.
pub(crate) async fn jwks_handler(State(state): State<AppState>) -> axum::response::Response {
    match &state.config.card_signer {
        Some(signer) => (
            [
                (header::CONTENT_TYPE, "application/jwk-set+json"),
                (header::CACHE_CONTROL, "public, max-age=300"),
            ],
            signer.jwks().to_string(),
        )
            .into_response(),
        None => (
            axum::http::StatusCode::NOT_FOUND,
            "this server does not sign its agent card (no [server] card_signing_key)",
        )
            .into_response(),
    }
}

/// Add `extra`'s members that `base` lacks, recursing into objects and into the objects of
/// lists at the same positions (as the official Python server builds its card).
fn merge_missing(base: &mut serde_json::Value, extra: serde_json::Value) {
    use serde_json::Value;
    match (base, extra) {
        (Value::Object(b), Value::Object(e)) => {
            for (k, v) in e {
                match b.get_mut(&k) {
                    None => {
                        b.insert(k, v);
                    }
                    Some(existing) => merge_missing(existing, v),
                }
            }
        }
        (Value::Array(b), Value::Array(e)) => {
            for (x, y) in b.iter_mut().zip(e) {
                if x.is_object() && y.is_object() {
                    merge_missing(x, y);
                }
            }
        }
        _ => {}
    }
}

/// The card in the shape the caller's `A2A-Version` asks for: 1.0's (with
/// `supportedInterfaces`) for `1.0`; 0.3's for `0.3` (or a version this server does not
/// speak); without the header, both in one document (1.0's members, then 0.3's where 1.0
/// has none), as the official SDK servers serve it, so that a client of either line that
/// sends no header finds its fields.
pub(crate) async fn card_handler(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
) -> axum::response::Response {
    let asked = headers
        .get(ecclesia_a2a::v1::VERSION_HEADER)
        .and_then(|v| v.to_str().ok());
    let card = state.card.load();
    let v03 = || serde_json::to_value(card.as_ref()).unwrap_or_default();
    let v1 = || {
        signed(
            &state,
            serde_json::to_value(crate::v1::card(&card)).unwrap_or_default(),
        )
    };
    let body = match (
        asked.map(str::trim),
        ecclesia_a2a::v1::parse_version_header(asked),
    ) {
        (None | Some(""), _) => {
            let mut merged = v1();
            merge_missing(&mut merged, v03());
            merged
        }
        (_, Ok(ecclesia_a2a::v1::ProtocolVersion::V1_0)) => v1(),
        _ => v03(),
    };
    let text = body.to_string();
    // A strong validator: the digest of the exact bytes served in this shape.
    let etag = {
        use sha2::Digest;
        format!(
            "\"{}\"",
            &hex::encode(sha2::Sha256::digest(text.as_bytes()))[..32]
        )
    };
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let common = [
        // Short: the skills change when a new store generation is published.
        (header::CACHE_CONTROL, "public, max-age=60".to_string()),
        (header::VARY, "A2A-Version".to_string()),
        (header::ETAG, etag),
        (
            header::LAST_MODIFIED,
            state.card_since.load().as_ref().clone(),
        ),
    ];
    if fresh {
        return (axum::http::StatusCode::NOT_MODIFIED, common).into_response();
    }
    (
        common,
        [(header::CONTENT_TYPE, "application/json".to_string())],
        text,
    )
        .into_response()
}

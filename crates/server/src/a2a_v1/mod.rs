//! A2A 1.0: over JSON-RPC on the shared endpoint ([`jsonrpc`]) and over HTTP+JSON under
//! `/api/v1/rest` ([`rest`]); the errors of both ([`errors`]), and the 1.0 card.

pub(crate) mod errors;
pub(crate) mod jsonrpc;
pub(crate) mod rest;

use ecclesia_a2a::v1::{A2aError, ErrorKind};
use ecclesia_a2a::StreamEvent;
use serde_json::Value;

/// A core stream event as a 1.0 `StreamResponse` object.
pub(crate) fn stream_response(ev: &StreamEvent) -> Result<Value, A2aError> {
    match ecclesia_a2a::v1::StreamResponse::try_from(ev.clone()) {
        Ok(r) => serde_json::to_value(r)
            .map_err(|e| A2aError::new(ErrorKind::Internal).with_message(e.to_string())),
        Err(e) => {
            tracing::error!("a stream event has no A2A 1.0 form: {e}");
            Err(A2aError::new(ErrorKind::Internal))
        }
    }
}

/// The 1.0 agent card: the 0.3 card's content with the interfaces this server speaks.
pub(crate) fn card(card: &ecclesia_a2a::AgentCard) -> ecclesia_a2a::v1::AgentCard {
    use ecclesia_a2a::v1::{bindings, AgentInterface};
    let base = card.url.trim_end_matches("/api/v1/a2a");
    ecclesia_a2a::v1::AgentCard::from_v03(
        card,
        vec![
            AgentInterface::new(card.url.clone(), bindings::JSONRPC, "1.0"),
            AgentInterface::new(card.url.clone(), bindings::JSONRPC, "0.3"),
            AgentInterface::new(
                format!("{base}{}", crate::a2a_v1::rest::PREFIX),
                bindings::HTTP_JSON,
                "1.0",
            ),
        ],
    )
}

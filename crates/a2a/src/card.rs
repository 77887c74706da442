//! The agent card: what `/.well-known/agent-card.json` serves.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Self-description of an A2A agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentCard {
    /// Always `"0.3.0"` here.
    pub protocol_version: String,
    /// Agent name.
    pub name: String,
    /// What the agent does.
    pub description: String,
    /// Absolute URL of the JSON-RPC endpoint.
    pub url: String,
    /// Transport of `url`: `"JSONRPC"`.
    pub preferred_transport: String,
    /// Other endpoints.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_interfaces: Vec<AgentInterface>,
    /// Icon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon_url: Option<String>,
    /// Who runs the agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<AgentProvider>,
    /// The agent's own version.
    pub version: String,
    /// Documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documentation_url: Option<String>,
    /// Optional features.
    pub capabilities: AgentCapabilities,
    /// Authentication schemes by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub security_schemes: BTreeMap<String, SecurityScheme>,
    /// Required schemes (an OR of ANDs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub security: Vec<BTreeMap<String, Vec<String>>>,
    /// Media types accepted by default.
    pub default_input_modes: Vec<String>,
    /// Media types produced by default.
    pub default_output_modes: Vec<String>,
    /// The skills.
    pub skills: Vec<AgentSkill>,
    /// Whether an authenticated extended card exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_authenticated_extended_card: Option<bool>,
}

/// Another endpoint of the agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentInterface {
    /// URL.
    pub url: String,
    /// `JSONRPC`, `GRPC` or `HTTP+JSON`.
    pub transport: String,
}

/// The organisation running the agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentProvider {
    /// Organisation name.
    pub organization: String,
    /// Its URL.
    pub url: String,
}

/// Optional protocol features.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentCapabilities {
    /// `message/stream` and `tasks/resubscribe`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streaming: Option<bool>,
    /// Push notifications.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_notifications: Option<bool>,
    /// Status history kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_transition_history: Option<bool>,
    /// Extensions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<AgentExtension>,
}

/// A protocol extension.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentExtension {
    /// Extension URI.
    pub uri: String,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether clients must understand it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// Parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Map<String, Value>>,
}

/// One capability of the agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentSkill {
    /// Id, as given in `metadata.skillId`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// Keywords.
    pub tags: Vec<String>,
    /// Example requests.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<String>,
    /// Accepted media types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input_modes: Vec<String>,
    /// Produced media types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub output_modes: Vec<String>,
}

/// An authentication scheme (OpenAPI style), keyed on `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum SecurityScheme {
    /// HTTP authentication (`bearer`).
    Http {
        /// `bearer`.
        scheme: String,
        /// Token format hint.
        #[serde(
            default,
            rename = "bearerFormat",
            skip_serializing_if = "Option::is_none"
        )]
        bearer_format: Option<String>,
        /// Description.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
    /// An API key in a header, query or cookie.
    ApiKey {
        /// `header`, `query` or `cookie`.
        #[serde(rename = "in")]
        location: String,
        /// The parameter name.
        name: String,
        /// Description.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn card_roundtrip() {
        let v = json!({
            "protocolVersion": "0.3.0", "name": "x", "description": "d", "url": "http://h/api/v1/a2a",
            "preferredTransport": "JSONRPC", "version": "0.1.0",
            "provider": {"organization": "o", "url": "http://o"},
            "capabilities": {"streaming": true, "pushNotifications": false, "stateTransitionHistory": true},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "API key"}},
            "security": [{"bearer": []}],
            "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
            "skills": [{"id": "s", "name": "S", "description": "d", "tags": ["t"], "examples": ["e"],
                        "inputModes": ["text/plain"], "outputModes": ["text/plain"]}]
        });
        let card: AgentCard = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(serde_json::to_value(&card).unwrap(), v);
    }
}

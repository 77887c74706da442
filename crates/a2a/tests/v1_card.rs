//! The 1.0 card made from the 0.3 card.

use ecclesia_a2a::v1::{bindings, AgentCard, AgentInterface};
use serde_json::json;

fn v03_card() -> ecclesia_a2a::AgentCard {
    serde_json::from_value(json!({
        "protocolVersion": "0.3.0", "name": "Ecclesia", "description": "d",
        "url": "https://h/api/v1/a2a", "preferredTransport": "JSONRPC",
        "additionalInterfaces": [{"url": "https://h/a2a/rest", "transport": "HTTP+JSON"}],
        "version": "0.1.0",
        "provider": {"organization": "o", "url": "https://o"},
        "documentationUrl": "https://h/docs",
        "capabilities": {"streaming": true, "pushNotifications": false, "stateTransitionHistory": true,
                         "extensions": [{"uri": "https://ext", "required": false}]},
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "API key"},
                            "key": {"type": "apiKey", "in": "header", "name": "X-Key"}},
        "security": [{"bearer": []}, {"key": ["read"]}],
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
        "skills": [{"id": "pope_lookup", "name": "Popes", "description": "d", "tags": ["t"],
                    "examples": ["e"], "inputModes": ["text/plain"], "outputModes": ["application/json"]}],
        "supportsAuthenticatedExtendedCard": true
    }))
    .expect("0.3 card")
}

#[test]
fn card_from_v03_with_interfaces() {
    let old = v03_card();
    let interfaces = vec![
        AgentInterface::new(&old.url, bindings::JSONRPC, "1.0"),
        AgentInterface::new(&old.url, bindings::JSONRPC, "0.3"),
        AgentInterface::new("https://h/a2a/rest", bindings::HTTP_JSON, "1.0"),
    ];
    let card = AgentCard::from_v03(&old, interfaces);
    let v = serde_json::to_value(&card).expect("encodes");
    assert_eq!(
        v,
        json!({
            "name": "Ecclesia", "description": "d",
            "supportedInterfaces": [
                {"url": "https://h/api/v1/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                {"url": "https://h/api/v1/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
                {"url": "https://h/a2a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
            ],
            "provider": {"organization": "o", "url": "https://o"},
            "version": "0.1.0",
            "documentationUrl": "https://h/docs",
            "capabilities": {"streaming": true, "pushNotifications": false, "extendedAgentCard": true,
                             "extensions": [{"uri": "https://ext", "required": false}]},
            "securitySchemes": {
                "bearer": {"httpAuthSecurityScheme": {"scheme": "bearer", "bearerFormat": "API key"}},
                "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}}
            },
            "securityRequirements": [{"schemes": {"bearer": {}}}, {"schemes": {"key": {"list": ["read"]}}}],
            "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
            "skills": [{"id": "pope_lookup", "name": "Popes", "description": "d", "tags": ["t"],
                        "examples": ["e"], "inputModes": ["text/plain"], "outputModes": ["application/json"]}]
        })
    );
    // And it reads back as a 1.0 card.
    let back: AgentCard = serde_json::from_value(v).expect("decodes");
    assert_eq!(back, card);
}

#[test]
fn card_from_v03_derives_interfaces() {
    let card = AgentCard::from_v03(&v03_card(), Vec::new());
    assert_eq!(
        card.supported_interfaces,
        vec![
            AgentInterface::new("https://h/api/v1/a2a", "JSONRPC", "0.3"),
            AgentInterface::new("https://h/a2a/rest", "HTTP+JSON", "0.3"),
        ]
    );
}

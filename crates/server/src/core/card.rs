//! The agent card: what this agent declares (its skills, modes and security), built from the
//! registry and the configuration; rebuilt when the registry is swapped. The A2A front-ends
//! serve it in their version.

use ecclesia_a2a::{AgentCapabilities, AgentCard, AgentProvider, SecurityScheme, PROTOCOL_VERSION};
use ecclesia_core::SkillRegistry;
use std::collections::BTreeMap;

/// The card for `registry` served at `public_url`; `auth` adds the bearer scheme
/// (and requires it unless `anonymous`).
pub fn agent_card(
    registry: &SkillRegistry,
    public_url: &str,
    version: &str,
    anonymous: bool,
) -> AgentCard {
    let base = public_url.trim_end_matches('/');
    let mut schemes = BTreeMap::new();
    schemes.insert(
        "bearer".to_string(),
        SecurityScheme::Http {
            scheme: "bearer".into(),
            bearer_format: Some("API key".into()),
            description: Some("An API key issued by the operator (`ecclesia keys create`).".into()),
        },
    );
    let mut security = Vec::new();
    if !anonymous {
        let mut req = BTreeMap::new();
        req.insert("bearer".to_string(), Vec::new());
        security.push(req);
    }
    AgentCard {
        protocol_version: PROTOCOL_VERSION.into(),
        name: "Ecclesia".into(),
        description: "A Catholic knowledge agent: cited answers about Catholic teaching, search and full text of Church documents, \
                      the Mass readings and the Roman Martyrology for any date, and look-ups of saints, popes, bishops and dioceses."
            .into(),
        url: format!("{base}/api/v1/a2a"),
        preferred_transport: "JSONRPC".into(),
        additional_interfaces: Vec::new(),
        icon_url: None,
        provider: Some(AgentProvider {
            organization: "Ecclesia".into(),
            url: base.to_string(),
        }),
        version: version.into(),
        documentation_url: Some(format!("{base}/.well-known/agent-card.json")),
        capabilities: AgentCapabilities {
            streaming: Some(true),
            push_notifications: Some(false),
            state_transition_history: Some(true),
            extensions: Vec::new(),
        },
        security_schemes: schemes,
        security,
        default_input_modes: vec!["text/plain".into(), "application/json".into()],
        default_output_modes: vec!["application/json".into(), "text/plain".into()],
        skills: registry.iter().map(|s| s.card()).collect(),
        supports_authenticated_extended_card: Some(false),
    }
}

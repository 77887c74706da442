//! The 1.0 card from the 0.3 card: one card source, served in either shape.

use super::card::{
    AgentCapabilities, AgentCard, AgentExtension, AgentInterface, AgentProvider, AgentSkill,
};
use super::security::{
    ApiKeySecurityScheme, HttpAuthSecurityScheme, SecurityRequirement, SecurityScheme, StringList,
};
use super::version::ProtocolVersion;
use crate as v03;

impl AgentCard {
    /// The 1.0 card for a 0.3 card. `supported_interfaces` lists the
    /// endpoints, preferred first (for this server: JSON-RPC 1.0 and JSON-RPC
    /// 0.3 at the same URL, then HTTP+JSON 1.0); when it is empty, the 0.3
    /// `url` / `preferredTransport` / `additionalInterfaces` become interfaces
    /// with `protocolVersion` "0.3".
    ///
    /// `supportsAuthenticatedExtendedCard` becomes `capabilities.extendedAgentCard`;
    /// `security` becomes `securityRequirements`; schemes are wrapped as 1.0
    /// oneofs (0.3's `in` is 1.0's `location`); `stateTransitionHistory` has
    /// no 1.0 field and is dropped.
    pub fn from_v03(card: &v03::AgentCard, supported_interfaces: Vec<AgentInterface>) -> Self {
        let supported_interfaces = if supported_interfaces.is_empty() {
            let old = ProtocolVersion::V0_3.as_str();
            std::iter::once(AgentInterface::new(
                &card.url,
                &card.preferred_transport,
                old,
            ))
            .chain(
                card.additional_interfaces
                    .iter()
                    .map(|i| AgentInterface::new(&i.url, &i.transport, old)),
            )
            .collect()
        } else {
            supported_interfaces
        };
        AgentCard {
            name: card.name.clone(),
            description: card.description.clone(),
            supported_interfaces,
            provider: card.provider.as_ref().map(|p| AgentProvider {
                url: p.url.clone(),
                organization: p.organization.clone(),
            }),
            version: card.version.clone(),
            documentation_url: card.documentation_url.clone(),
            capabilities: AgentCapabilities {
                streaming: card.capabilities.streaming,
                push_notifications: card.capabilities.push_notifications,
                extensions: card
                    .capabilities
                    .extensions
                    .iter()
                    .map(|e| AgentExtension {
                        uri: e.uri.clone(),
                        description: e.description.clone(),
                        required: e.required,
                        params: e.params.clone(),
                    })
                    .collect(),
                extended_agent_card: card.supports_authenticated_extended_card,
            },
            security_schemes: card
                .security_schemes
                .iter()
                .map(|(name, s)| (name.clone(), scheme(s)))
                .collect(),
            security_requirements: card.security.iter().map(requirement).collect(),
            default_input_modes: card.default_input_modes.clone(),
            default_output_modes: card.default_output_modes.clone(),
            skills: card
                .skills
                .iter()
                .map(|s| AgentSkill {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    description: s.description.clone(),
                    tags: s.tags.clone(),
                    examples: s.examples.clone(),
                    input_modes: s.input_modes.clone(),
                    output_modes: s.output_modes.clone(),
                    security_requirements: Vec::new(),
                })
                .collect(),
            signatures: Vec::new(),
            icon_url: card.icon_url.clone(),
        }
    }
}

fn scheme(s: &v03::SecurityScheme) -> SecurityScheme {
    match s {
        v03::SecurityScheme::Http {
            scheme,
            bearer_format,
            description,
        } => SecurityScheme::HttpAuthSecurityScheme(HttpAuthSecurityScheme {
            description: description.clone(),
            scheme: scheme.clone(),
            bearer_format: bearer_format.clone(),
        }),
        v03::SecurityScheme::ApiKey {
            location,
            name,
            description,
        } => SecurityScheme::ApiKeySecurityScheme(ApiKeySecurityScheme {
            description: description.clone(),
            location: location.clone(),
            name: name.clone(),
        }),
    }
}

fn requirement(r: &std::collections::BTreeMap<String, Vec<String>>) -> SecurityRequirement {
    SecurityRequirement {
        schemes: r
            .iter()
            .map(|(name, scopes)| {
                (
                    name.clone(),
                    StringList {
                        list: scopes.clone(),
                    },
                )
            })
            .collect(),
    }
}

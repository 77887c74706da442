//! Security schemes and requirements of the 1.0 agent card
//! (`SecurityScheme` is a oneof wrapper in 1.0, not an OpenAPI `type` tag).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One way to authenticate: `{"httpAuthSecurityScheme": {…}}`, …
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SecurityScheme {
    /// An API key in a header, query parameter or cookie.
    ApiKeySecurityScheme(ApiKeySecurityScheme),
    /// HTTP authentication (`Bearer`, `Basic`, …).
    HttpAuthSecurityScheme(HttpAuthSecurityScheme),
    /// OAuth 2.0.
    Oauth2SecurityScheme(OAuth2SecurityScheme),
    /// OpenID Connect.
    OpenIdConnectSecurityScheme(OpenIdConnectSecurityScheme),
    /// Mutual TLS.
    MtlsSecurityScheme(MutualTlsSecurityScheme),
}

/// `APIKeySecurityScheme`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeySecurityScheme {
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `query`, `header` or `cookie` (0.3's `in`).
    pub location: String,
    /// The parameter's name.
    pub name: String,
}

/// `HTTPAuthSecurityScheme`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpAuthSecurityScheme {
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The scheme name (`Bearer`).
    pub scheme: String,
    /// Token format hint (`JWT`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bearer_format: Option<String>,
}

/// `OAuth2SecurityScheme`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OAuth2SecurityScheme {
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The flow.
    pub flows: OAuthFlows,
    /// RFC 8414 metadata URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oauth2_metadata_url: Option<String>,
}

/// `OpenIdConnectSecurityScheme`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenIdConnectSecurityScheme {
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The discovery URL.
    pub open_id_connect_url: String,
}

/// `MutualTlsSecurityScheme`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MutualTlsSecurityScheme {
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// `OAuthFlows`: one flow (a oneof in 1.0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OAuthFlows {
    /// Authorization code (with `pkceRequired`).
    AuthorizationCode(OAuthFlow),
    /// Client credentials.
    ClientCredentials(OAuthFlow),
    /// Deprecated in 1.0.
    Implicit(OAuthFlow),
    /// Deprecated in 1.0.
    Password(OAuthFlow),
    /// Device code (RFC 8628).
    DeviceCode(OAuthFlow),
}

/// The fields of every OAuth flow; each flow uses the ones `a2a.proto` gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OAuthFlow {
    /// Authorization code and implicit flows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization_url: Option<String>,
    /// Device code flow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_authorization_url: Option<String>,
    /// Every flow but implicit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_url: Option<String>,
    /// Refresh URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_url: Option<String>,
    /// Scope name → description.
    #[serde(default)]
    pub scopes: BTreeMap<String, String>,
    /// Authorization code flow: PKCE is required.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pkce_required: Option<bool>,
}

/// The schemes a request must satisfy together, each with its scopes:
/// `{"schemes": {"bearer": {"list": []}}}`. A card's list of requirements is an OR.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecurityRequirement {
    /// Scheme name → scopes.
    #[serde(default)]
    pub schemes: BTreeMap<String, StringList>,
}

/// `StringList`: `{"list": [...]}` (omitted when empty, as ProtoJSON does).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StringList {
    /// The strings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub list: Vec<String>,
}

//! API keys: a random token shown once at creation, of which a store keeps only the
//! SHA-256, and what a key store must do ([`KeyStore`]).

use crate::tasks::StoreError;
use serde::Serialize;
use sha2::{Digest, Sha256};

/// A stored key (without its token).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ApiKey {
    /// Key id (`key_…`), used as the owner of the caller's tasks.
    pub id: String,
    /// Operator's label.
    pub name: String,
    /// Plan name.
    pub plan: String,
    /// RFC 3339 creation time.
    pub created_at: String,
    /// RFC 3339 revocation time.
    pub revoked_at: Option<String>,
}

/// SHA-256 of a token, hex.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Issuing, listing, revoking and checking API keys.
pub trait KeyStore: Send + Sync {
    /// Create a key; returns it and its token (the only time the token exists in clear).
    fn create_key(&self, name: &str, plan: &str) -> Result<(ApiKey, String), StoreError>;
    /// Every key, revoked ones included.
    fn list_keys(&self) -> Result<Vec<ApiKey>, StoreError>;
    /// Revoke by id or name; returns how many keys were revoked.
    fn revoke_key(&self, id_or_name: &str) -> Result<usize, StoreError>;
    /// The active key with this token.
    fn verify(&self, token: &str) -> Result<Option<ApiKey>, StoreError>;
    /// Whether this token is a key that was revoked (still refused when anonymous access is
    /// on, where a token that matches no key is served as anonymous).
    fn is_revoked(&self, token: &str) -> Result<bool, StoreError>;
    /// Whether any active key exists.
    fn has_active_keys(&self) -> Result<bool, StoreError>;
}

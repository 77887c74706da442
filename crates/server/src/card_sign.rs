//! Agent card signatures (A2A 1.0 §8.4): a detached JWS (ES256) over the RFC 8785
//! canonical form of the card, with `signatures` left out and empty values removed.
//!
//! The operator's key is a P-256 private key in PKCS#8 PEM (`openssl genpkey -algorithm EC
//! -pkeyopt ec_paramgen_curve:P-256`). Signing is deterministic (RFC 6979), so the same
//! card always carries the same signature and its `ETag` stays stable. The public key is
//! served as a JWK Set at [`JWKS_PATH`], named by the protected header's `jku`.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use p256::ecdsa::signature::Signer as _;
use p256::ecdsa::{Signature, SigningKey};
use p256::pkcs8::DecodePrivateKey as _;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

/// Where the public key is served (`jku`).
pub const JWKS_PATH: &str = "/.well-known/jwks.json";

/// Deepest nesting a card may have to be canonicalised (as the official SDK bounds it).
const MAX_DEPTH: usize = 64;

/// Why a key or a card could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SignError {
    /// The PEM is not a P-256 PKCS#8 private key.
    #[error("the card signing key is not a P-256 private key in PKCS#8 PEM ({0}); make one with `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out card-key.pem`")]
    Key(String),
    /// The card is nested deeper than [`MAX_DEPTH`] or cannot be canonicalised.
    #[error("the card cannot be canonicalised: {0}")]
    Canonical(String),
}

/// Signs cards with the operator's key.
#[derive(Clone)]
pub struct CardSigner {
    key: SigningKey,
    kid: String,
    jku: Option<String>,
}

impl std::fmt::Debug for CardSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key itself.
        f.debug_struct("CardSigner")
            .field("kid", &self.kid)
            .field("jku", &self.jku)
            .finish_non_exhaustive()
    }
}

impl CardSigner {
    /// A signer from a PKCS#8 PEM key. `kid` defaults to the key's RFC 7638 thumbprint.
    pub fn from_pem(pem: &str, kid: Option<String>) -> Result<Self, SignError> {
        let key = SigningKey::from_pkcs8_pem(pem).map_err(|e| SignError::Key(e.to_string()))?;
        let mut signer = CardSigner {
            key,
            kid: String::new(),
            jku: None,
        };
        signer.kid = kid
            .filter(|k| !k.trim().is_empty())
            .unwrap_or_else(|| signer.thumbprint());
        Ok(signer)
    }

    /// Name the JWK Set URL (`jku`) in the protected header.
    pub fn with_jku(mut self, jku: impl Into<String>) -> Self {
        self.jku = Some(jku.into());
        self
    }

    /// The key id in the protected header.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The public key as a JWK (with `kid`, `alg`, `use`).
    pub fn public_jwk(&self) -> Value {
        let point = self.key.verifying_key().to_encoded_point(false);
        let coord =
            |c: Option<&p256::FieldBytes>| c.map(|b| URL_SAFE_NO_PAD.encode(b)).unwrap_or_default();
        json!({
            "kty": "EC",
            "crv": "P-256",
            "x": coord(point.x()),
            "y": coord(point.y()),
            "kid": self.kid,
            "alg": "ES256",
            "use": "sig",
        })
    }

    /// The JWK Set served at [`JWKS_PATH`].
    pub fn jwks(&self) -> Value {
        json!({ "keys": [self.public_jwk()] })
    }

    /// RFC 7638 thumbprint of the public key (base64url SHA-256 of the required members).
    fn thumbprint(&self) -> String {
        let jwk = self.public_jwk();
        let required = format!(
            r#"{{"crv":"P-256","kty":"EC","x":"{}","y":"{}"}}"#,
            jwk["x"].as_str().unwrap_or_default(),
            jwk["y"].as_str().unwrap_or_default()
        );
        URL_SAFE_NO_PAD.encode(Sha256::digest(required.as_bytes()))
    }

    /// The `AgentCardSignature` (`protected`, `signature`) for `card` (a 1.0 card as JSON).
    pub fn sign(&self, card: &Value) -> Result<Value, SignError> {
        let payload = canonical_payload(card)?;
        let mut header = Map::new();
        header.insert("alg".into(), "ES256".into());
        header.insert("typ".into(), "JOSE".into());
        header.insert("kid".into(), self.kid.clone().into());
        if let Some(jku) = &self.jku {
            header.insert("jku".into(), jku.clone().into());
        }
        let protected = URL_SAFE_NO_PAD.encode(Value::Object(header).to_string());
        let input = format!("{protected}.{}", URL_SAFE_NO_PAD.encode(payload.as_bytes()));
        let sig: Signature = self.key.sign(input.as_bytes());
        Ok(json!({
            "protected": protected,
            "signature": URL_SAFE_NO_PAD.encode(sig.to_bytes()),
        }))
    }

    /// `card` with its signature appended to `signatures`.
    pub fn signed(&self, mut card: Value) -> Result<Value, SignError> {
        let sig = self.sign(&card)?;
        if let Value::Object(m) = &mut card {
            match m.get_mut("signatures") {
                Some(Value::Array(list)) => list.push(sig),
                _ => {
                    m.insert("signatures".into(), Value::Array(vec![sig]));
                }
            }
        }
        Ok(card)
    }
}

/// The bytes that are signed: `card` without `signatures`, with empty strings, lists and
/// objects removed (the spec's "default values", as the official SDK removes them), in the
/// RFC 8785 canonical form.
pub fn canonical_payload(card: &Value) -> Result<String, SignError> {
    let mut card = card.clone();
    if let Value::Object(m) = &mut card {
        m.remove("signatures");
    }
    let cleaned = without_empty(card, 1)?.unwrap_or(Value::Object(Map::new()));
    serde_json_canonicalizer::to_string(&cleaned).map_err(|e| SignError::Canonical(e.to_string()))
}

/// `v` with every empty string, list and object (and `null`) removed, recursively; `None`
/// when `v` itself is empty.
fn without_empty(v: Value, depth: usize) -> Result<Option<Value>, SignError> {
    if depth > MAX_DEPTH && (v.is_object() || v.is_array()) {
        return Err(SignError::Canonical(format!(
            "nesting exceeds {MAX_DEPTH} levels"
        )));
    }
    Ok(match v {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::Array(items) => {
            let mut kept = Vec::with_capacity(items.len());
            for item in items {
                if let Some(x) = without_empty(item, depth + 1)? {
                    kept.push(x);
                }
            }
            (!kept.is_empty()).then_some(Value::Array(kept))
        }
        Value::Object(members) => {
            let mut kept = Map::new();
            for (k, item) in members {
                if let Some(x) = without_empty(item, depth + 1)? {
                    kept.insert(k, x);
                }
            }
            (!kept.is_empty()).then_some(Value::Object(kept))
        }
        other => Some(other),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::Verifier as _;
    use p256::ecdsa::VerifyingKey;

    /// A throwaway test key (generated for this test with openssl; signs nothing real).
    const PEM: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQglwXK3rSnGRE0PL4R
QTwlam+3mzMRoJ9fAyb0Pnni9oGhRANCAARCxX489tyOlPUDAnaGS7wiBdvH7Q5/
jL+pIy8MhaZeo8/EPsCqJaHPUuAJ0vPFfSjASDvt41x7G4FQgcq7CdAb
-----END PRIVATE KEY-----
";

    fn decode(s: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD.decode(s).unwrap()
    }

    #[test]
    fn canonical_form_sorts_keys_drops_empties_and_signatures() {
        let card = json!({
            "name": "Example Agent",
            "description": "",
            "signatures": [{"protected": "x", "signature": "y"}],
            "capabilities": {"streaming": false, "pushNotifications": false, "extensions": []},
            "skills": [{"id": "b", "tags": []}, {}],
            "version": "1.0",
        });
        assert_eq!(
            canonical_payload(&card).unwrap(),
            r#"{"capabilities":{"pushNotifications":false,"streaming":false},"name":"Example Agent","skills":[{"id":"b"}],"version":"1.0"}"#
        );
    }

    #[test]
    fn canonical_form_follows_rfc_8785_for_strings_and_numbers() {
        // RFC 8785 §3.2.2: non-ASCII stays literal, control characters are escaped, and
        // numbers take their shortest ECMAScript form.
        let v = json!({"é": "\u{20ac}\n\u{1}", "a": 1.0e21, "b": 10.0});
        assert_eq!(
            canonical_payload(&v).unwrap(),
            "{\"a\":1e+21,\"b\":10,\"é\":\"\u{20ac}\\n\\u0001\"}"
        );
    }

    #[test]
    fn signature_verifies_over_the_detached_payload() {
        let signer = CardSigner::from_pem(PEM, None)
            .unwrap()
            .with_jku("https://x/jwks");
        let card = json!({"name": "Ecclesia", "skills": [{"id": "pope_lookup"}]});
        let signed = signer.signed(card.clone()).unwrap();
        let sig = &signed["signatures"][0];
        let protected = sig["protected"].as_str().unwrap();
        let header: Value = serde_json::from_slice(&decode(protected)).unwrap();
        assert_eq!(header["alg"], "ES256");
        assert_eq!(header["typ"], "JOSE");
        assert_eq!(header["kid"], signer.kid());
        assert_eq!(header["jku"], "https://x/jwks");
        let input = format!(
            "{protected}.{}",
            URL_SAFE_NO_PAD.encode(canonical_payload(&signed).unwrap())
        );
        let raw = decode(sig["signature"].as_str().unwrap());
        // Verify with the key as published in the JWK Set, not the signer's own.
        let jwk = signer.public_jwk();
        let bare = json!({"kty": jwk["kty"], "crv": jwk["crv"], "x": jwk["x"], "y": jwk["y"]});
        let public = p256::PublicKey::from_jwk_str(&bare.to_string()).unwrap();
        let verifying = VerifyingKey::from(public);
        let signature = Signature::from_slice(&raw).unwrap();
        verifying.verify(input.as_bytes(), &signature).unwrap();
        // Deterministic: the same card, the same signature.
        assert_eq!(signer.sign(&card).unwrap(), signer.sign(&card).unwrap());
        // Any change to the card breaks it.
        let mut tampered = signed.clone();
        tampered["name"] = "Other".into();
        let input = format!(
            "{protected}.{}",
            URL_SAFE_NO_PAD.encode(canonical_payload(&tampered).unwrap())
        );
        assert!(verifying.verify(input.as_bytes(), &signature).is_err());
    }

    #[test]
    fn kid_defaults_to_the_rfc_7638_thumbprint_and_jwks_has_the_public_key_only() {
        let signer = CardSigner::from_pem(PEM, None).unwrap();
        assert_eq!(signer.kid().len(), 43);
        let jwks = signer.jwks();
        let key = &jwks["keys"][0];
        assert_eq!(key["kty"], "EC");
        assert_eq!(key["crv"], "P-256");
        assert!(key.get("d").is_none(), "the private part never leaves");
        let named = CardSigner::from_pem(PEM, Some("card-2026".into())).unwrap();
        assert_eq!(named.kid(), "card-2026");
    }

    #[test]
    fn bad_keys_and_deep_cards_are_clear_errors() {
        let e = CardSigner::from_pem("not a key", None).unwrap_err();
        assert!(e.to_string().contains("openssl genpkey"), "{e}");
        let mut deep = json!("x");
        for _ in 0..100 {
            deep = json!([deep]);
        }
        let signer = CardSigner::from_pem(PEM, None).unwrap();
        assert!(matches!(
            signer.sign(&json!({"x": deep})),
            Err(SignError::Canonical(_))
        ));
    }
}

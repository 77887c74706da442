//! Which protocol a JSON-RPC request speaks: from its method name and its
//! `A2A-Version` header (specification §3.6: an absent or empty header means 0.3).

use super::errors::{A2aError, ErrorKind};
use super::methods::Method;

/// The HTTP header (and query parameter) that carries the version.
pub const VERSION_HEADER: &str = "A2A-Version";

/// A protocol version this server serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProtocolVersion {
    /// A2A 0.3 (`message/send`, `kind` discriminators).
    V0_3,
    /// A2A 1.0 (`SendMessage`, ProtoJSON shapes).
    V1_0,
}

impl ProtocolVersion {
    /// `Major.Minor`, as in the header and in `AgentInterface.protocolVersion`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V0_3 => "0.3",
            ProtocolVersion::V1_0 => "1.0",
        }
    }

    /// Every served version, oldest first.
    pub const ALL: [ProtocolVersion; 2] = [ProtocolVersion::V0_3, ProtocolVersion::V1_0];
}

/// The version an `A2A-Version` header value asks for. Absent, empty or blank
/// is 0.3. `Major.Minor` is compared; a patch number (`1.0.1`) is ignored, as
/// the specification says. Anything else is `VersionNotSupported` (-32009).
pub fn parse_version_header(value: Option<&str>) -> Result<ProtocolVersion, A2aError> {
    let raw = value.map(str::trim).unwrap_or("");
    if raw.is_empty() {
        return Ok(ProtocolVersion::V0_3);
    }
    let mut it = raw.split('.');
    let major = it.next().and_then(|s| s.parse::<u32>().ok());
    let minor = it.next().and_then(|s| s.parse::<u32>().ok());
    let patch_ok = match it.next() {
        None => true,
        Some(p) => p.parse::<u32>().is_ok() && it.next().is_none(),
    };
    match (major, minor, patch_ok) {
        (Some(0), Some(3), true) => Ok(ProtocolVersion::V0_3),
        (Some(1), Some(0), true) => Ok(ProtocolVersion::V1_0),
        _ => Err(A2aError::new(ErrorKind::VersionNotSupported)
            .with_message(format!(
                "A2A-Version {raw:?} is not supported: this agent serves 0.3 and 1.0 \
                 (send `A2A-Version: 1.0`, or no header for 0.3)"
            ))
            .with_metadata("requestedVersion", raw)
            .with_metadata("supportedVersions", "0.3,1.0")),
    }
}

/// The 0.3 JSON-RPC method names.
pub const V03_METHODS: [&str; 10] = [
    "message/send",
    "message/stream",
    "tasks/get",
    "tasks/cancel",
    "tasks/resubscribe",
    "tasks/pushNotificationConfig/set",
    "tasks/pushNotificationConfig/get",
    "tasks/pushNotificationConfig/list",
    "tasks/pushNotificationConfig/delete",
    "agent/getAuthenticatedExtendedCard",
];

/// The protocol of a request. The method name wins when it is known
/// (`message/send`-style → 0.3, PascalCase → 1.0), and must agree with the
/// header; an unknown name goes to the header's version, whose front-end
/// answers "method not found".
///
/// A disagreement is `VersionNotSupported` (-32009), as the official SDK
/// answers it, with a message that says which header or method to use.
/// Its `error.data` is 1.0-shaped: a 0.3 client sends no 1.0 header, so it
/// meets this error only by calling a 1.0 method, i.e. as a 1.0 client.
pub fn route(method: &str, version_header: Option<&str>) -> Result<ProtocolVersion, A2aError> {
    let asked = parse_version_header(version_header)?;
    let header_text = match version_header.map(str::trim) {
        Some(h) if !h.is_empty() => format!("`A2A-Version: {h}`"),
        _ => "no A2A-Version header (which means 0.3)".to_string(),
    };
    if let Some(m) = Method::from_name(method) {
        if asked != ProtocolVersion::V1_0 {
            return Err(A2aError::new(ErrorKind::VersionNotSupported)
                .with_message(format!(
                    "{method} is an A2A 1.0 method, but the request has {header_text}: \
                     send `A2A-Version: 1.0`, or call the 0.3 method {}",
                    m.v03_name()
                ))
                .with_metadata("method", method)
                .with_metadata("requestedVersion", asked.as_str()));
        }
        return Ok(ProtocolVersion::V1_0);
    }
    if V03_METHODS.contains(&method) {
        if asked != ProtocolVersion::V0_3 {
            let hint = match Method::from_v03_name(method) {
                Some(m) => format!(", or call the 1.0 method {}", m.name()),
                None => String::new(),
            };
            return Err(A2aError::new(ErrorKind::VersionNotSupported)
                .with_message(format!(
                    "{method} is an A2A 0.3 method, but the request has {header_text}: \
                     send `A2A-Version: 0.3` (or no header){hint}"
                ))
                .with_metadata("method", method)
                .with_metadata("requestedVersion", asked.as_str()));
        }
        return Ok(ProtocolVersion::V0_3);
    }
    Ok(asked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values() {
        for (h, v) in [
            (None, ProtocolVersion::V0_3),
            (Some(""), ProtocolVersion::V0_3),
            (Some("  "), ProtocolVersion::V0_3),
            (Some("0.3"), ProtocolVersion::V0_3),
            (Some("0.3.0"), ProtocolVersion::V0_3),
            (Some("1.0"), ProtocolVersion::V1_0),
            (Some(" 1.0.1 "), ProtocolVersion::V1_0),
        ] {
            assert_eq!(parse_version_header(h).unwrap(), v, "{h:?}");
        }
        for h in [
            "1", "0.2", "1.1", "2.0", "1.0.x", "1.0.0.0", "v1.0", "latest",
        ] {
            let e = parse_version_header(Some(h)).unwrap_err();
            assert_eq!(e.kind, ErrorKind::VersionNotSupported, "{h}");
            assert!(e.message.contains("0.3 and 1.0"), "{}", e.message);
        }
    }
}

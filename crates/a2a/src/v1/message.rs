//! Messages, their parts and artifacts (`Message`, `Part`, `Role`, `Artifact`
//! of `a2a.proto`).

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;

/// Who sent a [`Message`] (`Role` of `a2a.proto`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// `ROLE_UNSPECIFIED`: the proto default; never valid in a request.
    Unspecified,
    /// `ROLE_USER`: the client.
    User,
    /// `ROLE_AGENT`: the agent (this server).
    Agent,
}

const ROLES: [Role; 3] = [Role::Unspecified, Role::User, Role::Agent];
const ROLE_NAMES: [&str; 3] = ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"];

impl Role {
    /// The wire name (`"ROLE_USER"`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Unspecified => ROLE_NAMES[0],
            Role::User => ROLE_NAMES[1],
            Role::Agent => ROLE_NAMES[2],
        }
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Role {
    /// The name, or (as ProtoJSON allows) the enum number.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        lenient::proto_enum(d, "role", &ROLE_NAMES).map(|i| ROLES[i])
    }
}

/// What a [`Part`] holds: exactly one of the `content` oneof of `a2a.proto`.
#[derive(Debug, Clone, PartialEq)]
pub enum PartContent {
    /// `text`: plain text.
    Text(String),
    /// `raw`: file bytes, base64 as in ProtoJSON (kept as the client wrote it).
    Raw(String),
    /// `url`: where the file's content is.
    Url(String),
    /// `data`: any JSON value (object, array, string, number, boolean or null).
    Data(Value),
}

/// A piece of message or artifact content. In 1.0 a part has no `kind`: the
/// field that is set (`text`, `raw`, `url` or `data`) says what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// The content.
    pub content: PartContent,
    /// Part metadata.
    pub metadata: Option<Map<String, Value>>,
    /// File name (`"document.pdf"`); allowed on every kind of part.
    pub filename: Option<String>,
    /// Media type (`"text/plain"`, `"image/png"`); allowed on every kind of part.
    pub media_type: Option<String>,
}

impl Part {
    /// A text part with nothing else set.
    pub fn text(text: impl Into<String>) -> Self {
        Part::of(PartContent::Text(text.into()))
    }

    /// A data part with nothing else set.
    pub fn data(data: Value) -> Self {
        Part::of(PartContent::Data(data))
    }

    /// A part holding `content` and nothing else.
    pub fn of(content: PartContent) -> Self {
        Part {
            content,
            metadata: None,
            filename: None,
            media_type: None,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PartOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<&'a Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    filename: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    media_type: Option<&'a str>,
}

impl Serialize for Part {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (mut text, mut raw, mut url, mut data) = (None, None, None, None);
        match &self.content {
            PartContent::Text(t) => text = Some(t.as_str()),
            PartContent::Raw(r) => raw = Some(r.as_str()),
            PartContent::Url(u) => url = Some(u.as_str()),
            PartContent::Data(d) => data = Some(d),
        }
        PartOut {
            text,
            raw,
            url,
            data,
            metadata: self.metadata.as_ref(),
            filename: self.filename.as_deref(),
            media_type: self.media_type.as_deref(),
        }
        .serialize(s)
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PartIn {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    raw: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default, deserialize_with = "lenient::present_value")]
    data: Option<Value>,
    #[serde(default)]
    metadata: Option<Map<String, Value>>,
    #[serde(default)]
    filename: Option<String>,
    #[serde(default)]
    media_type: Option<String>,
    // Read only to explain a 0.3-shaped part in the error message.
    #[serde(default)]
    kind: Option<Value>,
    #[serde(default)]
    file: Option<Value>,
}

impl<'de> Deserialize<'de> for Part {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let p = PartIn::deserialize(d)?;
        let mut set: Vec<PartContent> = Vec::with_capacity(1);
        if let Some(t) = p.text {
            set.push(PartContent::Text(t));
        }
        if let Some(r) = p.raw {
            set.push(PartContent::Raw(r));
        }
        if let Some(u) = p.url {
            set.push(PartContent::Url(u));
        }
        if let Some(v) = p.data {
            set.push(PartContent::Data(v));
        }
        if set.len() > 1 {
            return Err(de::Error::custom(
                "a part must set exactly one of text, raw, url or data, and this one sets several",
            ));
        }
        let Some(content) = set.pop() else {
            let hint = if p.kind.is_some() || p.file.is_some() {
                " (this looks like an A2A 0.3 part: 1.0 parts have no `kind`; a file is \
                 `raw` (base64) or `url`, with `filename` and `mediaType`)"
            } else {
                ""
            };
            return Err(de::Error::custom(format!(
                "a part must set one of text, raw, url or data{hint}"
            )));
        };
        Ok(Part {
            content,
            metadata: p.metadata,
            filename: p.filename,
            media_type: p.media_type,
        })
    }
}

/// One unit of communication between client and agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    /// Unique id chosen by the sender (required).
    pub message_id: String,
    /// The conversation context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_id: Option<String>,
    /// The task this message belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// Sender role (required).
    pub role: Role,
    /// The content (required).
    pub parts: Vec<Part>,
    /// Free-form metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    /// Extension URIs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Vec<String>>,
    /// Tasks this message refers to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_task_ids: Option<Vec<String>>,
}

/// An output of a task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Artifact {
    /// Unique within the task (required).
    pub artifact_id: String,
    /// Human-readable name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Human-readable description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The content (required, at least one part).
    pub parts: Vec<Part>,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    /// Extension URIs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Vec<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parts_have_no_kind() {
        let p: Part = serde_json::from_value(
            json!({"url": "https://x/y.png", "filename": "y.png", "mediaType": "image/png"}),
        )
        .unwrap();
        assert_eq!(p.content, PartContent::Url("https://x/y.png".into()));
        assert_eq!(p.media_type.as_deref(), Some("image/png"));
        let out = serde_json::to_value(&p).unwrap();
        assert_eq!(
            out,
            json!({"url": "https://x/y.png", "filename": "y.png", "mediaType": "image/png"})
        );
        assert_eq!(
            serde_json::to_value(Part::text("hi")).unwrap(),
            json!({"text": "hi"})
        );
    }

    #[test]
    fn data_may_be_any_value_even_null() {
        for v in [
            json!({"a": 1}),
            json!([1, 2]),
            json!("s"),
            json!(3),
            json!(null),
        ] {
            let p: Part = serde_json::from_value(json!({ "data": v })).unwrap();
            assert_eq!(p.content, PartContent::Data(v.clone()));
            assert_eq!(serde_json::to_value(&p).unwrap(), json!({ "data": v }));
        }
    }

    #[test]
    fn bad_parts_are_explained() {
        let e = serde_json::from_value::<Part>(json!({"text": "a", "url": "b"})).unwrap_err();
        assert!(e.to_string().contains("several"), "{e}");
        let e = serde_json::from_value::<Part>(json!({"metadata": {}})).unwrap_err();
        assert!(
            e.to_string().contains("one of text, raw, url or data"),
            "{e}"
        );
        let e = serde_json::from_value::<Part>(
            json!({"kind": "file", "file": {"uri": "https://x", "mimeType": "a/b"}}),
        )
        .unwrap_err();
        assert!(e.to_string().contains("A2A 0.3 part"), "{e}");
    }

    #[test]
    fn roles() {
        assert_eq!(
            serde_json::to_value(Role::User).unwrap(),
            json!("ROLE_USER")
        );
        assert_eq!(
            serde_json::from_value::<Role>(json!("ROLE_AGENT")).unwrap(),
            Role::Agent
        );
        assert_eq!(
            serde_json::from_value::<Role>(json!(1)).unwrap(),
            Role::User
        );
        let e = serde_json::from_value::<Role>(json!("user")).unwrap_err();
        assert!(e.to_string().contains("ROLE_USER"), "{e}");
        assert!(serde_json::from_value::<Role>(json!(3)).is_err());
    }

    #[test]
    fn message_requires_id_role_parts() {
        for bad in [
            json!({"role": "ROLE_USER", "parts": [{"text": "x"}]}),
            json!({"messageId": "m", "parts": [{"text": "x"}]}),
            json!({"messageId": "m", "role": "ROLE_USER"}),
        ] {
            assert!(
                serde_json::from_value::<Message>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }
}

//! The A2A protocol, version 0.3.0, as serde types.
//!
//! These mirror `types/src/types.ts` of the A2A v0.3.0 specification: the
//! [`Message`] and its [`Part`]s, the [`Task`] with its [`TaskStatus`] and
//! [`Artifact`]s, the two streaming events, the [`AgentCard`], the method
//! parameters and the JSON-RPC envelope.
//!
//! A2A 1.0 lives in [`v1`], beside these 0.3 types, with conversions between
//! the two.
//!
//! Input is read leniently where the specification allows it (unknown fields
//! are ignored, optional fields may be absent or `null`); output is exact
//! (camelCase names, `kind` discriminators, optional fields omitted when empty).
//!
//! ```
//! use ecclesia_a2a::{Message, Part, Role};
//! let m: Message = serde_json::from_str(
//!     r#"{"kind":"message","messageId":"1","role":"user","parts":[{"kind":"text","text":"hi"}]}"#,
//! ).unwrap();
//! assert_eq!(m.role, Role::User);
//! assert!(matches!(&m.parts[0], Part::Text { text, .. } if text == "hi"));
//! ```
#![deny(missing_docs)]

mod card;
mod jsonrpc;
mod push;
mod task;
/// A2A 1.0 (ProtoJSON shapes, PascalCase methods), its version routing and
/// its conversions to and from the 0.3 types above.
pub mod v1;

pub use card::{
    AgentCapabilities, AgentCard, AgentExtension, AgentInterface, AgentProvider, AgentSkill,
    SecurityScheme,
};
pub use jsonrpc::{
    error_codes, JsonRpcError, JsonRpcErrorResponse, JsonRpcId, JsonRpcRequest, JsonRpcResponse,
    JsonRpcSuccessResponse,
};
pub use push::{
    PushNotificationAuthenticationInfo, TaskPushNotificationConfig, TaskPushNotificationConfigQuery,
};
pub use task::{
    Artifact, FileContent, Message, MessageSendConfiguration, MessageSendParams, Part,
    PushNotificationConfig, Role, StreamEvent, Task, TaskArtifactUpdateEvent, TaskIdParams,
    TaskQueryParams, TaskState, TaskStatus, TaskStatusUpdateEvent,
};

/// The protocol version this crate speaks, as it goes in the agent card.
pub const PROTOCOL_VERSION: &str = "0.3.0";

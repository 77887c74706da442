//! A2A 1.0 on the JSON-RPC binding: wire types, methods, version routing,
//! errors, and conversions to and from the 0.3 types of this crate.
//!
//! The JSON is ProtoJSON of `a2a.proto` (package `lf.a2a.v1`): camelCase
//! fields, SCREAMING_SNAKE enum names, no `kind`, oneofs as one set field
//! (`{"text": …}` parts, `{"task": …}` results, `{"statusUpdate": …}` events).
//! Output is exact (only fields the proto defines, none with `kind`; unset
//! optional fields omitted). Input is lenient where ProtoJSON is: unknown
//! fields are ignored, `null` means unset, enums may be given by number,
//! `int32` fields by string (`"10"`) or integral float (`10.0`).
//!
//! For the server:
//! - [`route`](crate::v1::route) says which protocol a request speaks;
//! - [`Request::decode_named`](crate::v1::Request::decode_named) decodes and
//!   checks 1.0 params;
//! - the [`convert`](crate::v1::convert) impls turn them into the 0.3 model,
//!   and 0.3 results back into 1.0 types;
//! - [`AgentCard::from_v03`](crate::v1::AgentCard::from_v03) makes the 1.0
//!   card from the 0.3 one;
//! - `A2aError::from(&JsonRpcError)` turns a 0.3 error of this server into
//!   its 1.0 form, and [`A2aError::to_jsonrpc`](crate::v1::A2aError::to_jsonrpc)
//!   renders it.
//!
//! # Checked against
//!
//! - `a2aproject/A2A` tag `v1.0.1` = `3303592588e388e62e0f69f701af531d2f4e3991`
//!   (and `v1.0.0` = `173695755607e884aa9acf8ce4feed90e32727a1`; `a2a.proto`
//!   differs between them only in a comment): `specification/a2a.proto` for
//!   every message, field and enum value; `docs/specification.md` §3.1–3.6
//!   (operations, `returnImmediately`, history length, versioning), §5.3–5.7
//!   (method names, error codes, camelCase, timestamps, required fields),
//!   §6 and §8.5 (examples, used for `tests/fixtures/v1`), §9 (JSON-RPC binding,
//!   errors as `@type` detail arrays).
//! - `a2aproject/a2a-python` at `46b292b433a5df5a9721d6227cb53753f2978437`
//!   (2026-06-12, after v1.1.0): `src/a2a/utils/errors.py` (messages, reasons,
//!   HTTP and gRPC statuses), `src/a2a/server/routes/jsonrpc_dispatcher.py`
//!   and `src/a2a/utils/version_validator.py` (method table, version checks),
//!   `src/a2a/utils/error_handlers.py` (`ErrorInfo` first in `error.data`),
//!   `src/a2a/compat/v0_3/conversions.py` (0.3 mapping, `data_part_compat`),
//!   `src/a2a/client/transports/jsonrpc.py` (results parsed with `ParseDict`),
//!   `src/a2a/types/a2a_pb2.py` (the generated `lf.a2a.v1` descriptor: every
//!   JSON name used here, e.g. `mtlsSecurityScheme`, `deviceAuthorizationUrl`,
//!   `statusUpdate`, is in it).
//!
//! # Choices where the sources are ambiguous or disagree
//!
//! - **No `createdAt` / `lastModified` on `Task`.** The brief and issue 12 ask
//!   for them, but `a2a.proto` (both 1.0 tags) has no such fields; the
//!   specification shows them only in §5.6.1's timestamp-format example. The
//!   official Python client parses results with `ParseDict` without
//!   `ignore_unknown_fields`, so an extra field would break it.
//!   `status.timestamp` is the last change.
//! - **Parts** are `text` | `raw` | `url` | `data` (+ `filename`,
//!   `mediaType`, `metadata`), as the proto says; there is no `file` object.
//!   `raw` keeps its base64 text as sent. A 0.3-shaped part gets an error
//!   that says how to write it in 1.0.
//! - **Push config methods** are `ListTaskPushNotificationConfigs` (plural) and
//!   `Create/Get/DeleteTaskPushNotificationConfig`, as in the proto and §5.3
//!   (the research note's `…PushNotificationConfig` without `Task` is not used).
//! - **Stream events** are `statusUpdate` / `artifactUpdate` (proto), not the
//!   `taskStatusUpdate` of `whats-new-v1.md`.
//! - **Security requirements**: the proto's `securityRequirements:
//!   [{"schemes": {"name": {"list": [...]}}}]`; §8.5's sample card still
//!   shows 0.3's `security`, which is not used.
//! - **Version routing** follows the official SDK: a known method name picks
//!   the version and must agree with `A2A-Version` (absent or empty = 0.3;
//!   the patch number is ignored; other versions are -32009). A mismatch is
//!   `VersionNotSupported` (-32009) with a message naming the right header or
//!   method. Unknown names go to the header's version.
//! - **Error messages**: the spec's table for JSON-RPC codes ("Invalid
//!   parameters", …), the SDK's for A2A codes ("Task not found", …);
//!   invalid params name the field (`message.parts[1]: …`) and also carry a
//!   `google.rpc.BadRequest`. This server's own errors keep -32029 (rate
//!   limit) and -32030 (busy) and move plan-required to -32031, because 1.0
//!   gives -32005 to `ContentTypeNotSupported`.
//! - **Required fields** (`field_behavior = REQUIRED`) must be present on
//!   input; required strings must also be non-empty where they are ids, and
//!   `message.parts` must not be empty (§5.7 "SHOULD validate").
//!   Non-`REQUIRED` strings that 0.3 holds as plain strings (`Task.contextId`)
//!   read as `""` when absent and are omitted when empty, as ProtoJSON does.
//! - **`ListTasksResponse`** always writes `nextPageToken` (`""` on the last
//!   page, §3.1.4), `pageSize` and `totalSize`. A `status` filter of
//!   `TASK_STATE_UNSPECIFIED` is read as no filter; `pageSize` outside 1–100
//!   is invalid params (the §6.5 example).
//! - **Field names**: only the camelCase JSON names are read. ProtoJSON
//!   parsers also accept the proto names (`message_id`); here such a field is
//!   an unknown one (ignored), so a required one is reported missing.
//! - **`DeleteTaskPushNotificationConfig`** returns `google.protobuf.Empty`;
//!   the Python SDK answers `result: null` and ignores the result as a client.

mod card;
mod card_convert;
pub mod convert;
mod error_convert;
mod errors;
mod lenient;
mod message;
mod methods;
mod params;
mod push;
mod security;
mod task;
mod version;

pub use card::{
    bindings, AgentCapabilities, AgentCard, AgentCardSignature, AgentExtension, AgentInterface,
    AgentProvider, AgentSkill,
};
pub use convert::ConvertError;
pub use errors::{
    A2aError, ErrorKind, FieldViolation, A2A_DOMAIN, BAD_REQUEST_TYPE, ECCLESIA_DOMAIN,
    ERROR_INFO_TYPE, RETRY_INFO_TYPE,
};
pub use message::{Artifact, Message, Part, PartContent, Role};
pub use methods::{Method, Request};
pub use params::{
    CancelTaskRequest, GetExtendedAgentCardRequest, GetTaskRequest, ListTasksRequest,
    ListTasksResponse, SendMessageConfiguration, SendMessageRequest, SubscribeToTaskRequest,
};
pub use push::{
    AuthenticationInfo, DeleteTaskPushNotificationConfigRequest,
    GetTaskPushNotificationConfigRequest, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, TaskPushNotificationConfig,
    TaskPushNotificationConfigRef,
};
pub use security::{
    ApiKeySecurityScheme, HttpAuthSecurityScheme, MutualTlsSecurityScheme, OAuth2SecurityScheme,
    OAuthFlow, OAuthFlows, OpenIdConnectSecurityScheme, SecurityRequirement, SecurityScheme,
    StringList,
};
pub use task::{
    SendMessageResponse, StreamResponse, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
pub use version::{parse_version_header, route, ProtocolVersion, V03_METHODS, VERSION_HEADER};

/// The protocol version of this module, as in `AgentInterface.protocolVersion`.
pub const PROTOCOL_VERSION: &str = "1.0";

//! A2A 0.3 over JSON-RPC at `POST /api/v1/a2a` (slash-style methods: `message/send`,
//! `tasks/get` …, and requests without an `A2A-Version` header): decode the params, call
//! the core, write 0.3's shapes and codes.

pub(crate) mod errors;
pub(crate) mod methods;

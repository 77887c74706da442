//! The qa domain crate (being built).

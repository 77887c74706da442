//! The corpus domain crate (being built).

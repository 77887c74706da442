//! The liturgy domain crate (being built).

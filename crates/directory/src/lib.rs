//! The directory domain crate (being built).

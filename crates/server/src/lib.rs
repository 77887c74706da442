//! server (being built).

//! cli (being built).

//! The console served on a loopback port over a real registry: the liturgy
//! and directory skills on a real store built by the ingest framework, and —
//! on a second server — stand-ins for the corpus skills (their store takes
//! minutes to build), plus a small stand-in for the A2A endpoint so that the
//! page's script can stream. Pages are fetched over HTTP and checked.

mod browser;
mod corpus;
mod fakes;
mod pages;
mod support;

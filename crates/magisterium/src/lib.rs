//! A registry of the modern Magisterium: the documents the library does not
//! hold the text of (Vatican II, the Catechism of the Catholic Church, the
//! codes of canon law, the encyclicals, exhortations and constitutions since
//! 1931, the principal documents of the Dicastery for the Doctrine of the
//! Faith), as facts only: titles and the names people use for them, author,
//! date, type, official link and a few subject words of our own.
//!
//! The answering pipeline asks it what a question names ([`Registry::mentions`])
//! so that it can say plainly which document would answer and where to read
//! it, instead of quoting unrelated passages; the corpus ingests its rows as
//! catalogue entries, so `document_search` and `document_fetch` know them.
//!
//! ```
//! use ecclesia_magisterium::Registry;
//! let r = Registry::bundled();
//! let m = r.mentions("What does Evangelium Vitae say about euthanasia?");
//! assert_eq!(m.documents[0].title_la, "Evangelium vitae");
//! assert!(m.remainder.contains("euthanasia"));
//! ```
#![deny(missing_docs)]

mod aliases;
mod described;
mod entry;
mod fold;
mod mention;
mod registry;

pub use aliases::SubjectAliases;
pub use entry::Entry;
pub use fold::fold;
pub use mention::{stems, Mentions};
pub use registry::{Registry, RegistryError};

//! The ingest framework: domain crates implement [`Ingester`]; the CLI runs
//! them into a fresh store generation and reports progress through [`Progress`].

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Attribution of one dataset used by an ingester, shown by `ecclesia sources`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceInfo {
    /// Path of the dataset under the data directory (`bible/cpdv`).
    pub dataset: String,
    /// Where it comes from (upstream project or URL, as its SOURCE.txt says).
    pub origin: String,
    /// Version or commit.
    pub version: String,
    /// Licence (`public domain`, `CC0-1.0`, …).
    pub licence: String,
    /// Attribution text to show, when the licence asks for one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribution: Option<String>,
    /// Records loaded from it.
    pub records: u64,
}

/// What an ingester did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IngestReport {
    /// The datasets used.
    pub sources: Vec<SourceInfo>,
    /// Problems with individual records (file, position, what is wrong); those records were skipped.
    pub warnings: Vec<String>,
}

/// A progress bar, as the CLI draws it (or nothing, in tests).
pub trait Progress: Send + Sync {
    /// Set the total (units of work).
    fn set_length(&self, len: u64);
    /// Advance.
    fn inc(&self, delta: u64);
    /// Show what is being done now.
    fn set_message(&self, msg: &str);
    /// Done.
    fn finish(&self);
}

/// Makes progress bars.
pub trait ProgressFactory: Send + Sync {
    /// A new bar labelled `label`, with a total when known.
    fn bar(&self, label: &str, len: Option<u64>) -> Box<dyn Progress>;
}

/// Progress that shows nothing (tests, quiet mode).
#[derive(Debug, Default, Clone, Copy)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn set_length(&self, _: u64) {}
    fn inc(&self, _: u64) {}
    fn set_message(&self, _: &str) {}
    fn finish(&self) {}
}

impl ProgressFactory for NoProgress {
    fn bar(&self, _: &str, _: Option<u64>) -> Box<dyn Progress> {
        Box::new(NoProgress)
    }
}

/// Where an ingester reads and writes.
pub struct IngestContext<'a> {
    /// The datasets (`../shared/data`); read only.
    pub data_dir: PathBuf,
    /// This ingester's own directory in the store generation being built; empty at start.
    pub out_dir: PathBuf,
    /// Progress bars.
    pub progress: &'a dyn ProgressFactory,
}

impl IngestContext<'_> {
    /// A dataset path under the data directory.
    pub fn data(&self, rel: &str) -> PathBuf {
        self.data_dir.join(rel)
    }

    /// A path in this ingester's output directory.
    pub fn out(&self, rel: &str) -> PathBuf {
        self.out_dir.join(rel)
    }
}

/// Why an ingest failed as a whole (bad records are warnings, not errors).
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// A required dataset is missing.
    #[error("dataset not found: {}", .0.display())]
    MissingData(PathBuf),
    /// Reading input or writing the store failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Any other failure, described.
    #[error("{0}")]
    Other(String),
}

impl IngestError {
    /// An I/O error with the path it concerns.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        IngestError::Io {
            context: path.display().to_string(),
            source,
        }
    }
}

/// Builds one domain's store from the datasets.
pub trait Ingester: Send + Sync {
    /// Short name, also the directory name inside a store generation (`liturgy`).
    fn name(&self) -> &'static str;
    /// Build the store into `ctx.out_dir`.
    fn ingest(&self, ctx: &IngestContext<'_>) -> Result<IngestReport, IngestError>;
}

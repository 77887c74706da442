//! Errors of the liturgy crate.

use std::path::{Path, PathBuf};

/// What can go wrong loading data or answering a question.
#[derive(Debug, thiserror::Error)]
pub enum LiturgyError {
    /// A data file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A data file is malformed.
    #[error("bad data in {path}: {msg}")]
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
    /// The year is outside the supported range.
    #[error("year {0} is outside the supported range 1970..=9999")]
    OutOfRange(i32),
    /// Unknown calendar id.
    #[error("{0}")]
    UnknownCalendar(String),
    /// Unknown translation id.
    #[error("{0}")]
    UnknownTranslation(String),
    /// A date phrase that could not be understood; the message lists accepted forms.
    #[error("{0}")]
    BadPhrase(String),
    /// A citation that could not be parsed.
    #[error("cannot parse citation {0:?}: {1}")]
    BadCitation(String, String),
}

impl LiturgyError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        LiturgyError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
    /// A data error on `path`.
    pub fn data(path: &Path, msg: String) -> Self {
        LiturgyError::Data {
            path: path.to_path_buf(),
            msg,
        }
    }
    /// True when the caller's input is at fault (maps to -32602).
    pub fn is_user_error(&self) -> bool {
        matches!(
            self,
            LiturgyError::OutOfRange(_)
                | LiturgyError::UnknownCalendar(_)
                | LiturgyError::UnknownTranslation(_)
                | LiturgyError::BadPhrase(_)
        )
    }
}

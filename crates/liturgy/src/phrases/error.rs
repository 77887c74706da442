//! What can go wrong reading a date phrase.

use super::ACCEPTED_FORMS;
use crate::error::LiturgyError;

/// The longest phrase read, in characters; a longer one is refused unread.
pub const MAX_CHARS: usize = 200;

/// A date phrase that names no single day. Each becomes
/// [`LiturgyError::BadPhrase`] (JSON-RPC `-32602` upstream), with the
/// accepted forms appended.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhraseError {
    /// Nothing but spaces and filler words.
    #[error("cannot understand the date {}: it names no day", quoted(.0))]
    Empty(String),
    /// Over [`MAX_CHARS`] characters.
    #[error("cannot understand the date: the phrase is {0} characters long, at most {MAX_CHARS} are read")]
    TooLong(usize),
    /// Some words are unknown, or the known words do not make a date.
    #[error("cannot understand the date {}: {detail}", quoted(phrase))]
    NotUnderstood {
        /// The phrase as given.
        phrase: String,
        /// What was understood and what was not.
        detail: String,
    },
    /// The phrase reads as more than one day.
    #[error("the date {} is ambiguous: it could be {}{hint}", quoted(phrase), readings.join(" or "))]
    Ambiguous {
        /// The phrase as given.
        phrase: String,
        /// Every day it could mean (ISO dates).
        readings: Vec<String>,
        /// How to say it unambiguously.
        hint: String,
    },
    /// The phrase is understood but the day does not exist (31 February,
    /// a year outside the calendar, a weekday that does not match).
    #[error("cannot resolve the date {}: {reason}", quoted(phrase))]
    NoSuchDay {
        /// The phrase as given.
        phrase: String,
        /// Why.
        reason: String,
    },
    /// More combinations of ambiguous words than are tried.
    #[error("cannot understand the date {}: too many words with several meanings", quoted(.0))]
    TooAmbiguous(String),
}

impl From<PhraseError> for LiturgyError {
    fn from(e: PhraseError) -> Self {
        LiturgyError::BadPhrase(format!("{e}; {ACCEPTED_FORMS}"))
    }
}

/// `s` in double quotes, with quotes, backslashes and control characters
/// escaped (other scripts are left as they are, unlike `{:?}`).
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&c.escape_default().to_string()),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

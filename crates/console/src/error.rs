//! The console's errors and their pages: 400 for bad input, 404, 503 for a
//! skill whose data is absent, 500 for the rest (never a panic, never an
//! internal message on the page).

use crate::html::{esc_trunc, MAX_ECHO_CHARS};
use crate::i18n::{t, Lang};
use crate::layout::Page;
use axum::http::StatusCode;

/// Why a page could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    /// The request is wrong in a way the person can fix; the message says how.
    #[error("{0}")]
    BadInput(String),
    /// No such page or item.
    #[error("not found")]
    NotFound,
    /// The skill with this id is not registered (its store is absent).
    #[error("skill {0} is not available")]
    Unavailable(String),
    /// The skill ran past its deadline.
    #[error("the request took too long")]
    Timeout,
    /// The gate refused the page view (key, plan or rate limit).
    #[error("refused: {}", .0.message)]
    Refused(crate::gate::Refusal),
    /// Anything else; logged, answered generically.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ConsoleError {
    /// The HTTP status of the error page.
    pub fn status(&self) -> StatusCode {
        match self {
            ConsoleError::BadInput(_) => StatusCode::BAD_REQUEST,
            ConsoleError::NotFound => StatusCode::NOT_FOUND,
            ConsoleError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ConsoleError::Timeout => StatusCode::GATEWAY_TIMEOUT,
            ConsoleError::Refused(r) => r.status,
            ConsoleError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The error as a page in `lang`.
    pub fn page(&self, lang: Lang) -> Page {
        let detail = match self {
            ConsoleError::BadInput(m) => esc_trunc(m, MAX_ECHO_CHARS),
            ConsoleError::NotFound => "This page does not exist.".into(),
            ConsoleError::Unavailable(id) => format!(
                "{} (<code>{}</code>)",
                t(lang, "unavailable"),
                esc_trunc(id, 64)
            ),
            ConsoleError::Timeout => "The request took too long; try a narrower one.".into(),
            ConsoleError::Refused(r) => esc_trunc(&r.message, MAX_ECHO_CHARS),
            ConsoleError::Internal(_) => {
                "Something went wrong on the server; it has been logged.".into()
            }
        };
        let body = format!(
            "<h1>{}</h1>\n<p class=\"error\" role=\"alert\">{detail}</p>\n<p><a href=\"/{}\">{}</a></p>",
            t(lang, "error.title"),
            crate::html::query(&[("lang", if lang == Lang::En { "" } else { lang.code() })]),
            t(lang, "error.back")
        );
        Page::new(lang, t(lang, "error.title"), "", body).status(self.status())
    }
}

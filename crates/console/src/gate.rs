//! The hook through which the deployment applies its keys, plans and rate
//! limits to the console: every page that runs a skill asks the [`Gate`]
//! first, and the [`Visitor`] it admits is who the page's skill calls are made
//! for (see [`SkillRunner`](crate::skills::SkillRunner)). The console itself
//! keeps no keys; without a gate every page view is admitted as
//! [`Visitor::anonymous`] (the console then relies on `max_concurrent` and the
//! deadline).

use axum::http::{HeaderMap, StatusCode};
use futures::future::BoxFuture;
use std::any::Any;
use std::sync::Arc;

/// Why a page view was refused.
#[derive(Debug, Clone)]
pub struct Refusal {
    /// 401, 403, 429 or 503.
    pub status: StatusCode,
    /// Shown to the person (escaped).
    pub message: String,
    /// Seconds before a retry may succeed (429, 503), sent as `Retry-After`.
    pub retry_after: Option<u64>,
}

/// Who a page view is for, as the gate admitted it: an id (for logs) and, opaque to the
/// console, what the gate found (the server puts its caller there, with the page's
/// rate-limit pools already counted), which the deployment's
/// [`SkillRunner`](crate::skills::SkillRunner) reads back with [`Visitor::admission`].
#[derive(Clone)]
pub struct Visitor {
    id: String,
    admission: Option<Arc<dyn Any + Send + Sync>>,
}

impl std::fmt::Debug for Visitor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Visitor")
            .field("id", &self.id)
            .field("admission", &self.admission.is_some())
            .finish()
    }
}

impl Visitor {
    /// A visitor known by its id only.
    pub fn new(id: impl Into<String>) -> Self {
        Visitor {
            id: id.into(),
            admission: None,
        }
    }

    /// A visitor with what the gate found about it, for the runner to read back.
    pub fn with_admission<T: Any + Send + Sync>(id: impl Into<String>, admission: T) -> Self {
        Visitor {
            id: id.into(),
            admission: Some(Arc::new(admission)),
        }
    }

    /// Every page view when the console has no gate.
    pub fn anonymous() -> Self {
        Visitor::new("anonymous")
    }

    /// The visitor's id (a key id, or a shared pool's name).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// What the gate attached, if it is a `T`.
    pub fn admission<T: Any>(&self) -> Option<&T> {
        self.admission.as_deref()?.downcast_ref::<T>()
    }
}

/// Admits or refuses page views that run skills.
pub trait Gate: Send + Sync {
    /// One page view that runs `skill` (once per page, however many calls it
    /// makes) for the request carrying `headers`: the visitor its calls are made
    /// for, or why not. Asynchronous: a key store or a rate limiter that waits on
    /// I/O does it off the async workers.
    fn admit<'a>(
        &'a self,
        skill: &'a str,
        headers: &'a HeaderMap,
    ) -> BoxFuture<'a, Result<Visitor, Refusal>>;
}

impl<F> Gate for F
where
    F: Fn(&str, &HeaderMap) -> Result<Visitor, Refusal> + Send + Sync,
{
    fn admit<'a>(
        &'a self,
        skill: &'a str,
        headers: &'a HeaderMap,
    ) -> BoxFuture<'a, Result<Visitor, Refusal>> {
        Box::pin(std::future::ready(self(skill, headers)))
    }
}

//! The task bus: what a running task shares beyond the replica that runs it.
//!
//! A task runs on one replica, but its caller may stream it, resubscribe to it or cancel it
//! through any replica behind the load balancer. The [`TaskBus`] carries exactly that:
//!
//! - **events**: the replica running a task [`open`](TaskBus::open)s it, [`publish`](TaskBus::publish)es
//!   every stream event (status and artifact updates, in order, the final status last) and
//!   [`close`](TaskBus::close)s it after the final one; any replica may
//!   [`subscribe`](TaskBus::subscribe) to the events published from then on;
//! - **cancellation**: any replica may [`request_cancel`](TaskBus::request_cancel) a task by id;
//!   the replica running it learns of it through [`cancel_requested`](TaskBus::cancel_requested)
//!   and stops the run.
//!
//! The task itself (its status, artifacts and history) is not on the bus: it is in the
//! [`crate::TaskStore`], which every replica reads. Ownership is checked before the bus is
//! used (a caller only reaches its own tasks), so the bus knows task ids only.
//!
//! [`InProcessBus`] is the implementation for one process (tokio broadcast channels, 128
//! shared events buffered per task for readers that fall behind). A multi-replica
//! deployment injects another (Redis pub/sub, say) with `AppState::with_bus` (in `ecclesia-server`).
//! Implementations must never block the caller: `publish` is called on the request path.

use ecclesia_a2a::StreamEvent;
use futures::future::BoxFuture;
use futures::stream::BoxStream;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, watch};

/// A stream event as the bus carries it (shared, so that every subscriber costs a pointer).
pub type SharedEvent = Arc<StreamEvent>;

/// The events of one task from the moment of subscription, ending after the final status
/// (or when the task is closed).
pub type EventStream = BoxStream<'static, SharedEvent>;

/// Stream events buffered per task (in process) for subscribers that fall behind.
pub const EVENT_BUFFER: usize = 128;

/// A bus failure (a remote bus that cannot be reached).
#[derive(Debug, thiserror::Error)]
#[error("task bus: {0}")]
pub struct BusError(pub String);

/// What a running task shares beyond its replica: its events and its cancellation.
/// See the [module documentation](self).
pub trait TaskBus: Send + Sync {
    /// The task `task_id` starts running on this replica: carry its events from now on.
    fn open(&self, task_id: &str);
    /// Publish `event` of `task_id` to its subscribers (on every replica). Never blocks;
    /// a subscriber that falls too far behind loses the oldest events.
    fn publish(&self, task_id: &str, event: SharedEvent);
    /// Whether an event of `task_id` published now may reach anyone (so that one nobody
    /// can hear is not built). A remote bus cannot know its other replicas' readers: yes.
    fn listened(&self, _task_id: &str) -> bool {
        true
    }
    /// The events of `task_id` published after this call; `None` when no replica is
    /// running the task (it has finished, or never ran). The subscription is in place when
    /// the returned future resolves, so nothing published afterwards is missed.
    fn subscribe(&self, task_id: &str)
        -> BoxFuture<'static, Result<Option<EventStream>, BusError>>;
    /// The task's events are over (after its final event): release what the bus holds.
    fn close(&self, task_id: &str);
    /// Ask the replica running `task_id` to cancel it (nothing happens when none runs it).
    fn request_cancel(&self, task_id: &str) -> BoxFuture<'static, Result<(), BusError>>;
    /// Resolves when a cancel of `task_id` is requested through
    /// [`request_cancel`](TaskBus::request_cancel) (on any replica) while it is open here;
    /// never resolves for a task that is not open here.
    fn cancel_requested(&self, task_id: &str) -> BoxFuture<'static, ()>;
}

struct Channel {
    events: broadcast::Sender<SharedEvent>,
    cancel: watch::Sender<bool>,
}

/// The bus of one process: a broadcast channel and a cancel flag per open task.
#[derive(Default)]
pub struct InProcessBus {
    open: Mutex<HashMap<String, Channel>>,
}

impl std::fmt::Debug for InProcessBus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InProcessBus")
    }
}

impl InProcessBus {
    fn channels(&self) -> std::sync::MutexGuard<'_, HashMap<String, Channel>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A broadcast receiver as a stream that ends after the final status event.
pub fn receiver_stream(rx: broadcast::Receiver<SharedEvent>) -> EventStream {
    Box::pin(futures::stream::unfold(Some(rx), |rx| async move {
        let mut rx = rx?;
        loop {
            match rx.recv().await {
                Ok(ev) => {
                    let last = matches!(ev.as_ref(), StreamEvent::Status(s) if s.is_final);
                    return Some((ev, (!last).then_some(rx)));
                }
                Err(broadcast::error::RecvError::Lagged(n)) => {
                    tracing::warn!(skipped = n, "a stream reader fell behind");
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }))
}

impl TaskBus for InProcessBus {
    fn open(&self, task_id: &str) {
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let (cancel, _) = watch::channel(false);
        self.channels()
            .insert(task_id.to_string(), Channel { events, cancel });
    }

    fn publish(&self, task_id: &str, event: SharedEvent) {
        if let Some(c) = self.channels().get(task_id) {
            let _ = c.events.send(event);
        }
    }

    fn listened(&self, task_id: &str) -> bool {
        self.channels()
            .get(task_id)
            .is_some_and(|c| c.events.receiver_count() > 0)
    }

    fn subscribe(
        &self,
        task_id: &str,
    ) -> BoxFuture<'static, Result<Option<EventStream>, BusError>> {
        let rx = self.channels().get(task_id).map(|c| c.events.subscribe());
        Box::pin(async move { Ok(rx.map(receiver_stream)) })
    }

    fn close(&self, task_id: &str) {
        self.channels().remove(task_id);
    }

    fn request_cancel(&self, task_id: &str) -> BoxFuture<'static, Result<(), BusError>> {
        if let Some(c) = self.channels().get(task_id) {
            let _ = c.cancel.send(true);
        }
        Box::pin(async { Ok(()) })
    }

    fn cancel_requested(&self, task_id: &str) -> BoxFuture<'static, ()> {
        let rx = self.channels().get(task_id).map(|c| c.cancel.subscribe());
        Box::pin(async move {
            match rx {
                Some(mut rx) => {
                    if rx.wait_for(|c| *c).await.is_err() {
                        // Closed without a cancel: the task finished.
                        std::future::pending::<()>().await
                    }
                }
                None => std::future::pending::<()>().await,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ecclesia_a2a::{TaskState, TaskStatus, TaskStatusUpdateEvent};
    use futures::StreamExt;

    fn status(is_final: bool) -> SharedEvent {
        Arc::new(StreamEvent::Status(TaskStatusUpdateEvent {
            task_id: "t".into(),
            context_id: "c".into(),
            status: TaskStatus {
                state: if is_final {
                    TaskState::Completed
                } else {
                    TaskState::Working
                },
                message: None,
                timestamp: None,
            },
            is_final,
            metadata: None,
        }))
    }

    #[tokio::test]
    async fn subscribers_get_the_events_after_subscribing_up_to_the_final_one() {
        let bus = InProcessBus::default();
        assert!(bus.subscribe("t").await.unwrap().is_none());
        bus.open("t");
        bus.publish("t", status(false));
        let mut s = bus.subscribe("t").await.unwrap().unwrap();
        bus.publish("t", status(false));
        bus.publish("t", status(true));
        bus.publish("t", status(false));
        bus.close("t");
        let got: Vec<SharedEvent> = (&mut s).collect().await;
        assert_eq!(got.len(), 2);
        assert!(matches!(got[1].as_ref(), StreamEvent::Status(s) if s.is_final));
        assert!(bus.subscribe("t").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn a_cancel_request_reaches_the_watcher_of_an_open_task_only() {
        let bus = Arc::new(InProcessBus::default());
        bus.open("t");
        let watcher = tokio::spawn(bus.cancel_requested("t"));
        bus.request_cancel("other").await.unwrap();
        tokio::task::yield_now().await;
        assert!(!watcher.is_finished());
        bus.request_cancel("t").await.unwrap();
        tokio::time::timeout(std::time::Duration::from_secs(5), watcher)
            .await
            .expect("the watcher wakes")
            .unwrap();
    }
}

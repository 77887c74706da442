//! [`RedisBus`]: the server's [`TaskBus`] over Redis pub/sub, so that a stream or
//! resubscription on one replica receives the events of a task running on another, and a
//! cancel on one stops the run on another.
//!
//! Why Redis pub/sub rather than PostgreSQL `LISTEN/NOTIFY`: events are many and small
//! (a streamed answer is dozens of chunks), NOTIFY payloads are capped at 8,000 bytes and
//! every notification goes through the database's WAL-free but single queue shared with
//! the task writes; Redis is already there for the limits and fans messages out without
//! touching the tasks' database.
//!
//! - A task running here is **open** here: its events go to local subscribers directly
//!   (never through Redis), and are also published on `<prefix>ev:<task>` for other
//!   replicas; `<prefix>open:<task>` names the replica (with a TTL renewed while it runs,
//!   so a dead replica's tasks stop looking open).
//! - A subscriber here to a task open elsewhere subscribes to `<prefix>ev:<task>` on this
//!   replica's one pub/sub connection before the call returns (nothing published after is
//!   missed); its stream ends after the final status, or when the task stops being open
//!   anywhere (its replica died: the lease then fails it in the store).
//! - Cancels are published on `<prefix>cancel`, which every replica listens to.
//!
//! Publishing never blocks the request path: messages go through a bounded queue to a
//! writer task (dropped, with a warning, when Redis is too slow for the queue).

use ecclesia_a2a::StreamEvent;
use ecclesia_state::bus::receiver_stream;
use ecclesia_state::{BusError, EventStream, SharedEvent, TaskBus, EVENT_BUFFER};
use futures::future::BoxFuture;
use futures::StreamExt;
use redis::aio::ConnectionManager;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, watch};

/// Messages waiting for Redis before new ones are dropped.
const OUTBOX: usize = 10_000;
/// How long `open:<task>` lives without renewal.
const OPEN_TTL: Duration = Duration::from_secs(30);

struct Open {
    events: broadcast::Sender<SharedEvent>,
    cancel: watch::Sender<bool>,
}

enum Outgoing {
    Event(String, String),
    Open(String),
    Close(String),
}

struct Shared {
    prefix: String,
    replica: String,
    /// Tasks running here.
    open: Mutex<HashMap<String, Open>>,
    /// Tasks running elsewhere with subscribers here.
    remote: Mutex<HashMap<String, broadcast::Sender<SharedEvent>>>,
}

/// The task bus on Redis pub/sub.
pub struct RedisBus {
    runtime: Option<tokio::runtime::Runtime>,
    shared: Arc<Shared>,
    outbox: mpsc::Sender<Outgoing>,
    conn: ConnectionManager,
    sink: redis::aio::PubSubSink,
    timeout: Duration,
}

impl std::fmt::Debug for RedisBus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisBus")
            .field("replica", &self.shared.replica)
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl RedisBus {
    /// Connect to the Redis at `url`; `replica` names this process in `open:` keys.
    pub fn connect(
        url: &str,
        prefix: &str,
        replica: &str,
        timeout: Duration,
    ) -> Result<Self, BusError> {
        let client = redis::Client::open(url).map_err(|e| BusError(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ecclesia-bus")
            .enable_all()
            .build()
            .map_err(|e| BusError(e.to_string()))?;
        let shared = Arc::new(Shared {
            prefix: prefix.to_string(),
            replica: replica.to_string(),
            open: Mutex::default(),
            remote: Mutex::default(),
        });
        let (conn, sink, stream) = runtime
            .block_on(async {
                tokio::time::timeout(timeout * 4, async {
                    let conn = ConnectionManager::new(client.clone()).await?;
                    let pubsub = client.get_async_pubsub().await?;
                    let (mut sink, stream) = pubsub.split();
                    sink.subscribe(format!("{prefix}cancel")).await?;
                    Ok::<_, redis::RedisError>((conn, sink, stream))
                })
                .await
            })
            .map_err(|_| BusError("Redis did not answer in time".into()))?
            .map_err(|e| BusError(e.to_string()))?;
        runtime.spawn(listen(shared.clone(), stream));
        let (outbox, rx) = mpsc::channel(OUTBOX);
        runtime.spawn(write(shared.clone(), conn.clone(), rx));
        runtime.spawn(renew(shared.clone(), conn.clone()));
        Ok(RedisBus {
            runtime: Some(runtime),
            shared,
            outbox,
            conn,
            sink,
            timeout,
        })
    }

    fn handle(&self) -> Option<tokio::runtime::Handle> {
        self.runtime.as_ref().map(|r| r.handle().clone())
    }

    fn send(&self, msg: Outgoing) {
        if self.outbox.try_send(msg).is_err() {
            tracing::warn!("the task bus's queue to Redis is full: an event was dropped");
        }
    }
}

/// Deliver what Redis sends: remote tasks' events to their subscribers here, cancels to the
/// tasks open here.
async fn listen(shared: Arc<Shared>, mut stream: redis::aio::PubSubStream) {
    let cancel = format!("{}cancel", shared.prefix);
    let events = format!("{}ev:", shared.prefix);
    while let Some(msg) = stream.next().await {
        let channel = msg.get_channel_name().to_string();
        let Ok(payload) = msg.get_payload::<String>() else {
            continue;
        };
        if channel == cancel {
            if let Some(t) = lock(&shared.open).get(&payload) {
                let _ = t.cancel.send(true);
            }
        } else if let Some(task) = channel.strip_prefix(&events) {
            match serde_json::from_str::<StreamEvent>(&payload) {
                Ok(ev) => {
                    if let Some(tx) = lock(&shared.remote).get(task) {
                        let _ = tx.send(Arc::new(ev));
                    }
                }
                Err(e) => tracing::warn!(task, error = %e, "an unreadable event on the task bus"),
            }
        }
    }
    tracing::warn!("the task bus's subscription to Redis ended");
}

/// Messages sent to Redis in one pipeline at most.
const PIPELINE: usize = 256;

/// Publish queued messages in order: whatever is queued goes in one pipeline (one round trip
/// for many tasks' events under load, where one command after another cost one each).
async fn write(shared: Arc<Shared>, mut conn: ConnectionManager, mut rx: mpsc::Receiver<Outgoing>) {
    let p = shared.prefix.clone();
    let mut batch = Vec::with_capacity(PIPELINE);
    while rx.recv_many(&mut batch, PIPELINE).await > 0 {
        let mut pipe = redis::pipe();
        for msg in batch.drain(..) {
            match msg {
                Outgoing::Event(task, json) => {
                    pipe.cmd("PUBLISH")
                        .arg(format!("{p}ev:{task}"))
                        .arg(json)
                        .ignore();
                }
                Outgoing::Open(task) => {
                    pipe.cmd("SET")
                        .arg(format!("{p}open:{task}"))
                        .arg(&shared.replica)
                        .arg("EX")
                        .arg(OPEN_TTL.as_secs())
                        .ignore();
                }
                Outgoing::Close(task) => {
                    pipe.cmd("DEL").arg(format!("{p}open:{task}")).ignore();
                }
            }
        }
        let r: redis::RedisResult<()> = pipe.query_async(&mut conn).await;
        if let Err(e) = r {
            tracing::warn!(error = %e, "the task bus could not reach Redis");
        }
    }
}

/// Renew the `open:` keys of the tasks running here.
async fn renew(shared: Arc<Shared>, mut conn: ConnectionManager) {
    let mut tick = tokio::time::interval(OPEN_TTL / 3);
    loop {
        tick.tick().await;
        let ids: Vec<String> = lock(&shared.open).keys().cloned().collect();
        for id in ids {
            let _: redis::RedisResult<()> = redis::cmd("EXPIRE")
                .arg(format!("{}open:{id}", shared.prefix))
                .arg(OPEN_TTL.as_secs())
                .query_async(&mut conn)
                .await;
        }
    }
}

impl TaskBus for RedisBus {
    fn open(&self, task_id: &str) {
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let (cancel, _) = watch::channel(false);
        lock(&self.shared.open).insert(task_id.to_string(), Open { events, cancel });
        self.send(Outgoing::Open(task_id.to_string()));
    }

    fn publish(&self, task_id: &str, event: SharedEvent) {
        if let Some(t) = lock(&self.shared.open).get(task_id) {
            let _ = t.events.send(event.clone());
        }
        match serde_json::to_string(event.as_ref()) {
            Ok(json) => self.send(Outgoing::Event(task_id.to_string(), json)),
            Err(e) => tracing::warn!(error = %e, "an event could not be encoded for the task bus"),
        }
    }

    fn subscribe(
        &self,
        task_id: &str,
    ) -> BoxFuture<'static, Result<Option<EventStream>, BusError>> {
        if let Some(t) = lock(&self.shared.open).get(task_id) {
            let rx = t.events.subscribe();
            return Box::pin(async move { Ok(Some(receiver_stream(rx))) });
        }
        let (shared, mut sink, mut conn) =
            (self.shared.clone(), self.sink.clone(), self.conn.clone());
        let (id, timeout, handle) = (task_id.to_string(), self.timeout, self.handle());
        Box::pin(async move {
            let Some(handle) = handle else {
                return Err(BusError("the task bus stopped".into()));
            };
            let channel = format!("{}ev:{id}", shared.prefix);
            let open_key = format!("{}open:{id}", shared.prefix);
            let work = handle.spawn(async move {
                let rx = {
                    let mut remote = lock(&shared.remote);
                    let tx = remote
                        .entry(id.clone())
                        .or_insert_with(|| broadcast::channel(EVENT_BUFFER).0);
                    tx.subscribe()
                };
                sink.subscribe(&channel).await?;
                let open: bool = redis::cmd("EXISTS")
                    .arg(&open_key)
                    .query_async(&mut conn)
                    .await?;
                Ok::<_, redis::RedisError>((rx, open, shared, sink, conn, open_key, channel, id))
            });
            let (rx, open, shared, mut sink, mut conn, open_key, channel, id) =
                match tokio::time::timeout(timeout, work).await {
                    Ok(Ok(Ok(v))) => v,
                    Ok(Ok(Err(e))) => return Err(BusError(e.to_string())),
                    _ => return Err(BusError("Redis did not answer in time".into())),
                };
            if !open {
                drop(rx);
                forget(&shared, &id, &mut sink, &channel).await;
                return Ok(None);
            }
            // End the stream when the task stops being open anywhere (its replica died).
            let (stop_tx, stop_rx) = watch::channel(false);
            handle.spawn(async move {
                let mut tick = tokio::time::interval(Duration::from_secs(2));
                loop {
                    tick.tick().await;
                    let still: redis::RedisResult<bool> = redis::cmd("EXISTS")
                        .arg(&open_key)
                        .query_async(&mut conn)
                        .await;
                    let gone = matches!(still, Ok(false));
                    let unwatched = lock(&shared.remote)
                        .get(&id)
                        .is_none_or(|tx| tx.receiver_count() == 0);
                    if gone || unwatched {
                        let _ = stop_tx.send(true);
                        forget(&shared, &id, &mut sink, &channel).await;
                        return;
                    }
                }
            });
            let stream = receiver_stream(rx).take_until(async move {
                let mut stop_rx = stop_rx;
                let _ = stop_rx.wait_for(|s| *s).await;
            });
            Ok(Some(Box::pin(stream) as EventStream))
        })
    }

    fn close(&self, task_id: &str) {
        lock(&self.shared.open).remove(task_id);
        self.send(Outgoing::Close(task_id.to_string()));
    }

    fn request_cancel(&self, task_id: &str) -> BoxFuture<'static, Result<(), BusError>> {
        if let Some(t) = lock(&self.shared.open).get(task_id) {
            let _ = t.cancel.send(true);
            return Box::pin(async { Ok(()) });
        }
        let (mut conn, channel, id) = (
            self.conn.clone(),
            format!("{}cancel", self.shared.prefix),
            task_id.to_string(),
        );
        let (timeout, handle) = (self.timeout, self.handle());
        Box::pin(async move {
            let Some(handle) = handle else {
                return Err(BusError("the task bus stopped".into()));
            };
            let work = handle.spawn(async move {
                redis::cmd("PUBLISH")
                    .arg(channel)
                    .arg(id)
                    .query_async::<()>(&mut conn)
                    .await
            });
            match tokio::time::timeout(timeout, work).await {
                Ok(Ok(Ok(()))) => Ok(()),
                Ok(Ok(Err(e))) => Err(BusError(e.to_string())),
                _ => Err(BusError("Redis did not answer in time".into())),
            }
        })
    }

    fn cancel_requested(&self, task_id: &str) -> BoxFuture<'static, ()> {
        let rx = lock(&self.shared.open)
            .get(task_id)
            .map(|t| t.cancel.subscribe());
        Box::pin(async move {
            match rx {
                Some(mut rx) => {
                    if rx.wait_for(|c| *c).await.is_err() {
                        std::future::pending::<()>().await
                    }
                }
                None => std::future::pending::<()>().await,
            }
        })
    }
}

/// Drop the subscription to a remote task once nobody here watches it.
async fn forget(shared: &Shared, id: &str, sink: &mut redis::aio::PubSubSink, channel: &str) {
    let last = {
        let mut remote = lock(&shared.remote);
        let idle = remote.get(id).is_none_or(|tx| tx.receiver_count() == 0);
        if idle {
            remote.remove(id);
        }
        idle
    };
    if last {
        let _ = sink.unsubscribe(channel).await;
    }
}

impl Drop for RedisBus {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

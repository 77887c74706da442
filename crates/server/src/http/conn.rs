//! Connections: accepted, bounded and timed out here rather than by
//! `axum::serve` (which never times a connection out).
//!
//! Every connection is registered with its client address and its activity:
//! the requests in flight (until the response body is dropped), and since when
//! it has been idle or reading a request head. A reaper drops connections that
//! take longer than `header_read_timeout` to send a request head (from its
//! first byte), or stay idle longer than `idle_timeout` (before the first
//! request and between keep-alive requests). A connection with a request in
//! flight is never timed out here (the body read and the skill have their own
//! deadlines). At `max_connections` in all, or `max_connections_per_ip` from
//! one address, a new connection replaces the waiting connection (idle or
//! reading a head) that has waited longest, so that slow clients cannot lock
//! out normal ones; when every connection is busy, the new one is closed.

use axum::extract::ConnectInfo;
use axum::Router;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};
use tower::ServiceExt;

/// Connection limits (from [`crate::ServerConfig`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConnLimits {
    /// Time from a request head's first byte to its end.
    pub header_read_timeout: Duration,
    /// Time a connection may wait with no request (before the first, between keep-alive requests).
    pub idle_timeout: Duration,
    /// Connections open at once, in all.
    pub max_connections: usize,
    /// Connections open at once from one client address.
    pub max_per_ip: usize,
}

/// What one connection is doing, updated by its I/O and its requests.
#[derive(Debug)]
struct Activity {
    born: Instant,
    /// Requests in flight (a request ends when its response body is dropped).
    active: AtomicUsize,
    /// Bytes arrived while no request was in flight: a head is being read.
    reading: AtomicBool,
    /// Milliseconds after `born` since when it is idle (or, when `reading`, reading the head).
    mark_ms: AtomicU64,
}

impl Activity {
    fn new(now: Instant) -> Self {
        Activity {
            born: now,
            active: AtomicUsize::new(0),
            reading: AtomicBool::new(false),
            mark_ms: AtomicU64::new(0),
        }
    }

    fn now_ms(&self) -> u64 {
        self.born.elapsed().as_millis() as u64
    }

    fn on_bytes(&self) {
        if self.active.load(Ordering::Acquire) == 0 && !self.reading.swap(true, Ordering::AcqRel) {
            self.mark_ms.store(self.now_ms(), Ordering::Release);
        }
    }

    fn request_started(&self) {
        self.active.fetch_add(1, Ordering::AcqRel);
        self.reading.store(false, Ordering::Release);
    }

    fn request_ended(&self) {
        if self.active.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.reading.store(false, Ordering::Release);
            self.mark_ms.store(self.now_ms(), Ordering::Release);
        }
    }

    /// `Some(waiting since, reading a head)` when no request is in flight.
    fn waiting(&self) -> Option<(Instant, bool)> {
        if self.active.load(Ordering::Acquire) > 0 {
            return None;
        }
        let since = self.born + Duration::from_millis(self.mark_ms.load(Ordering::Acquire));
        Some((since, self.reading.load(Ordering::Acquire)))
    }
}

/// Ends a request when dropped (with the response body).
struct RequestGuard(Arc<Activity>);

impl Drop for RequestGuard {
    fn drop(&mut self) {
        self.0.request_ended();
    }
}

struct Entry {
    ip: IpAddr,
    activity: Arc<Activity>,
    kill: Arc<Notify>,
}

#[derive(Default)]
struct Inner {
    next_id: u64,
    conns: HashMap<u64, Entry>,
    per_ip: HashMap<IpAddr, usize>,
}

impl Inner {
    fn remove(&mut self, id: u64) -> Option<Entry> {
        let e = self.conns.remove(&id)?;
        if let Some(n) = self.per_ip.get_mut(&e.ip) {
            *n -= 1;
            if *n == 0 {
                self.per_ip.remove(&e.ip);
            }
        }
        Some(e)
    }

    /// The waiting connection (of `ip`, or any) that has waited longest.
    fn victim(&self, ip: Option<IpAddr>) -> Option<u64> {
        self.conns
            .iter()
            .filter(|(_, e)| ip.is_none_or(|ip| e.ip == ip))
            .filter_map(|(id, e)| e.activity.waiting().map(|(since, _)| (since, *id)))
            .min()
            .map(|(_, id)| id)
    }
}

/// Counters of the connection layer, for `/metrics` and `/readyz`.
#[derive(Debug, Default)]
pub struct ConnCounters {
    /// Connections accepted.
    pub accepted: AtomicU64,
    /// Closed at once: every connection was busy.
    pub refused: AtomicU64,
    /// Closed to make room for a new connection.
    pub evicted: AtomicU64,
    /// Closed: no complete request head within the header timeout.
    pub header_timeouts: AtomicU64,
    /// Closed: idle past the idle timeout.
    pub idle_timeouts: AtomicU64,
    /// `accept` failed (e.g. out of descriptors).
    pub accept_errors: AtomicU64,
}

/// What the accept loop of [`crate::serve`] runs with: its connections and the descriptor
/// limit it found. Handed to the handlers that report them (`/readyz`, `/metrics`) as a
/// request extension, so that the core's state knows nothing of the listener.
#[derive(Clone)]
pub struct Listening {
    /// The open connections.
    pub connections: Arc<Connections>,
    /// The descriptor limit found (and raised).
    pub fd_limit: Option<FdLimit>,
}

/// The open connections.
pub struct Connections {
    limits: ConnLimits,
    inner: Mutex<Inner>,
    /// Counters.
    pub counters: ConnCounters,
    empty: Notify,
}

impl std::fmt::Debug for Connections {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connections")
            .field("limits", &self.limits)
            .field("open", &self.open())
            .finish()
    }
}

/// A registered connection.
struct Admitted {
    id: u64,
    activity: Arc<Activity>,
    kill: Arc<Notify>,
}

impl Connections {
    /// An empty registry with these limits.
    pub fn new(limits: ConnLimits) -> Self {
        Connections {
            limits,
            inner: Mutex::new(Inner::default()),
            counters: ConnCounters::default(),
            empty: Notify::new(),
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> ConnLimits {
        self.limits
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.lock().conns.len()
    }

    fn evict(&self, inner: &mut Inner, id: u64) {
        if let Some(e) = inner.remove(id) {
            e.kill.notify_one();
            self.counters.evicted.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn admit(&self, ip: IpAddr, now: Instant) -> Option<Admitted> {
        let mut inner = self.lock();
        if inner.per_ip.get(&ip).copied().unwrap_or(0) >= self.limits.max_per_ip.max(1) {
            let victim = inner.victim(Some(ip))?;
            self.evict(&mut inner, victim);
        }
        if inner.conns.len() >= self.limits.max_connections.max(1) {
            let victim = inner.victim(None)?;
            self.evict(&mut inner, victim);
        }
        inner.next_id += 1;
        let id = inner.next_id;
        let activity = Arc::new(Activity::new(now));
        let kill = Arc::new(Notify::new());
        inner.conns.insert(
            id,
            Entry {
                ip,
                activity: activity.clone(),
                kill: kill.clone(),
            },
        );
        *inner.per_ip.entry(ip).or_default() += 1;
        Some(Admitted { id, activity, kill })
    }

    fn remove(&self, id: u64) {
        let mut inner = self.lock();
        inner.remove(id);
        if inner.conns.is_empty() {
            self.empty.notify_waiters();
        }
    }

    /// Close the connections past a timeout; returns how many.
    fn reap(&self, now: Instant) -> usize {
        let mut inner = self.lock();
        let expired: Vec<(u64, bool)> = inner
            .conns
            .iter()
            .filter_map(|(id, e)| {
                let (since, reading) = e.activity.waiting()?;
                let limit = if reading {
                    self.limits.header_read_timeout
                } else {
                    self.limits.idle_timeout
                };
                (now.saturating_duration_since(since) >= limit).then_some((*id, reading))
            })
            .collect();
        for (id, reading) in &expired {
            if let Some(e) = inner.remove(*id) {
                e.kill.notify_one();
                let c = if *reading {
                    &self.counters.header_timeouts
                } else {
                    &self.counters.idle_timeouts
                };
                c.fetch_add(1, Ordering::Relaxed);
            }
        }
        expired.len()
    }

    /// Close every connection now (after the shutdown grace).
    fn kill_all(&self) {
        let mut inner = self.lock();
        let ids: Vec<u64> = inner.conns.keys().copied().collect();
        for id in ids {
            if let Some(e) = inner.remove(id) {
                e.kill.notify_one();
            }
        }
    }

    async fn wait_empty(&self) {
        loop {
            let notified = self.empty.notified();
            if self.open() == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// A socket that tells its [`Activity`] when bytes arrive.
struct Tracked {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.on_bytes();
        }
        r
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

fn client_ip(addr: &SocketAddr) -> IpAddr {
    match addr.ip() {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map(IpAddr::V4)
            .unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    }
}

/// Whether an accept error means the process is out of descriptors.
fn out_of_descriptors(e: &std::io::Error) -> bool {
    matches!(e.raw_os_error(), Some(23) | Some(24))
}

/// Accept and serve connections on `listener` until `shutdown` turns true;
/// then finish the requests in flight (at most `grace`) and return.
pub(crate) async fn serve_connections(
    listener: TcpListener,
    app: Router,
    conns: Arc<Connections>,
    mut shutdown: watch::Receiver<bool>,
    grace: Duration,
) {
    let limits = conns.limits();
    let tick = (limits.header_read_timeout.min(limits.idle_timeout) / 4)
        .clamp(Duration::from_millis(50), Duration::from_secs(1));
    let reaper = {
        let conns = conns.clone();
        let mut stop = shutdown.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(tick);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = every.tick() => {
                        let n = conns.reap(Instant::now());
                        if n > 0 {
                            tracing::debug!(closed = n, "timed-out connections closed");
                        }
                    }
                    _ = stop.changed() => return,
                }
            }
        })
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    // The reaper above times heads and idle connections; hyper's own header
    // timer would also count the idle wait between requests.
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(None)
        .keep_alive(true);
    let builder = Arc::new(builder);
    loop {
        let accepted = tokio::select! {
            r = listener.accept() => r,
            _ = shutdown.changed() => break,
        };
        let (stream, addr) = match accepted {
            Ok(x) => x,
            Err(e) => {
                conns.counters.accept_errors.fetch_add(1, Ordering::Relaxed);
                if out_of_descriptors(&e) {
                    // Make room: close the connection that has waited longest.
                    let mut inner = conns.lock();
                    if let Some(v) = inner.victim(None) {
                        conns.evict(&mut inner, v);
                    }
                    drop(inner);
                    tracing::warn!(error = %e, "accept failed: out of file descriptors");
                } else {
                    tracing::warn!(error = %e, "accept failed");
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let Some(admitted) = conns.admit(client_ip(&addr), Instant::now()) else {
            conns.counters.refused.fetch_add(1, Ordering::Relaxed);
            drop(stream);
            continue;
        };
        conns.counters.accepted.fetch_add(1, Ordering::Relaxed);
        let _ = stream.set_nodelay(true);
        tokio::spawn(serve_one(
            stream,
            addr,
            app.clone(),
            conns.clone(),
            admitted,
            shutdown.clone(),
            builder.clone(),
        ));
    }
    drop(listener);
    reaper.abort();
    if tokio::time::timeout(grace, conns.wait_empty())
        .await
        .is_err()
    {
        tracing::warn!(
            open = conns.open(),
            "connections still open after the shutdown grace: closing them"
        );
        conns.kill_all();
    }
}

async fn serve_one(
    stream: TcpStream,
    addr: SocketAddr,
    app: Router,
    conns: Arc<Connections>,
    admitted: Admitted,
    mut shutdown: watch::Receiver<bool>,
    builder: Arc<hyper::server::conn::http1::Builder>,
) {
    let Admitted { id, activity, kill } = admitted;
    let io = TokioIo::new(Tracked {
        inner: stream,
        activity: activity.clone(),
    });
    let svc_activity = activity.clone();
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(addr));
        svc_activity.request_started();
        let guard = RequestGuard(svc_activity.clone());
        let app = app.clone();
        async move {
            let resp = app.oneshot(req).await?;
            Ok::<_, std::convert::Infallible>(resp.map(move |body| {
                axum::body::Body::new(body.map_frame(move |f| {
                    let _held = &guard;
                    f
                }))
            }))
        }
    });
    let conn = builder.serve_connection(io, service);
    tokio::pin!(conn);
    let mut draining = *shutdown.borrow();
    if draining {
        conn.as_mut().graceful_shutdown();
    }
    loop {
        tokio::select! {
            r = conn.as_mut() => {
                if let Err(e) = r {
                    tracing::debug!(error = %e, client = %addr, "connection ended with an error");
                }
                break;
            }
            _ = kill.notified() => break,
            _ = shutdown.changed(), if !draining => {
                draining = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
    conns.remove(id);
}

/// The descriptor limit of the process after [`raise_nofile_limit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct FdLimit {
    /// Soft limit (in force).
    pub soft: u64,
    /// Hard limit (the most the soft one may be raised to).
    pub hard: u64,
    /// Whether the soft limit was raised at start.
    pub raised: bool,
}

/// Raise the soft `RLIMIT_NOFILE` to the hard one where allowed; returns the
/// limits in force (`None` where unknown).
#[allow(clippy::unnecessary_cast)] // rlim_t is not u64 everywhere
pub fn raise_nofile_limit() -> Option<FdLimit> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes into the struct we own; no other memory is touched.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
            return None;
        }
        let mut raised = false;
        if lim.rlim_cur < lim.rlim_max {
            let want = libc::rlimit {
                rlim_cur: lim.rlim_max,
                rlim_max: lim.rlim_max,
            };
            // SAFETY: setrlimit reads the struct we own.
            if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &want) } == 0 {
                lim.rlim_cur = lim.rlim_max;
                raised = true;
            }
        }
        Some(FdLimit {
            soft: lim.rlim_cur as u64,
            hard: lim.rlim_max as u64,
            raised,
        })
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Descriptors kept for everything but connections (stores, indexes, logs).
pub const FD_RESERVE: u64 = 256;

/// `configured` connections, lowered to fit the descriptor limit (less [`FD_RESERVE`]).
pub fn fit_to_fd_limit(configured: usize, fd: Option<FdLimit>) -> usize {
    match fd {
        Some(fd) => {
            let room = fd.soft.saturating_sub(FD_RESERVE).max(16);
            configured.min(usize::try_from(room).unwrap_or(usize::MAX))
        }
        None => configured,
    }
    .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max: usize, per_ip: usize) -> ConnLimits {
        ConnLimits {
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            max_connections: max,
            max_per_ip: per_ip,
        }
    }

    #[test]
    fn a_new_connection_replaces_the_longest_waiting_one() {
        let c = Connections::new(limits(2, 10));
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let t = Instant::now();
        let a = c.admit(ip, t).unwrap();
        let b = c.admit(ip, t + Duration::from_millis(5)).unwrap();
        // `b` is busy: only `a` may make room.
        b.activity.request_started();
        let _c3 = c.admit(ip, t + Duration::from_millis(10)).unwrap();
        assert_eq!(c.open(), 2);
        assert!(!c.lock().conns.contains_key(&a.id));
        assert!(c.lock().conns.contains_key(&b.id));
        assert_eq!(c.counters.evicted.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn when_every_connection_is_busy_the_new_one_is_refused() {
        let c = Connections::new(limits(1, 10));
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let a = c.admit(ip, Instant::now()).unwrap();
        a.activity.request_started();
        assert!(c.admit(ip, Instant::now()).is_none());
        a.activity.request_ended();
        assert!(c.admit(ip, Instant::now()).is_some());
    }

    #[test]
    fn the_per_address_cap_evicts_only_that_address() {
        let c = Connections::new(limits(10, 1));
        let (x, y): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t = Instant::now();
        let a = c.admit(x, t).unwrap();
        let b = c.admit(y, t + Duration::from_millis(1)).unwrap();
        let _a2 = c.admit(x, t + Duration::from_millis(2)).unwrap();
        let inner = c.lock();
        assert!(!inner.conns.contains_key(&a.id));
        assert!(inner.conns.contains_key(&b.id));
        assert_eq!(inner.per_ip[&x], 1);
    }

    #[test]
    fn heads_and_idle_connections_time_out_busy_ones_do_not() {
        let c = Connections::new(limits(10, 10));
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let t = Instant::now();
        let idle = c.admit(ip, t).unwrap();
        let head = c.admit(ip, t).unwrap();
        head.activity.on_bytes();
        let busy = c.admit(ip, t).unwrap();
        busy.activity.request_started();
        let head_started = head.activity.waiting().unwrap().0;
        assert!(head.activity.waiting().unwrap().1);
        assert_eq!(c.reap(head_started + Duration::from_secs(9)), 0);
        assert_eq!(c.reap(head_started + Duration::from_secs(11)), 1);
        assert_eq!(c.counters.header_timeouts.load(Ordering::Relaxed), 1);
        assert_eq!(c.reap(t + Duration::from_secs(31)), 1);
        assert_eq!(c.counters.idle_timeouts.load(Ordering::Relaxed), 1);
        assert_eq!(c.reap(t + Duration::from_secs(3600)), 0);
        let inner = c.lock();
        assert!(inner.conns.contains_key(&busy.id));
        assert!(!inner.conns.contains_key(&idle.id));
    }

    #[test]
    fn fd_limits_bound_the_connections() {
        let fd = FdLimit {
            soft: 1024,
            hard: 1024,
            raised: false,
        };
        assert_eq!(fit_to_fd_limit(4096, Some(fd)), 768);
        assert_eq!(fit_to_fd_limit(100, Some(fd)), 100);
        assert_eq!(fit_to_fd_limit(100, None), 100);
    }
}

//! [`PgStore`]: the pool, the driver's runtime and this replica's identity.

use crate::bridge::{Bridge, BridgeError};
use crate::codec::CodecError;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use ecclesia_state::{StoreError, StoreLimits};
use std::future::Future;
use std::str::FromStr;
use std::sync::Mutex;
use std::time::Duration;

/// A PostgreSQL failure.
#[derive(Debug, thiserror::Error)]
pub enum PgError {
    /// The URL is not a PostgreSQL connection string.
    #[error("bad PostgreSQL URL: {0}")]
    Url(tokio_postgres::Error),
    /// The driver failed (connection, SQL).
    #[error("postgres: {0}")]
    Driver(#[from] tokio_postgres::Error),
    /// No connection from the pool in time, or none could be opened.
    #[error("postgres pool: {0}")]
    Pool(#[from] deadpool_postgres::PoolError),
    /// The pool could not be built.
    #[error("postgres pool: {0}")]
    Build(#[from] deadpool_postgres::BuildError),
    /// A call could not run or timed out.
    #[error(transparent)]
    Bridge(#[from] BridgeError),
    /// A stored task is unreadable.
    #[error(transparent)]
    Codec(#[from] CodecError),
}

impl From<PgError> for StoreError {
    fn from(e: PgError) -> Self {
        match e {
            PgError::Codec(CodecError::Json(e)) => StoreError::Corrupt(e),
            other => StoreError::Io(std::io::Error::other(other.to_string())),
        }
    }
}

/// How to connect and how long things may take.
#[derive(Debug, Clone)]
pub struct PgOptions {
    /// Connections in the pool.
    pub pool_size: usize,
    /// The deadline of one store call (waiting for a connection included).
    pub call_timeout: Duration,
    /// A replica whose lease is older than this is dead: its unfinished tasks fail.
    pub lease: Duration,
    /// How often this replica renews its lease and looks for dead ones.
    pub heartbeat: Duration,
    /// Renew a lease at all (off for tools such as `ecclesia keys`, which run no tasks).
    pub hold_lease: bool,
    /// The task store's upkeep runs on one replica at a time, at most this often across all
    /// of them (zero: at every call, as with one process).
    pub upkeep_every: Duration,
}

impl Default for PgOptions {
    fn default() -> Self {
        PgOptions {
            pool_size: 16,
            call_timeout: Duration::from_secs(5),
            lease: Duration::from_secs(30),
            heartbeat: Duration::from_secs(5),
            hold_lease: true,
            upkeep_every: Duration::from_secs(2),
        }
    }
}

/// Tasks, keys, leases and the published generation in one PostgreSQL database.
pub struct PgStore {
    pub(crate) bridge: Bridge,
    pub(crate) pool: Pool,
    pub(crate) replica: String,
    pub(crate) options: PgOptions,
    pub(crate) limits: Mutex<StoreLimits>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("replica", &self.replica)
            .finish_non_exhaustive()
    }
}

impl PgStore {
    /// Connect to `url` (`postgres://user:pass@host:port/db`), apply the migrations, and
    /// (with `hold_lease`) start renewing this replica's lease.
    pub fn connect(url: &str, options: PgOptions) -> Result<Self, PgError> {
        let mut config = tokio_postgres::Config::from_str(url).map_err(PgError::Url)?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(options.call_timeout);
        }
        config.application_name("ecclesia");
        let bridge = Bridge::new(2, options.call_timeout)?;
        let manager = Manager::from_config(
            config,
            tokio_postgres::NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.pool_size.max(1))
            .wait_timeout(Some(options.call_timeout))
            .create_timeout(Some(options.call_timeout))
            .recycle_timeout(Some(options.call_timeout))
            .runtime(Runtime::Tokio1)
            .build()?;
        let replica = replica_id();
        let store = PgStore {
            bridge,
            pool,
            replica,
            options,
            limits: Mutex::new(StoreLimits::default()),
        };
        let pool = store.pool.clone();
        let applied = store.call(async move {
            let mut client = pool.get().await?;
            Ok(crate::migrate::migrate(&mut client).await?)
        })?;
        if !applied.is_empty() {
            tracing::info!(versions = ?applied, "PostgreSQL migrations applied");
        }
        if store.options.hold_lease {
            crate::lease::start(&store)?;
        }
        Ok(store)
    }

    /// This process's replica id (the holder of its tasks' lease).
    pub fn replica_id(&self) -> &str {
        &self.replica
    }

    /// Set the size ceiling and the per-caller cap.
    pub fn set_limits(&self, limits: StoreLimits) {
        *self.limits.lock().unwrap_or_else(|e| e.into_inner()) = limits;
    }

    pub(crate) fn limits(&self) -> StoreLimits {
        *self.limits.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Run `fut` on the driver's runtime within the call deadline.
    pub(crate) fn call<T, F>(&self, fut: F) -> Result<T, PgError>
    where
        F: Future<Output = Result<T, PgError>> + Send + 'static,
        T: Send + 'static,
    {
        self.bridge.run(fut)?
    }
}

/// `<host>-<pid>-<random>`: unique per process, readable in `replicas`.
fn replica_id() -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "replica".into());
    let host: String = host
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '.')
        .take(40)
        .collect();
    format!(
        "{host}-{}-{}",
        std::process::id(),
        hex::encode(rand::random::<[u8; 4]>())
    )
}

//! The blocking face of the async driver: the server's store traits are synchronous (called
//! on blocking threads), the driver and its pool are async. A [`Bridge`] owns a small tokio
//! runtime where the connections live, runs one future there per call and waits for it,
//! bounded by a deadline, from any thread (a blocking thread, a plain thread, a test).

use std::future::Future;
use std::time::Duration;

/// A failure to run a call on the driver's runtime.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    /// The runtime could not be built (out of threads or descriptors).
    #[error("starting the PostgreSQL driver's runtime: {0}")]
    Start(std::io::Error),
    /// The call did not finish within its deadline.
    #[error("PostgreSQL did not answer within {0:?}")]
    Timeout(Duration),
    /// The call's task ended without an answer (the runtime is shutting down).
    #[error("the PostgreSQL driver's runtime stopped")]
    Stopped,
}

/// A runtime for the driver, and calls into it that wait.
#[derive(Debug)]
pub struct Bridge {
    /// Always `Some` until dropped.
    runtime: Option<tokio::runtime::Runtime>,
    deadline: Duration,
}

impl Bridge {
    /// A runtime of `threads` workers; every call gets at most `deadline`.
    pub fn new(threads: usize, deadline: Duration) -> Result<Self, BridgeError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads.max(1))
            .thread_name("ecclesia-pg")
            .enable_all()
            .build()
            .map_err(BridgeError::Start)?;
        Ok(Bridge {
            runtime: Some(runtime),
            deadline,
        })
    }

    /// The runtime's handle (to spawn background work on it).
    pub fn handle(&self) -> tokio::runtime::Handle {
        match &self.runtime {
            Some(rt) => rt.handle().clone(),
            None => unreachable!("the runtime is taken only on drop"),
        }
    }

    /// Run `fut` on the driver's runtime and wait for it (at most the deadline).
    pub fn run<T, F>(&self, fut: F) -> Result<T, BridgeError>
    where
        F: Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        let deadline = self.deadline;
        let task = self
            .handle()
            .spawn(async move { tokio::time::timeout(deadline, fut).await });
        // `futures`' executor does not care whether this thread is inside another runtime.
        match futures::executor::block_on(task) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(_)) => Err(BridgeError::Timeout(deadline)),
            Err(_) => Err(BridgeError::Stopped),
        }
    }
}

impl Drop for Bridge {
    /// Stop the runtime without waiting: the store may be dropped inside another runtime's
    /// async context, where a blocking shutdown is not allowed.
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

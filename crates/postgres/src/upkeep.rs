//! One replica at a time does the task store's upkeep (purging expired tasks, the size
//! ceiling, orphaned push configs): each asks for the turn at its purge interval, and the
//! conditional `UPDATE` of `upkeep_turn` gives it to at most one per
//! [`PgOptions::upkeep_every`](crate::PgOptions::upkeep_every). A replica that dies holds
//! nothing: the next one to ask after the interval takes the turn.

use crate::store::{PgError, PgStore};

impl PgStore {
    /// Whether this replica does the upkeep now (another did it less than `upkeep_every` ago:
    /// no).
    pub(crate) fn upkeep_turn(&self) -> Result<bool, PgError> {
        let every = self.options.upkeep_every.as_secs_f64();
        let (pool, replica) = (self.pool.clone(), self.replica.clone());
        self.call(async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached(
                    "UPDATE upkeep_turn SET replica = $1, at = now()
                     WHERE at <= now() - make_interval(secs => $2) RETURNING replica",
                )
                .await?;
            Ok(client
                .query_opt(&stmt, &[&replica, &every])
                .await?
                .is_some())
        })
    }
}

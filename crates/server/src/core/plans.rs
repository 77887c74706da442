//! What a caller's plan allows: A2A at all, and the rate-limit pools a skill call draws
//! from (the common `message/send` pool, and the skill's stricter pool if it has one).
//! The same for every front-end (A2A, MCP, the OpenAI API, the console).

use crate::config::Plan;
use crate::core::limits::PoolRequest;

/// The pools one skill call by `caller` (with `plan`) draws from; `extra_pool` is the
/// skill's own stricter pool ([`ecclesia_core::Skill::extra_pool`]).
pub fn pools(caller: &str, plan: &Plan, extra_pool: Option<&'static str>) -> Vec<PoolRequest> {
    let mut pools = Vec::new();
    if let Some(limit) = plan.send_per_minute {
        pools.push(PoolRequest {
            pool: "message/send".into(),
            key: format!("send:{caller}"),
            limit,
        });
    }
    if let (Some(pool), Some(limit)) = (extra_pool, plan.qa_per_minute) {
        pools.push(PoolRequest {
            pool: pool.into(),
            key: format!("{pool}:{caller}"),
            limit,
        });
    }
    pools
}

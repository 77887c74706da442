//! Bounded, fair work queues.
//!
//! Skill runs go to one of two lanes: `slow` (the skills named in
//! `ServerConfig::slow_skills`, by default `catholic_qa` and `document_search`)
//! and `fast` (look-ups, readings, calendar …), each with its own workers and
//! its own bounded queue, so a flood of slow work never delays a look-up.
//! Within a lane, waiting runs are kept per caller and started round-robin
//! across callers (one caller's hundred queued runs do not delay another
//! caller's first), and a caller may hold at most `per_caller` waiting runs in
//! a lane. A full lane, or a caller at its share, is refused at once with
//! [`Busy`]: the server answers JSON-RPC `-32030` (HTTP 503, `Retry-After`).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// Which lane a skill runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LaneKind {
    /// Look-ups, readings, calendar: milliseconds each.
    Fast,
    /// Question answering and search: up to seconds each.
    Slow,
}

impl LaneKind {
    /// `fast` or `slow`.
    pub fn as_str(self) -> &'static str {
        match self {
            LaneKind::Fast => "fast",
            LaneKind::Slow => "slow",
        }
    }
}

/// Capacity of one lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneLimits {
    /// Runs at once.
    pub workers: usize,
    /// Runs waiting, in all.
    pub queue: usize,
    /// Runs waiting, per caller.
    pub per_caller: usize,
}

/// A refusal: the lane (or the caller's share of it) is full.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Busy {
    /// The lane.
    pub lane: LaneKind,
    /// Runs waiting in the lane.
    pub queued: usize,
    /// Whether it is the caller's own share that is full (the lane may have room).
    pub caller_share: bool,
}

#[derive(Default)]
struct State {
    running: usize,
    queued: usize,
    next_id: u64,
    /// Waiting runs per caller, oldest first.
    waiting: HashMap<String, VecDeque<(u64, oneshot::Sender<Permit>)>>,
    /// Callers with waiting runs, in round-robin order.
    order: VecDeque<String>,
}

struct LaneInner {
    kind: LaneKind,
    limits: LaneLimits,
    state: Mutex<State>,
}

/// One lane (cheap to clone).
#[derive(Clone)]
pub struct Lane(Arc<LaneInner>);

impl std::fmt::Debug for Lane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lane")
            .field("kind", &self.0.kind)
            .field("limits", &self.0.limits)
            .finish()
    }
}

/// The right to run: the slot goes to the next waiting run when dropped.
pub struct Permit {
    lane: Option<Lane>,
}

impl Drop for Permit {
    fn drop(&mut self) {
        if let Some(lane) = self.lane.take() {
            lane.release();
        }
    }
}

/// An admitted run: ready now, or waiting for its turn.
pub enum Ticket {
    /// Run now.
    Ready(Permit),
    /// Wait for the permit (dropping the ticket gives up the place at once).
    Waiting(Waiter),
}

/// A place in a lane's queue.
pub struct Waiter {
    rx: oneshot::Receiver<Permit>,
    lane: Lane,
    caller: String,
    id: u64,
}

impl Drop for Waiter {
    fn drop(&mut self) {
        self.lane.forget(&self.caller, self.id);
    }
}

impl Ticket {
    /// The permit, once it is this run's turn.
    pub async fn wait(self) -> Option<Permit> {
        match self {
            Ticket::Ready(p) => Some(p),
            Ticket::Waiting(mut w) => (&mut w.rx).await.ok(),
        }
    }
}

/// Numbers of one lane, for `/readyz` and `/metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LaneStats {
    /// Runs now.
    pub running: usize,
    /// Runs waiting.
    pub queued: usize,
    /// Callers with waiting runs.
    pub callers_waiting: usize,
    /// Worker limit.
    pub workers: usize,
    /// Queue limit.
    pub queue_limit: usize,
    /// Per-caller queue limit.
    pub per_caller_limit: usize,
}

impl Lane {
    /// An empty lane.
    pub fn new(kind: LaneKind, limits: LaneLimits) -> Self {
        Lane(Arc::new(LaneInner {
            kind,
            limits: LaneLimits {
                workers: limits.workers.max(1),
                ..limits
            },
            state: Mutex::new(State::default()),
        }))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Which lane this is.
    pub fn kind(&self) -> LaneKind {
        self.0.kind
    }

    /// Admit a run of `caller`, or refuse it when the lane or the caller's share is full.
    pub fn admit(&self, caller: &str) -> Result<Ticket, Busy> {
        let limits = self.0.limits;
        let mut st = self.lock();
        if st.running < limits.workers && st.queued == 0 {
            st.running += 1;
            return Ok(Ticket::Ready(Permit {
                lane: Some(self.clone()),
            }));
        }
        let mine = st.waiting.get(caller).map_or(0, VecDeque::len);
        if st.queued >= limits.queue || mine >= limits.per_caller {
            return Err(Busy {
                lane: self.0.kind,
                queued: st.queued,
                caller_share: st.queued < limits.queue,
            });
        }
        let (tx, rx) = oneshot::channel();
        if mine == 0 {
            st.order.push_back(caller.to_string());
        }
        st.next_id += 1;
        let id = st.next_id;
        st.waiting
            .entry(caller.to_string())
            .or_default()
            .push_back((id, tx));
        st.queued += 1;
        Ok(Ticket::Waiting(Waiter {
            rx,
            lane: self.clone(),
            caller: caller.to_string(),
            id,
        }))
    }

    /// A waiting run gave up: take it out of the queue (if it is still there).
    fn forget(&self, caller: &str, id: u64) {
        let mut st = self.lock();
        let Some(q) = st.waiting.get_mut(caller) else {
            return;
        };
        let Some(pos) = q.iter().position(|(i, _)| *i == id) else {
            return;
        };
        q.remove(pos);
        let empty = q.is_empty();
        st.queued = st.queued.saturating_sub(1);
        if empty {
            st.waiting.remove(caller);
            st.order.retain(|c| c != caller);
        }
    }

    /// A run ended: hand its slot to the next waiting run (round-robin over callers).
    fn release(&self) {
        let mut st = self.lock();
        loop {
            let Some(caller) = st.order.pop_front() else {
                st.running = st.running.saturating_sub(1);
                return;
            };
            let (tx, more) = match st.waiting.get_mut(&caller) {
                Some(q) => (q.pop_front(), !q.is_empty()),
                None => (None, false),
            };
            if more {
                st.order.push_back(caller);
            } else {
                st.waiting.remove(&caller);
            }
            let Some((_, tx)) = tx else { continue };
            st.queued = st.queued.saturating_sub(1);
            let permit = Permit {
                lane: Some(self.clone()),
            };
            match tx.send(permit) {
                Ok(()) => return,
                Err(mut p) => {
                    // That run gave up its place: the slot stays ours, try the next.
                    p.lane = None;
                }
            }
        }
    }

    /// Numbers now.
    pub fn stats(&self) -> LaneStats {
        let st = self.lock();
        LaneStats {
            running: st.running,
            queued: st.queued,
            callers_waiting: st.order.len(),
            workers: self.0.limits.workers,
            queue_limit: self.0.limits.queue,
            per_caller_limit: self.0.limits.per_caller,
        }
    }
}

/// The two lanes.
#[derive(Debug, Clone)]
pub struct Lanes {
    /// Look-ups and the like.
    pub fast: Lane,
    /// QA and search.
    pub slow: Lane,
}

impl Lanes {
    /// The lane of `kind`.
    pub fn get(&self, kind: LaneKind) -> &Lane {
        match kind {
            LaneKind::Fast => &self.fast,
            LaneKind::Slow => &self.slow,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lane(workers: usize, queue: usize, per_caller: usize) -> Lane {
        Lane::new(
            LaneKind::Slow,
            LaneLimits {
                workers,
                queue,
                per_caller,
            },
        )
    }

    fn ready(t: Ticket) -> Permit {
        match t {
            Ticket::Ready(p) => p,
            Ticket::Waiting(_) => panic!("expected a ready ticket"),
        }
    }

    fn waiting(t: Ticket) -> Waiter {
        match t {
            Ticket::Waiting(w) => w,
            Ticket::Ready(_) => panic!("expected a waiting ticket"),
        }
    }

    #[test]
    fn the_queue_is_bounded_in_all_and_per_caller() {
        let l = lane(1, 3, 2);
        let _running = ready(l.admit("a").unwrap());
        let _w1 = waiting(l.admit("a").unwrap());
        let _w2 = waiting(l.admit("a").unwrap());
        let e = l.admit("a").err().unwrap();
        assert!(e.caller_share, "{e:?}");
        let _w3 = waiting(l.admit("b").unwrap());
        let e = l.admit("c").err().unwrap();
        assert!(!e.caller_share);
        assert_eq!(e.queued, 3);
        assert_eq!(l.stats().queued, 3);
    }

    #[test]
    fn callers_take_turns() {
        let l = lane(1, 100, 100);
        let first = ready(l.admit("flood").unwrap());
        let mut flood: Vec<_> = (0..5).map(|_| waiting(l.admit("flood").unwrap())).collect();
        let mut other = waiting(l.admit("other").unwrap());
        drop(first);
        // The flood's oldest run goes first (its caller was first in line) …
        let p = flood[0].rx.try_recv().unwrap();
        assert!(other.rx.try_recv().is_err());
        drop(p);
        // … then the other caller, before the flood's remaining four.
        let p = other.rx.try_recv().unwrap();
        assert!(flood[1].rx.try_recv().is_err());
        drop(p);
        assert!(flood[1].rx.try_recv().is_ok());
    }

    #[test]
    fn a_run_that_gave_up_passes_its_turn() {
        let l = lane(1, 10, 10);
        let first = ready(l.admit("a").unwrap());
        let gone = waiting(l.admit("b").unwrap());
        let mut next = waiting(l.admit("c").unwrap());
        drop(gone);
        // Its place is given up at once.
        assert_eq!(l.stats().queued, 1);
        drop(first);
        let p = next.rx.try_recv().unwrap();
        assert_eq!(l.stats().queued, 0);
        assert_eq!(l.stats().running, 1);
        drop(p);
        assert_eq!(l.stats().running, 0);
    }

    #[test]
    fn slots_come_back() {
        let l = lane(2, 0, 0);
        let a = ready(l.admit("a").unwrap());
        let _b = ready(l.admit("a").unwrap());
        assert!(l.admit("a").is_err());
        drop(a);
        assert_eq!(l.stats().running, 1);
        let _c = ready(l.admit("b").unwrap());
    }
}

//! A client-side deadline on a run's progress, so that a PostgreSQL server that stops
//! answering fails the run with a clear error instead of hanging it.
//!
//! The session's `statement_timeout` and `lock_timeout` are enforced by the server, so
//! a server that is stopped (`SIGSTOP`, a frozen VM) never enforces them; and its kernel
//! still acknowledges every TCP segment and keepalive, so neither TCP keepalives nor
//! `tcp_user_timeout` notice it either. The `postgres` crate's blocking calls take no
//! deadline of their own. So the deadline is kept beside the calls: the run reports
//! progress ([`Progress::beat`]) between every two calls, and a watchdog thread ends the
//! process, naming the deadline, when no beat came for longer than it. Ending the process
//! is exactly a crash, which the protocol survives: the next run restores the last
//! checkpoint and recovers its handles.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// The exit status of a run the watchdog ended.
pub const EXIT_NO_PROGRESS: i32 = 3;

/// A run's progress counter: cheap to clone and to beat.
#[derive(Debug, Clone, Default)]
pub struct Progress(Arc<AtomicU64>);

impl Progress {
    /// A counter nobody watches yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The run made progress: a call returned, a record was written.
    pub fn beat(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    /// Watches this counter from a thread of its own: when it has not moved for
    /// `deadline`, prints an error saying so (with `what` the run was waiting on) and
    /// ends the process with [`EXIT_NO_PROGRESS`].
    pub fn watch(&self, deadline: Duration, what: String) {
        let beats = Arc::clone(&self.0);
        let tick = (deadline / 10).clamp(Duration::from_millis(10), Duration::from_secs(1));
        thread::spawn(move || {
            let (mut seen, mut since) = (beats.load(Ordering::Relaxed), Instant::now());
            loop {
                thread::sleep(tick);
                let now = beats.load(Ordering::Relaxed);
                if now != seen {
                    (seen, since) = (now, Instant::now());
                } else if since.elapsed() >= deadline {
                    eprintln!(
                        "demo: no progress for {} s: {what} did not answer within the \
                         client-side deadline (--pg-deadline-secs), so the server is stopped, \
                         hung or unreachable. The run stops here as if killed; once the \
                         server answers again, a restart recovers from the last checkpoint",
                        deadline.as_secs_f64()
                    );
                    std::process::exit(EXIT_NO_PROGRESS);
                }
            }
        });
    }
}

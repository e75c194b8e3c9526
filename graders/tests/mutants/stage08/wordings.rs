//! The wording of stage-08 reports whose explanation comes from the job's own calls,
//! pinned on the mutants that produce them.

use graders::stage08::{TransactionalSinkStage, drive};

use super::brief_edges::AbortOnFresh;
use crate::rejects;

/// Aborts sent to the fresh sink read as such, from the job's calls on the fresh sink,
/// and the matrix's reading names them rather than a "prepared"/"notified" mix-up.
#[test]
fn aborts_sent_to_the_fresh_sink_read_as_such() {
    let report = rejects::<TransactionalSinkStage>(drive::<AbortOnFresh>, "protocol");
    crate::wordings::reads(
        &report,
        "protocol",
        [
            "run_exactly_once_sink_with(&[2], 1, crash_after, commit_lag, spy) at every crash point and lag 0..=2",
            "at the crash after record 1: records[..0] visible, the rest aborted; the fresh sink gets records[0..]",
            "not aborted: output [2]",
            "with barrier_every = 1, crash_after = 1, commit_lag = 1: first sink, after its last call: at the crash after record 1 checkpoint 1 ([2]) was prepared but never notified, and was not aborted: the job called abort(1) on the fresh sink, which never held it; the crash's aborts go to the dead sink, which holds the prepared transactions\n      crash point x commit_lag (ok, or the anomaly):\n                lag 0     lag 1     lag 2\n      no crash  ok        ok        ok\n      after 0   ok        ok        ok\n      after 1   ok        NOABORT   NOABORT\n      reading it: only a crash with a checkpoint prepared and not yet notified fails (lag > 0), and each time the job sent its abort to the fresh sink; look at which sink the crash's aborts go to\n      see it: cargo byo trace 08 --records 1 --barrier-every 1 --crash-after 1 --lag 1 --mine",
        ],
    );
}

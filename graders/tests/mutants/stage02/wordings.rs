//! The wording of stage-02 reports, pinned on the mutants that produce them.

use graders::stage02::{KeyedStateStage, drive};

use super::{KeyFromLast, OneSlot};
use crate::rejects;

/// A restored operator that does not process with the state it restored reads as such,
/// from its own `state()` right after the restore.
#[test]
fn a_restored_state_left_unused_reads_as_such() {
    let report = rejects::<KeyedStateStage>(drive::<OneSlot>, "crash");
    crate::wordings::reads(
        &report,
        "crash",
        [
            "keyed stream (key, value) = [(\"a\", 1), (\"a\", 2)], snapshot and restore after 1 record(s)",
            "SpyEvent { key: \"a\", value: 2, seen: Some([1]) }",
            "SpyEvent { key: \"a\", value: 2, seen: None }",
            "record 1 (\"a\", 2), the first of key \"a\" after the restore: the function saw state None, but the operator restored from the snapshot taken after 1 record(s) holds Some([1]) for that key",
        ],
    );
}

/// A wrong key after a restore reads as the wrong key, not as lost state.
#[test]
fn a_wrong_key_after_a_restore_reads_as_the_wrong_key() {
    let report = rejects::<KeyedStateStage>(drive::<KeyFromLast>, "crash");
    crate::wordings::reads(
        &report,
        "crash",
        [
            "keyed stream (key, value) = [(\"a\", 1), (\"\", 2)], snapshot and restore after 0 record(s)",
            "SpyEvent { key: \"\", value: 2, seen: None }",
            "SpyEvent { key: \"a\", value: 2, seen: None }",
            "record 1 (\"\", 2) was handed key \"a\"",
        ],
    );
}

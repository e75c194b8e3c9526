//! Stage-08 sinks that keep each committed transaction's records and build the visible
//! output from them: in commit order, as the brief asks, or (the mistakes) moving a
//! transaction to the end on a repeated commit, or rebuilding the output in id order on
//! `restore` (the tenth red team's w08-02 and w08-03).

use graders::stage08::{Case, Observation, TransactionalSinkStage, drive};
use rstest::rstest;

use crate::accepted;

/// A sink that keeps the records of every committed transaction and the ids in commit
/// order, and shows their records in that order. `MOVES_ON_REPEAT`: a repeated commit
/// moves its id to the end of the order. `REBUILDS_BY_ID`: the order is not in the
/// snapshot, and `restore` takes the ids in increasing order.
pub mod by_commit_order {
    use std::collections::{BTreeMap, BTreeSet};

    use solution08::{CheckpointId, TwoPhaseCommitSink};

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct Sink<T, const MOVES_ON_REPEAT: bool, const REBUILDS_BY_ID: bool> {
        open: Vec<T>,
        prepared: BTreeMap<CheckpointId, Vec<T>>,
        published: BTreeMap<CheckpointId, Vec<T>>,
        aborted: BTreeSet<CheckpointId>,
        order: Vec<CheckpointId>,
        #[serde(skip, default = "Vec::new")]
        visible: Vec<T>,
    }

    impl<T: Clone, const M: bool, const R: bool> Sink<T, M, R> {
        pub fn new() -> Self {
            Self {
                open: Vec::new(),
                prepared: BTreeMap::new(),
                published: BTreeMap::new(),
                aborted: BTreeSet::new(),
                order: Vec::new(),
                visible: Vec::new(),
            }
        }

        /// The visible output: each published transaction's records, in `order`.
        fn show(&mut self) {
            self.visible = self
                .order
                .iter()
                .flat_map(|id| self.published[id].iter().cloned())
                .collect();
        }
    }

    impl<T: Clone + serde::Serialize, const M: bool, const R: bool> Sink<T, M, R> {
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            Ok(serde_json::to_vec(self)?)
        }
    }

    impl<T: Clone + serde::de::DeserializeOwned, const M: bool, const R: bool> Sink<T, M, R> {
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            let mut sink: Self = serde_json::from_slice(bytes)?;
            if R {
                sink.order = sink.published.keys().copied().collect();
            }
            sink.show();
            Ok(sink)
        }
    }

    impl<T: Clone, const M: bool, const R: bool> TwoPhaseCommitSink<T> for Sink<T, M, R> {
        fn write(&mut self, record: T) {
            self.open.push(record);
        }
        fn pre_commit(&mut self, id: CheckpointId) {
            let sealed = std::mem::take(&mut self.open);
            self.prepared.insert(id, sealed);
        }
        fn commit(&mut self, id: CheckpointId) {
            if let Some(records) = self.prepared.remove(&id) {
                self.published.insert(id, records);
                self.order.push(id);
            } else if M && self.published.contains_key(&id) {
                self.order.retain(|&c| c != id);
                self.order.push(id);
            }
            self.show();
        }
        fn abort(&mut self, id: CheckpointId) {
            if self.prepared.remove(&id).is_some() {
                self.aborted.insert(id);
            }
        }
        fn abort_open(&mut self) {
            self.open.clear();
        }
        fn committed(&self) -> &[T] {
            &self.visible
        }
    }

    /// Correct: commit order kept, and kept through a round trip.
    pub type InCommitOrder<T> = Sink<T, false, false>;
    /// **Mistake:** a repeated commit moves the transaction to the end.
    pub type MovesOnRepeat<T> = Sink<T, true, false>;
    /// **Mistake:** `restore` rebuilds the output in id order.
    pub type RebuildsById<T> = Sink<T, false, true>;
}

slip! {
    /// A sink that shows its committed transactions' records in commit order, kept in
    /// its snapshot: the control the two mistakes below differ from.
    in_commit_order, NONE, InCommitOrder, InCommitOrderSpy,
    crate::stage08::commit_order::by_commit_order::InCommitOrder
}
accepted!(a_sink_keeping_commit_order_passes: TransactionalSinkStage, drive::<InCommitOrder>);

slip! {
    /// **Mistake:** a repeated commit takes the transaction's id out of the commit order
    /// and puts it back at the end ("publish once: keep each id once, the latest"), so a
    /// notification delivered again moves what the table shows (the tenth red team's
    /// w08-02).
    /// **Verdict:** `sink-model`: after `commit(2), commit(1), commit(1), commit(2)`
    /// the output reads `[1, 2]`, not `[2, 1]`.
    moves_on_repeat, NONE, MovesOnRepeat, MovesOnRepeatSpy,
    crate::stage08::commit_order::by_commit_order::MovesOnRepeat
}

slip! {
    /// **Mistake:** the visible output is left out of the snapshot and `restore` rebuilds
    /// it from the committed transactions in id order ("the ids are in order anyway"),
    /// though commit order is not id order (the tenth red team's w08-03).
    /// **Verdict:** `sink-model`: after `commit(2), commit(1)` and a round trip, the
    /// output reads `[1, 2, 3]`, not `[2, 1, 3]` (08-R27).
    rebuilds_by_id, NONE, RebuildsById, RebuildsByIdSpy,
    crate::stage08::commit_order::by_commit_order::RebuildsById
}

/// Each mutant, the check that must reject it and the requirement its failure names.
#[rstest]
#[case::moves_on_repeat(drive::<MovesOnRepeat>, "sink-model", "08-R24")]
#[case::rebuilds_by_id(drive::<RebuildsById>, "sink-model", "08-R27")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    super::rejects_for(drive, check, requirement);
}

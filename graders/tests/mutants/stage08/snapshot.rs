//! Stage-08 sinks whose given `snapshot` and `restore` no longer round-trip once the
//! learner changed the sink's fields (08-R27), and the `snapshot`/`restore` pair the
//! hand-written mutant sinks share.

use graders::stage08::{Case, Observation, TransactionalSinkStage, drive};
use rstest::rstest;

use crate::accepted;

/// The given `snapshot` and `restore` (serde_json of the whole sink) for `$sink`, a sink
/// type generic over its records `T` (and whatever else follows).
macro_rules! by_serde {
    ($sink:ident<T $(, $rest:ident)*>) => {
        impl<T: serde::Serialize $(, $rest)*> $sink<T $(, $rest)*> {
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                Ok(serde_json::to_vec(self)?)
            }
        }
        impl<T: serde::de::DeserializeOwned $(, $rest)*> $sink<T $(, $rest)*> {
            pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
                Ok(serde_json::from_slice(bytes)?)
            }
        }
    };
}
pub(crate) use by_serde;

/// The reference's sink behind a `snapshot` and `restore` of the mutant's own.
macro_rules! wrapped_sink {
    ($(#[$doc:meta])* $name:ident { $($body:tt)* }) => {
        $(#[$doc])*
        pub mod $name {
            use solution08::{CheckpointId, TwoPhaseCommitSink};

            pub struct TransactionalSink<T>(solution08::TransactionalSink<T>);

            impl<T> TransactionalSink<T> {
                pub fn new() -> Self {
                    Self(solution08::TransactionalSink::new())
                }
            }

            impl<T> TwoPhaseCommitSink<T> for TransactionalSink<T> {
                fn write(&mut self, record: T) {
                    self.0.write(record);
                }
                fn pre_commit(&mut self, id: CheckpointId) {
                    self.0.pre_commit(id);
                }
                fn commit(&mut self, id: CheckpointId) {
                    self.0.commit(id);
                }
                fn abort(&mut self, id: CheckpointId) {
                    self.0.abort(id);
                }
                fn abort_open(&mut self) {
                    self.0.abort_open();
                }
                fn committed(&self) -> &[T] {
                    self.0.committed()
                }
            }

            $($body)*
        }
    };
}

wrapped_sink! {
    /// The reference's `snapshot` and `restore` behind the wrapper: a control, so that
    /// the mutants below fail for their mistake, not for the wrapper.
    faithful {
        impl<T: serde::Serialize> TransactionalSink<T> {
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                self.0.snapshot()
            }
        }
        impl<T: serde::de::DeserializeOwned> TransactionalSink<T> {
            pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
                Ok(Self(solution08::TransactionalSink::restore(bytes)?))
            }
        }
    }
}

wrapped_sink! {
    /// **Mistake:** the prepared transactions marked `#[serde(skip)]` (they are "only
    /// in flight"): a restored sink has lost them, and a later commit publishes nothing.
    skips_prepared {
        impl<T: serde::Serialize> TransactionalSink<T> {
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                self.0.snapshot()
            }
        }
        impl<T: serde::de::DeserializeOwned> TransactionalSink<T> {
            pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
                let mut sink: serde_json::Value = serde_json::from_slice(bytes)?;
                sink["transactions"] = serde_json::json!({});
                Ok(Self(solution08::TransactionalSink::restore(&serde_json::to_vec(&sink)?)?))
            }
        }
    }
}

wrapped_sink! {
    /// **Mistake:** the transactions keyed by `(CheckpointId, state)` tuples: the given
    /// `snapshot` then fails, as serde_json writes map keys as strings ("key must be a
    /// string"), and the brief's warning about it goes unread.
    tuple_keys {
        impl<T: serde::Serialize> TransactionalSink<T> {
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                anyhow::bail!("serialising the transactional sink: key must be a string")
            }
        }
        impl<T: serde::de::DeserializeOwned> TransactionalSink<T> {
            pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
                Ok(Self(solution08::TransactionalSink::restore(bytes)?))
            }
        }
    }
}

slip!(
    snapshot_faithful,
    NONE,
    Faithful,
    FaithfulSpy,
    crate::stage08::snapshot::faithful::TransactionalSink
);
accepted!(the_wrapped_reference_sink_passes: TransactionalSinkStage, drive::<Faithful>);
slip!(
    snapshot_skips_prepared,
    NONE,
    SkipsPrepared,
    SkipsPreparedSpy,
    crate::stage08::snapshot::skips_prepared::TransactionalSink
);
slip!(
    snapshot_of_tuple_keys,
    NONE,
    TupleKeys,
    TupleKeysSpy,
    crate::stage08::snapshot::tuple_keys::TransactionalSink
);

/// Each mutant of this file fails `sink-model` on 08-R27 alone (every other check
/// passes: the job never takes a snapshot).
#[rstest]
#[case::snapshot_skips_prepared(drive::<SkipsPrepared>, "sink-model", "08-R27")]
#[case::snapshot_of_tuple_keys(drive::<TupleKeys>, "sink-model", "08-R27")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    super::rejects_for(drive, check, requirement);
}

//! Guarantee labels: what a sink may promise follows from how it makes output durable.
//!
//! Exactly-once is a property of the sink's mechanism, not of a setting: only a sink
//! that holds a checkpoint's output invisible until the completion (an atomic publish or
//! a prepared transaction) can promise it. Asking for it elsewhere is refused, at
//! compile time through [`ExactlyOnce`] and at run time through [`request_guarantee`].
//!
//! ```compile_fail
//! use solution08::committer::ExactlyOnce;
//! use solution08::connectors::{InMemoryTable, UpsertSink};
//! // An upsert sink has no two-phase mechanism: this does not compile.
//! let sink = UpsertSink::<u8, u32>::new(InMemoryTable::shared());
//! let _ = ExactlyOnce::new(sink);
//! ```

use std::fmt;

use anyhow::{Result, bail};

use super::verbs::CommittingSink;

/// How a sink makes a checkpoint's output durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mechanism {
    /// Stage an artifact at the barrier, publish it atomically at the commit (shape A).
    AtomicPublish,
    /// Prepare an external transaction at the barrier, commit it at the commit (shape B).
    TwoPhaseTransaction,
    /// Write keyed by a primary key, so that a replay overwrites itself (shape C).
    IdempotentUpsert,
    /// Append on write; a replay appends again.
    PlainAppend,
}

/// The promise a sink can honestly make about each record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DeliveryGuarantee {
    /// Every record is visible exactly once, and never before its checkpoint completed.
    ExactlyOnce,
    /// Replays happen but converge: the final state is as if each record applied once
    /// (for a stable primary key and a deterministic input).
    EffectivelyOnce,
    /// Every record is visible, some possibly more than once.
    AtLeastOnce,
}

impl Mechanism {
    /// The strongest guarantee this mechanism supports.
    pub const fn guarantee(self) -> DeliveryGuarantee {
        match self {
            Mechanism::AtomicPublish | Mechanism::TwoPhaseTransaction => {
                DeliveryGuarantee::ExactlyOnce
            }
            Mechanism::IdempotentUpsert => DeliveryGuarantee::EffectivelyOnce,
            Mechanism::PlainAppend => DeliveryGuarantee::AtLeastOnce,
        }
    }
}

impl fmt::Display for DeliveryGuarantee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeliveryGuarantee::ExactlyOnce => "exactly_once",
            DeliveryGuarantee::EffectivelyOnce => "effectively_once",
            DeliveryGuarantee::AtLeastOnce => "at_least_once",
        })
    }
}

/// Marker for sinks with a two-phase or atomic-publish mechanism; only these may be
/// wrapped in [`ExactlyOnce`].
pub trait ExactlyOnceCapable: CommittingSink {}

/// A sink that was asked for, and can give, exactly-once delivery.
#[derive(Debug)]
pub struct ExactlyOnce<S>(S);

impl<S: ExactlyOnceCapable> ExactlyOnce<S> {
    /// Labels `sink` exactly-once.
    pub fn new(sink: S) -> Self {
        // Second line of defence: a marker impl on the wrong sink fails the build here.
        const {
            assert!(
                matches!(S::MECHANISM.guarantee(), DeliveryGuarantee::ExactlyOnce),
                "ExactlyOnceCapable implemented by a sink without a two-phase mechanism"
            );
        }
        Self(sink)
    }

    /// The sink, to hand to a [`super::CommitterOperator`].
    pub fn into_inner(self) -> S {
        self.0
    }
}

/// The guarantee a sink of type `S` runs with when `requested` is asked for (e.g. from
/// a `delivery_guarantee` option in a job's configuration).
///
/// # Errors
/// When `requested` is stronger than what `S`'s mechanism supports; the message names
/// the option, the mechanism and what it can offer.
pub fn request_guarantee<S: CommittingSink>(
    requested: DeliveryGuarantee,
) -> Result<DeliveryGuarantee> {
    let offered = S::MECHANISM.guarantee();
    // The enum is ordered strongest first.
    if requested < offered {
        bail!(
            "delivery_guarantee {requested} is more than this sink's mechanism ({:?}) \
             offers: at most {offered}; exactly_once needs a two-phase or atomic-publish sink",
            S::MECHANISM
        );
    }
    Ok(requested)
}

//! Guarantee labels: what a sink may promise follows from how it makes output durable.
//!
//! Exactly-once is a property of the sink's mechanism, not of a setting: only a sink
//! that holds a checkpoint's output invisible until the completion (an atomic publish or
//! a prepared transaction) can promise it. Asking for it elsewhere is refused, at
//! compile time through [`ExactlyOnce`] and at run time through [`request_guarantee`].
//!
//! ```compile_fail,E0277
//! use committer::ExactlyOnce;
//! use committer::connectors::{InMemoryTable, UpsertSink};
//! // An upsert sink has no two-phase mechanism: `UpsertSink: ExactlyOnceCapable` does
//! // not hold (E0277, trait bound not satisfied), so this does not compile.
//! let sink = UpsertSink::<u8, u32>::new(InMemoryTable::shared());
//! let _ = ExactlyOnce::new(sink);
//! ```

use anyhow::{Result, bail};

use crate::mechanism::DeliveryGuarantee;
use crate::verbs::CommittingSink;

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

    /// The sink, to hand to a [`crate::CommitterOperator`].
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

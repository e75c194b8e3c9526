//! Mechanisms and the guarantees they support: what a sink may promise follows from
//! how it makes output durable.
//!
//! Plain data, below the verbs: a connector names its mechanism
//! ([`CommittingSink::MECHANISM`](crate::CommittingSink::MECHANISM)), and the labels in
//! `guarantee.rs` read it.

use std::fmt;

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

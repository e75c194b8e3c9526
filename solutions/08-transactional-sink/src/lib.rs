//! Stage 08 reference · transactional sink: output becomes visible only when the
//! checkpoint that covers it completes.
//!
//! **Law (end-to-end exactly-once).** Whatever crashes, and wherever, the external system
//! ends up holding every input record exactly once: records of a checkpoint are published
//! only after that checkpoint's completion, a published handle is never published twice,
//! and a handle persisted in a completed checkpoint is never lost.
//!
//! The [`committer`] module is the framework a real engine uses for this (connector
//! verbs, a base that owns the two-phase choreography, durable handle bookkeeping,
//! recovery and rescale succession); [`connectors`] holds its in-memory adopters, one per
//! delivery shape.

pub mod committer;
pub mod connectors;

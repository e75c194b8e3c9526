//! Stage 06's cards for the contract's edges: every input stopped while one is blocked,
//! a single input taken to need no checkpoint, 0 inputs accepted, unreadable bytes taken
//! for a fresh aligner, a schedule past an input's end taken for its end.

use super::{Card, Clue, Signature};

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "06-stop-the-world",
        stage: 6,
        title: "While one input is blocked, every input waits",
        why: "Only an input that delivered Barrier(c) is past the cut: what the others deliver \
              is still before it, belongs in snapshot c, and must reach the operator now, or \
              the alignment that waits for their barriers stalls the whole job. Stopping the \
              world is what alignment avoids.",
        reread: "Task",
        signatures: &[Signature {
            check: "alignment",
            fault: "wrong result",
            clues: &[
                Clue::Step("which is not blocked: it must come straight out"),
                Clue::Missing(true),
            ],
        }],
    },
    Card {
        id: "06-one-input-needs-no-checkpoint",
        stage: 6,
        title: "With a single input there is nothing to align, so no checkpoint either",
        why: "The checkpoint is what the operator snapshots at: with one input every Barrier(c) \
              is the last one missing, so it gives Checkpoint(c) at once. Without it a \
              single-input job never takes a snapshot.",
        reread: "Task",
        signatures: &[Signature {
            check: "alignment",
            fault: "wrong result",
            clues: &[
                Clue::Step("must come out in this very call"),
                Clue::Not(&Clue::Case("input 1 = ")),
            ],
        }],
    },
    Card {
        id: "06-zero-inputs-are-harmless",
        stage: 6,
        title: "An aligner of 0 inputs is harmless",
        why: "With no input no barrier ever arrives, so no checkpoint ever completes: the job \
              would run without ever taking a snapshot. The brief makes new(0) an error whose \
              message names `inputs`.",
        reread: "Task",
        signatures: &[Signature {
            check: "configuration",
            fault: "wrong result",
            clues: &[Clue::Case("BarrierAligner::new(0)"), Clue::Actual("Ok")],
        }],
    },
    Card {
        id: "06-unreadable-snapshot-is-fresh",
        stage: 6,
        title: "Bytes restore cannot read mean there was no snapshot yet",
        why: "A fresh aligner expects checkpoint 1: restored from bytes that are no snapshot, a \
              job would redo every checkpoint since the start and refuse the barriers its \
              inputs replay. restore of bytes that are not a snapshot is an error.",
        reread: "Task",
        signatures: &[Signature {
            check: "configuration",
            fault: "wrong result",
            clues: &[
                Clue::Case("bytes that are no snapshot"),
                Clue::Actual("Ok("),
            ],
        }],
    },
    Card {
        id: "06-schedule-past-the-end-is-the-end",
        stage: 6,
        title: "A schedule that asks past an input's end has simply reached the end",
        why: "The schedule says which input delivers next: naming an input that has nothing left \
              means the schedule and the inputs disagree, and the snapshots would be of a run \
              that never happened. The brief makes it an error.",
        reread: "Task",
        signatures: &[Signature {
            check: "configuration",
            fault: "wrong result",
            clues: &[Clue::Case("has one element"), Clue::Actual("Ok(")],
        }],
    },
];

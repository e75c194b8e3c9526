//! Stage 06's cards: snapshots taken before alignment, inputs not blocked or never
//! unblocked, held-back elements released in the wrong order or not re-fed.

use super::{Card, Clue, Signature};

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "06-first-barrier-snapshots",
        stage: 6,
        title: "The snapshot can be taken when the first input delivers the barrier",
        why: "Snapshot c must fold exactly the records before Barrier(c) on every input: until \
              the last input delivers its barrier, records of that input before the barrier are \
              still to come. Checkpoint(c) comes out in the call that delivers the last one.",
        reread: "Task",
        signatures: &[Signature {
            check: "alignment",
            fault: "wrong result",
            clues: &[Clue::Step("have not delivered Barrier("), Clue::Extra(true)],
        }],
    },
    Card {
        id: "06-barriers-come-in-order",
        stage: 6,
        title: "Barriers always come in order, so any barrier is the one awaited",
        why: "A barrier out of turn means a lost or duplicated barrier upstream: taking it for \
              the awaited one aligns the wrong cut. The brief makes it an error.",
        reread: "Task",
        signatures: &[Signature {
            check: "configuration",
            fault: "wrong result",
            clues: &[Clue::Case("comes first"), Clue::Actual("Ok(")],
        }],
    },
    Card {
        id: "06-no-blocking",
        stage: 6,
        title: "An input that delivered its barrier can go on flowing",
        why: "What an input sends after Barrier(c) belongs to checkpoint c + 1: let through \
              before Checkpoint(c), it ends up in snapshot c and is replayed again after a \
              restore. The input is blocked, its elements held back, until Checkpoint(c).",
        reread: "Task",
        signatures: &[Signature {
            check: "alignment",
            fault: "wrong result",
            clues: &[Clue::Step("while it is blocked"), Clue::Extra(true)],
        }],
    },
    Card {
        id: "06-release-then-checkpoint",
        stage: 6,
        title: "The held-back records can go out just before the checkpoint",
        why: "Everything before Checkpoint(c) in the output belongs to snapshot c: the held-back \
              elements are after Barrier(c) on their inputs, so they come out after \
              Checkpoint(c), in arrival order.",
        reread: "Task",
        signatures: &[Signature {
            check: "alignment",
            fault: "wrong result",
            clues: &[Clue::Step("came out before Checkpoint(")],
        }],
    },
    Card {
        id: "06-held-back-barriers-are-data",
        stage: 6,
        title: "After a checkpoint, the held-back elements can simply be passed on",
        why: "The held-back elements are re-fed as if arriving now: a held-back Barrier(c + 1) \
              blocks its input again, which a record passed on as output never does, and \
              checkpoint c + 1 never aligns.",
        reread: "Task",
        signatures: &[Signature {
            check: "alignment",
            fault: "wrong result",
            clues: &[
                Clue::Expected("is_blocked("),
                Clue::Expected("= true"),
                Clue::Step("delivered Barrier("),
                // A held-back barrier is one of a later checkpoint: an input not blocked
                // by its first barrier reads `is_blocked` another way (as "holds data").
                Clue::Not(&Clue::Step("delivered Barrier(1) and")),
            ],
        }],
    },
    Card {
        id: "06-buffer-order-does-not-matter",
        stage: 6,
        title: "The held-back elements can be re-fed in any order",
        why: "Re-feeding is a replay of the held-back elements as they arrived, across all \
              inputs: newest first, a held-back barrier is re-fed before the records that came \
              before it, blocks the input again and holds them back for the next checkpoint; \
              input by input, the operator sees an order no run without the alignment has.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "alignment",
                fault: "wrong result",
                clues: &[
                    Clue::Step("must be re-fed"),
                    Clue::Missing(true),
                    // Missing after the checkpoint is also what a release deferred to the
                    // next call gives; only reordered elements show the order was the
                    // mistake.
                    Clue::Fails(
                        "contract",
                        &[Clue::Test(
                            super::stage06_edges::reordered,
                            "the same elements in another order",
                        )],
                    ),
                ],
            },
            Signature {
                check: "contract",
                fault: "wrong result",
                clues: &[
                    Clue::Step("the output differs from what the brief fixes"),
                    Clue::Step("holding back ["),
                    Clue::Test(
                        super::stage06_edges::reordered,
                        "the same elements in another order",
                    ),
                ],
            },
        ],
    },
    Card {
        id: "06-blocked-for-good",
        stage: 6,
        title: "Once a checkpoint is out, blocked inputs take care of themselves",
        why: "Completing Checkpoint(c) unblocks every input blocked for it: an input left blocked \
              holds back all it sends from then on, and no later checkpoint completes.",
        reread: "Task",
        signatures: &[Signature {
            check: "alignment",
            fault: "wrong result",
            clues: &[
                Clue::Expected("is_blocked("),
                Clue::Expected("= false"),
                Clue::Step("no checkpoint is waiting"),
                // Blocked after it took part: an input reported blocked before it sent
                // anything is a slip of bookkeeping (a bitmask too narrow), not this belief.
                Clue::Test(
                    super::stage06_edges::asked_input_has_arrived,
                    "the input asked about had delivered an element",
                ),
            ],
        }],
    },
    Card {
        id: "06-restore-from-scratch",
        stage: 6,
        title: "A restored aligner starts afresh, expecting the first barrier",
        why: "The restored aligner continues from the snapshot's checkpoint: the inputs are \
              replayed from just after Barrier(c), so the next barrier it sees is c + 1, and the \
              snapshot must say so.",
        reread: "Task",
        signatures: &[Signature {
            check: "crash",
            fault: "wrong result",
            clues: &[
                Clue::Step("restored from checkpoint"),
                Clue::Actual("Err("),
                // The replay's next barrier refused could also be a snapshot ahead of its
                // checkpoint; a restored aligner that takes Barrier(1) again started afresh.
                Clue::Fails(
                    "configuration",
                    &[Clue::Step("the restored aligner expects checkpoint")],
                ),
            ],
        }],
    },
    Card {
        id: "06-zero-means-no-barriers",
        stage: 6,
        title: "barrier_every = 0 means \"no barriers\"",
        why: "A job without barriers takes no checkpoint and cannot recover: 0 is a \
              configuration error whose message names `barrier_every`, not a quiet way to \
              turn checkpoints off.",
        reread: "Task",
        signatures: &[Signature {
            check: "configuration",
            fault: "wrong result",
            clues: &[Clue::Case("inject_barriers("), Clue::Actual("Ok(")],
        }],
    },
    Card {
        id: "06-barrier-before-its-record",
        stage: 6,
        title: "Barrier(c) goes in front of record c × barrier_every",
        why: "Barrier(c) follows record number c × barrier_every: the checkpoint covers that \
              record, and a job whose input ends there still gets its last barrier.",
        reread: "Task",
        signatures: &[Signature {
            check: "inject-barriers",
            fault: "wrong result",
            clues: &[Clue::Step("should be Barrier("), Clue::Missing(true)],
        }],
    },
    Card {
        id: "06-schedule-delivers-everything",
        stage: 6,
        title: "A schedule always delivers every element of the inputs",
        why: "A schedule is what a job saw up to some point, and a job that crashed saw only \
              a prefix of its inputs: the elements after it have not arrived yet. The result is \
              the checkpoints completed by then, not an error.",
        reread: "Task",
        signatures: &[Signature {
            check: "aligned-snapshots",
            fault: "wrong result",
            clues: &[Clue::Step("may stop before the inputs are exhausted")],
        }],
    },
    Card {
        id: "06-snapshots-from-the-whole-input",
        stage: 6,
        title: "Each snapshot can be folded from the whole input, without aligning",
        why: "A checkpoint exists only once the schedule has delivered Barrier(c) on every \
              input: with a schedule cut short, only the checkpoints completed by then count, \
              which the inputs alone cannot tell.",
        reread: "Task",
        signatures: &[Signature {
            check: "aligned-snapshots",
            fault: "wrong result",
            clues: &[
                Clue::Step("with the first 0 arrival(s)"),
                Clue::Step("not complete yet"),
            ],
        }],
    },
    Card {
        id: "06-out-of-turn-is-one-off",
        stage: 6,
        title: "Out of turn means one ahead or one behind",
        why: "A barrier out of turn is any barrier other than the one being aligned (or, when \
              nothing is, the next one): one ahead and one behind are the brief's examples, not \
              the list. Barrier(u64::MAX) on a fresh aligner is as far out of turn as it gets.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[
                Clue::Case("B18446744073709551615"),
                Clue::Step("out of turn"),
                Clue::Actual("Ok("),
            ],
        }],
    },
    Card {
        id: "06-no-checkpoint-no-snapshot",
        stage: 6,
        title: "A snapshot that records no completed checkpoint is no snapshot",
        why: "snapshot() holds which checkpoint was completed last, and before the first one \
              that is none: restoring it gives an aligner that expects Barrier(1), as a job that \
              crashed before its first checkpoint starts over.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[
                Clue::Step("restore("),
                Clue::Step("expecting Barrier(1), nothing blocked"),
                Clue::Actual("Err("),
                Clue::Passes("crash"),
            ],
        }],
    },
    Card {
        id: "06-snapshot-would-lose-held-back",
        stage: 6,
        title: "A snapshot taken while elements are held back would lose them",
        why: "Held-back elements are after the cut: recovery replays every input from just after \
              its barrier and delivers them again. So buffers are not part of the snapshot, and \
              a snapshot in the middle of an alignment is as valid as any.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "contract",
                fault: "wrong result",
                clues: &[
                    Clue::Step("restore("),
                    Clue::Step("holding back ["),
                    Clue::Not(&Clue::Step("holding back []")),
                    Clue::Actual("Err("),
                    Clue::Passes("crash"),
                ],
            },
            Signature {
                // The same refusal met first by the aligners that completed one checkpoint,
                // one of them half through the next.
                check: "crash",
                fault: "wrong result",
                clues: &[
                    Clue::Step("a1 held back), then snapshot()"),
                    Clue::Actual("Err("),
                ],
            },
        ],
    },
    Card {
        id: "06-unusable-after-an-error",
        stage: 6,
        title: "After an error, the aligner need not be usable",
        why: "Errors, never panics: a refused call returns its error and leaves an aligner that \
              still answers, with an error or a result, whatever comes next. A job that logs a \
              bad barrier and goes on must not crash on its next element.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[
                Clue::Step("an earlier call was refused"),
                Clue::Actual("panicked"),
            ],
        }],
    },
];

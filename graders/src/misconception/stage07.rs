//! Stage 07's cards: checkpoints of the wrong prefix, restart points not taken from the
//! store, memory that survives a crash, and completions that ignore the commit lag.

use super::{Card, Clue, Signature, Symptom, between};

/// The store restored an older completed checkpoint than the latest.
fn older_checkpoint(s: &Symptom) -> bool {
    let id = |text: &str| -> Option<u64> { between(text, "checkpoint ", ",")?.parse().ok() };
    matches!((id(s.expected), id(s.actual)), (Some(e), Some(a)) if a < e)
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "07-barrier-before-its-record",
        stage: 7,
        title: "The checkpoint of a barrier is taken before its record is counted",
        why: "Checkpoint c covers records 0..c × barrier_every, the barrier's own record \
              included, and its offset is where the replay resumes: a snapshot without that \
              record loses it at every restart.",
        reread: "Task",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[Clue::Step("before the barrier's own record")],
        }],
    },
    Card {
        id: "07-restart-without-the-store",
        stage: 7,
        title: "After a crash the job knows where to resume without asking the store",
        why: "A crashed process takes all it knew with it: the only memory a restarted job has is \
              the store, so recovery asks latest_completed() and resumes from what it hands out.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "checkpoints",
                fault: "wrong result",
                clues: &[
                    Clue::Step("never asked the store"),
                    // The smallest case is a crash after the last record, which a job that
                    // skips recovery only there fails too: the contract's smallest failure
                    // must be a crash elsewhere, or no crash at all.
                    Clue::Fails(
                        "contract",
                        &[Clue::Not(&Clue::Test(
                            super::stage07_edges::crash_at_the_end,
                            "a crash after the last record",
                        ))],
                    ),
                ],
            },
            // It asked, but resumed where it remembered being: seen only when the store
            // hands out another checkpoint than the one the job completed last.
            Signature {
                check: "contract",
                fault: "wrong result",
                clues: &[Clue::Step("whatever the dead job remembered")],
            },
        ],
    },
    Card {
        id: "07-restore-the-last-saved",
        stage: 7,
        title: "Recovery can restore the last checkpoint the job saved",
        why: "A checkpoint is only durable once it has completed: an in-flight one may never \
              complete, and resuming from it skips records whose effects nobody kept. Recovery \
              restores the latest completed checkpoint.",
        reread: "The invariant",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[
                Clue::Step("after the crash"),
                Clue::Step("was never saved"),
                // A replay that resumed past records no completed checkpoint covers.
                Clue::Fails(
                    "at-least-once-output",
                    &[
                        Clue::Step("no checkpoint had completed"),
                        Clue::Missing(true),
                    ],
                ),
            ],
        }],
    },
    Card {
        id: "07-replay-from-zero",
        stage: 7,
        title: "After restoring the counts, the input is read again from the start",
        why: "The restored counts already hold records 0..offset: the replay resumes at the \
              checkpoint's offset, or those records are counted twice (and their checkpoints \
              saved again).",
        reread: "The invariant",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[
                Clue::Case("crash_after Some("),
                Clue::Step("the run should be over"),
                Clue::Actual("save("),
            ],
        }],
    },
    Card {
        id: "07-memory-survives-the-crash",
        stage: 7,
        title: "The counts in memory are still there after the crash",
        why: "A crash loses everything in memory: the job must behave as a fresh process that \
              has only the store, and rebuild its counts from the checkpoint's bytes (or from \
              nothing, without one).",
        reread: "Constraints",
        signatures: &[
            Signature {
                check: "checkpoints",
                fault: "wrong result",
                clues: &[Clue::Step("after the crash"), Clue::Step("saved counts")],
            },
            Signature {
                check: "at-least-once-output",
                fault: "wrong result",
                clues: &[Clue::Step("counts in memory")],
            },
        ],
    },
    Card {
        id: "07-state-objects-need-no-bytes",
        stage: 7,
        title: "The store can keep my state as it is; serialising it is a formality",
        why: "A checkpoint outlives the process that wrote it: its state must be bytes another \
              process can read back (JSON of the counts), or there is nothing to restore.",
        reread: "Task",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[Clue::Step("is not JSON")],
        }],
    },
    Card {
        id: "07-crash-past-the-end-is-no-crash",
        stage: 7,
        title: "A crash point past the end of the input just means no crash",
        why: "A crash point past the end is a mistake in the caller's arguments: running without \
              a crash hides it. The brief makes it an error that names `crash_after`, before \
              anything runs.",
        reread: "Task",
        signatures: &[Signature {
            check: "arguments",
            fault: "wrong result",
            clues: &[
                Clue::Expected("`crash_after`"),
                Clue::Actual("Ok("),
                Clue::Not(&Clue::Step("run_with_recovery accepted")),
                // A crash point of 2^32 let through is a count squeezed into a `u32`.
                Clue::Not(&Clue::Case("4294967296")),
            ],
        }],
    },
    Card {
        id: "07-convenience-may-simplify",
        stage: 7,
        title: "run_with_recovery is a shortcut, so it can leave out what it does not need",
        why: "run_with_recovery is run_with_recovery_in with your own store: every argument, the \
              crash point included, must reach it unchanged, or the job graded with your store \
              is not the job you wrote.",
        reread: "Task",
        signatures: &[Signature {
            check: "arguments",
            fault: "wrong result",
            clues: &[Clue::Step("run_with_recovery accepted")],
        }],
    },
    Card {
        id: "07-complete-at-once",
        stage: 7,
        title: "A checkpoint is complete as soon as it is saved",
        why: "Completion is the acknowledgement that comes commit_lag barriers later: until \
              then a crash must fall back to the previous completed checkpoint, which is what \
              makes the lag visible in the output.",
        reread: "Task",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[
                Clue::Step("came too early"),
                // A job that completes what is in flight just before a crash at the end
                // fails the smallest case alike; only a run without a crash, which the
                // contract's smallest failure is here, shows completions ahead of the lag.
                Clue::Fails("contract", &[Clue::Step("came too early")]),
            ],
        }],
    },
    Card {
        id: "07-in-flight-at-the-end",
        stage: 7,
        title: "Checkpoints still in flight when the input ends can be left alone",
        why: "At the end of the input the job completes every checkpoint still in flight: \
              otherwise its last records are never covered by a completed checkpoint.",
        reread: "Task",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[Clue::Step("never completed")],
        }],
    },
    Card {
        id: "07-first-completed",
        stage: 7,
        title: "Any completed checkpoint is a good one to restore",
        why: "latest_completed() returns the completed checkpoint with the highest id: an older \
              one replays records whose effects a newer checkpoint already holds.",
        reread: "Task",
        signatures: &[Signature {
            check: "store",
            fault: "wrong result",
            clues: &[
                Clue::Test(older_checkpoint, "an older completed checkpoint"),
                // The one completed last answered is "latest" read as "last": another belief.
                Clue::Not(&Clue::Test(
                    super::stage07_recovery::last_completion_answered,
                    "the checkpoint completed last answered",
                )),
                // One at a higher offset answered is "latest" read as "furthest": another.
                Clue::Not(&Clue::Test(
                    super::stage07_recovery::higher_offset_answered,
                    "a lower id at a higher offset answered",
                )),
            ],
        }],
    },
    Card {
        id: "07-the-crash-comes-first",
        stage: 7,
        title: "A crash after record k comes before the barrier that follows record k",
        why: "crash_after = k means the job dies after record k and its barrier: the checkpoint \
              that barrier takes is saved before the crash, so recovery finds it and replays \
              less. Checking for the crash before the barrier loses that checkpoint.",
        reread: "Task",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[Clue::Step("the protocol makes this save before the crash")],
        }],
    },
    Card {
        id: "07-save-is-a-put",
        stage: 7,
        title: "Saving a checkpoint is a put: a second save of an id just replaces it",
        why: "A completed checkpoint is what a recovery restores, and it may already have: \
              overwriting it changes the state and offset a restart starts from behind the \
              job's back. The store refuses a save of an id that already completed.",
        reread: "Task",
        signatures: &[Signature {
            check: "store",
            fault: "wrong result",
            clues: &[
                Clue::Expected("is already completed"),
                Clue::Actual("Ok("),
                // A store that forgot an older completed checkpoint, not one that lets
                // every save through.
                Clue::Not(&Clue::Test(
                    super::stage07_edges::older_completed_forgotten,
                    "a re-save of an older completed id",
                )),
                // The save replaced what a recovery reads; one accepted and then ignored
                // is another mistake (a refusal forgotten, not a put).
                Clue::Not(&Clue::Step("latest_completed() still reads")),
            ],
        }],
    },
];

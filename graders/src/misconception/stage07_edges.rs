//! Stage 07's cards at the edges of the protocol: a store that freezes or forgets the
//! wrong checkpoints, a replay that keeps the dead attempt's queue or ids, output taken
//! for exactly-once, and arguments refused too late or without a name.

use super::{Card, Clue, Signature, Symptom, between};

/// The store operation a `store` failure names, and the operations before it: from
/// "operation 3 (Complete(1)) after [Save(1), Complete(1)]...".
fn store_op<'a>(s: &Symptom<'a>) -> Option<(&'a str, Vec<&'a str>)> {
    let op = between(s.step, " (", ") after [")?;
    let before = between(s.step, ") after [", "]")?;
    let before = before
        .split(", ")
        .filter(|o| !o.is_empty())
        .collect::<Vec<_>>();
    Some((op, before))
}

/// The id of an operation written `Save(1)` or `Complete(1)`, if it is of that kind.
fn id_of(op: &str, kind: &str) -> Option<u64> {
    between(op, &format!("{kind}("), ")")?.parse().ok()
}

/// The save a `latest_completed()` answer holds, `(id, version)`, from its payload
/// `state "s1.0"` (the grader names the n-th save of id i `si.n`).
fn payload(text: &str) -> Option<(u64, u64)> {
    let (id, version) = between(text, "state \"s", "\"")?.split_once('.')?;
    Some((id.parse().ok()?, version.parse().ok()?))
}

/// `latest_completed()` holds an earlier save of the id than the last one made while it
/// was in flight: a second save of an in-flight id was not kept.
fn earlier_save_kept(s: &Symptom) -> bool {
    matches!(
        (payload(s.expected), payload(s.actual)),
        (Some((e, ev)), Some((a, av))) if e == a && av < ev
    ) && s.step.contains("then latest_completed()")
}

/// `latest_completed()` holds the payload of a save made after the id had completed,
/// which the store refused: the refused save wrote first.
fn refused_save_written(s: &Symptom) -> bool {
    let Some((op, before)) = store_op(s) else {
        return false;
    };
    let Some(id) = id_of(op, "Save") else {
        return false;
    };
    before.iter().any(|o| id_of(o, "Complete") == Some(id))
        && matches!(
            (payload(s.expected), payload(s.actual)),
            (Some((e, ev)), Some((a, av))) if e == id && a == id && av > ev
        )
}

/// A second completion of an id already completed failed.
fn second_completion_refused(s: &Symptom) -> bool {
    let Some((op, before)) = store_op(s) else {
        return false;
    };
    s.step.contains("a valid call failed")
        && id_of(op, "Complete")
            .is_some_and(|id| before.iter().any(|o| id_of(o, "Complete") == Some(id)))
}

/// A completion of an id never saved was accepted.
fn unknown_completion_accepted(s: &Symptom) -> bool {
    let Some((op, before)) = store_op(s) else {
        return false;
    };
    s.step.contains("must be refused")
        && id_of(op, "Complete")
            .is_some_and(|id| !before.iter().any(|o| id_of(o, "Save") == Some(id)))
}

/// A save of a completed id was accepted where a higher id had completed since: the
/// store forgot the older completed checkpoint. (A store that lets every save through
/// fails first on the re-save of the only completed id.)
pub(super) fn older_completed_forgotten(s: &Symptom) -> bool {
    let Some((op, before)) = store_op(s) else {
        return false;
    };
    let Some(id) = id_of(op, "Save") else {
        return false;
    };
    let completed = |o: &&str| id_of(o, "Complete");
    s.step.contains("must be refused")
        && before.iter().filter_map(completed).any(|c| c == id)
        && before.iter().filter_map(completed).any(|c| c > id)
}

/// The smallest case crashes after its last record (`crash_after` equal to the number of
/// words): a job that takes such a crash for no crash at all never recovers, which reads
/// as a recovery that never asked the store.
pub(super) fn crash_at_the_end(s: &Symptom) -> bool {
    let words = between(s.case, "words [", "]").map(|w| w.split_whitespace().count());
    let crash = between(s.case, "crash_after Some(", ")").and_then(|n| n.parse::<usize>().ok());
    matches!((words, crash), (Some(w), Some(c)) if w == c)
}

/// The replay saved a checkpoint at the right offset under a lower id than the protocol's.
fn ids_restarted(s: &Symptom) -> bool {
    let save = |text: &str| -> Option<(u64, u64)> {
        let id = between(text, "save(", ",")?.parse().ok()?;
        let offset = between(text, "offset ", ",")?.parse().ok()?;
        Some((id, offset))
    };
    s.step.contains("after the crash")
        && matches!(
            (save(s.expected), save(s.actual)),
            (Some((e, eo)), Some((a, ao))) if a < e && ao == eo
        )
}

/// A completion of a newer checkpoint where the oldest in flight completes.
fn newer_completed(s: &Symptom) -> bool {
    let id = |text: &str| -> Option<u64> { between(text, "complete(", ")")?.parse().ok() };
    s.step.contains("(the oldest in flight)")
        && matches!((id(s.expected), id(s.actual)), (Some(e), Some(a)) if a > e)
}

/// An extra save, at the end of the input, where no barrier falls: its offset is the
/// input's length and no multiple of `barrier_every`.
fn save_at_the_end(s: &Symptom) -> bool {
    let words = between(s.case, "over words [", "]")
        .map(|w| w.split(' ').filter(|w| !w.is_empty()).count());
    let every: Option<u64> = between(s.case, "barrier_every ", ",").and_then(|e| e.parse().ok());
    let offset: Option<u64> = between(s.actual, "offset ", ",").and_then(|o| o.parse().ok());
    s.step.contains("the run should be over")
        && matches!(
            (words, every, offset),
            (Some(n), Some(e), Some(o)) if o == n as u64 && o % e != 0
        )
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "07-saved-is-frozen",
        stage: 7,
        title: "A saved checkpoint never changes, even one still in flight",
        why: "Only a completed checkpoint can have been restored, so only it is frozen. One \
              still in flight at a crash is taken again by the replay under the same id, and \
              that later save replaces it: keeping the first one completes a state the \
              restarted job never had.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "store",
                fault: "wrong result",
                clues: &[Clue::Test(
                    earlier_save_kept,
                    "an earlier save of the id kept",
                )],
            },
            Signature {
                check: "store",
                fault: "wrong result",
                clues: &[Clue::Test(
                    super::stage07_recovery::in_flight_resave_refused,
                    "a second save of an in-flight id refused",
                )],
            },
        ],
    },
    Card {
        id: "07-complete-only-once",
        stage: 7,
        title: "Completing a checkpoint twice is a mistake the store must refuse",
        why: "A completion is an acknowledgement, and an acknowledgement can arrive again (a \
              retry after a timeout): completing twice is fine, a no-op, so that a repeated \
              acknowledgement never fails a job whose checkpoint is durable.",
        reread: "Task",
        signatures: &[Signature {
            check: "store",
            fault: "wrong result",
            clues: &[Clue::Test(
                second_completion_refused,
                "a second completion refused",
            )],
        }],
    },
    Card {
        id: "07-unknown-completion-is-harmless",
        stage: 7,
        title: "Completing a checkpoint the store never saved can just be ignored",
        why: "A completion names a checkpoint that must exist, which is why each barrier saves \
              before it completes: completing an unknown id means the protocol went wrong, and \
              an error says so, where ignoring it lets the job believe a checkpoint is durable \
              that nobody holds.",
        reread: "Task",
        signatures: &[Signature {
            check: "store",
            fault: "wrong result",
            clues: &[Clue::Test(
                unknown_completion_accepted,
                "a completion of an id never saved accepted",
            )],
        }],
    },
    Card {
        id: "07-only-the-latest-is-kept",
        stage: 7,
        title: "Only the latest completed checkpoint matters: the store can forget older ones",
        why: "A completed checkpoint never changes, the older ones too: a recovery may already \
              have restored one, so saving its id again is an error. A store that forgot it \
              lets a later save rewrite a restart point behind the job's back.",
        reread: "Task",
        signatures: &[Signature {
            check: "store",
            fault: "wrong result",
            clues: &[Clue::Test(
                older_completed_forgotten,
                "a re-save of an older completed id accepted",
            )],
        }],
    },
    Card {
        id: "07-an-error-after-the-work",
        stage: 7,
        title: "A refused call only has to end in an error; what it did first does not matter",
        why: "Whoever gets an error assumes nothing happened: a refused save must change \
              nothing, and an invalid run is refused before any store call. A save made before \
              the refusal stays in the store, where a later recovery finds it.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "arguments",
                fault: "wrong result",
                clues: &[Clue::Expected("no store call")],
            },
            Signature {
                check: "store",
                fault: "wrong result",
                clues: &[Clue::Test(
                    refused_save_written,
                    "a refused save's payload restored",
                )],
            },
        ],
    },
    Card {
        id: "07-any-error-will-do",
        stage: 7,
        title: "Refusing bad arguments is enough; the message is a detail",
        why: "An error is read by whoever has to fix the call: its message names the argument \
              (`barrier_every`, `crash_after`), as the brief asks, not just the bad value.",
        reread: "Task",
        signatures: &[Signature {
            check: "arguments",
            fault: "wrong result",
            clues: &[Clue::Step("does not say which argument is wrong")],
        }],
    },
    Card {
        id: "07-crash-after-the-last-is-past-the-end",
        stage: 7,
        title: "A crash after the last record is past the end of the input",
        why: "crash_after = k counts the records done before the crash: k = words.len() is a \
              crash after the last record, before the end-of-input completions, and a valid \
              run. Only a k above the input's length is an error.",
        reread: "Task",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[Clue::Step(
                "is a valid run: only crash_after > words.len() is an error",
            )],
        }],
    },
    Card {
        id: "07-ids-restart-after-the-crash",
        stage: 7,
        title: "The restarted job numbers its checkpoints from 1 again, like a new job",
        why: "Checkpoint ids follow the offsets, across the crash too: checkpoint c is at \
              offset c × barrier_every. A replay that counts from 1 again reuses ids the store \
              may have completed, which it refuses, and its ids no longer say which prefix \
              they cover.",
        reread: "Task",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[Clue::Test(ids_restarted, "a lower id at the right offset")],
        }],
    },
    Card {
        id: "07-dead-attempt-completes",
        stage: 7,
        title: "Checkpoints taken before the crash can still be completed after the restore",
        why: "After a restore nothing is in flight: the restarted job knows only what the store \
              handed out, and completes only checkpoints it saved itself. The restored one \
              completed long ago; those in flight at the crash are taken again by the replay \
              and complete commit_lag barriers after their new save.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "checkpoints",
                fault: "wrong result",
                clues: &[Clue::Step("after a restore nothing is in flight")],
            },
            Signature {
                check: "checkpoints",
                fault: "wrong result",
                clues: &[
                    Clue::Step("after the crash"),
                    Clue::Step("the run should be over"),
                    Clue::Actual("complete("),
                ],
            },
        ],
    },
    Card {
        id: "07-saved-needs-no-retake",
        stage: 7,
        title: "A checkpoint saved before the crash need not be saved again by the replay",
        why: "A checkpoint in flight at the crash never completed, and after the restore \
              nothing is in flight: the replay takes it again, under the same id, so that it \
              can complete. Skipped, the records it covers are covered by no completed \
              checkpoint until a later one.",
        reread: "Task",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[
                Clue::Step("after the crash"),
                Clue::Step("was never saved"),
                // Restoring the in-flight checkpoint skips its save too, and replays too
                // little: only a replay that is right otherwise skipped just the retake.
                Clue::Passes("at-least-once-output"),
                Clue::Passes("exactly-once-state"),
            ],
        }],
    },
    Card {
        id: "07-newest-completes-first",
        stage: 7,
        title: "The newest checkpoint in flight is the one that matters, so it completes first",
        why: "Every checkpoint in flight completes, oldest first, at the end of the input as at \
              the barriers: each covers a longer prefix of the input, and in stage 08 a \
              completion commits that prefix's output, so out of order (or skipped) a later \
              prefix would be visible before, or without, an earlier one.",
        reread: "Task",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[Clue::Test(newer_completed, "a newer checkpoint completed")],
        }],
    },
    Card {
        id: "07-checkpoint-at-the-end",
        stage: 7,
        title: "The end of the input takes a last checkpoint, as a barrier would",
        why: "Checkpoints are taken at barriers only, after record c × barrier_every: the end \
              of the input only completes the checkpoints still in flight. (Stage 08's clean \
              finish pre-commits a last transaction; this stage has none.)",
        reread: "Task",
        signatures: &[Signature {
            check: "checkpoints",
            fault: "wrong result",
            clues: &[
                Clue::Test(save_at_the_end, "a save at the end, off the barriers"),
                // A save off the barriers at a cadence of 2^32 is a cadence squeezed into
                // a `u32`, not a belief about the end of the input.
                Clue::Not(&Clue::Case("4294967296")),
            ],
        }],
    },
    Card {
        id: "07-emitted-dies-with-the-job",
        stage: 7,
        title: "What the job emitted before the crash is lost with it",
        why: "Emitted output has already left the job: a crash cannot take it back, so \
              `emitted` keeps the emissions of records 0..k, followed by the replay's. That is \
              why output is only at-least-once at this stage.",
        reread: "The invariant",
        signatures: &[Signature {
            check: "at-least-once-output",
            fault: "wrong result",
            clues: &[Clue::Step("emission(s) before the crash are missing")],
        }],
    },
    Card {
        id: "07-output-is-exactly-once",
        stage: 7,
        title: "The replay must not emit again what the job emitted before the crash",
        why: "The restarted job has only the store: it cannot know what left before the crash, \
              so every replayed record is emitted again and output is at-least-once. Removing \
              those duplicates takes stage 08's transactional sink, not a replay that stays \
              silent.",
        reread: "The invariant",
        signatures: &[
            Signature {
                check: "at-least-once-output",
                fault: "wrong result",
                clues: &[
                    Clue::Step("nothing was emitted after the crash"),
                    // A job that never replays (or never checkpoints) emits nothing more too.
                    Clue::Passes("checkpoints"),
                    Clue::Passes("exactly-once-state"),
                ],
            },
            // A replay that went through records (its saves show it) without emitting them.
            Signature {
                check: "contract",
                fault: "wrong result",
                clues: &[
                    Clue::Step("without emitting them again"),
                    Clue::Passes("checkpoints"),
                    Clue::Passes("exactly-once-state"),
                ],
            },
        ],
    },
    Card {
        id: "07-json-by-hand",
        stage: 7,
        title: "JSON of a map of words is simple enough to write by hand",
        why: "Words can hold quotes, backslashes, spaces, tabs, line breaks and non-ASCII \
              letters: written by hand without escaping each as JSON must, the state is not \
              JSON for them, and no restore can read it back. The brief's state is \
              serde_json's JSON of the counts.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "contract",
                fault: "wrong result",
                clues: &[Clue::Step("is not JSON"), Clue::Case(r#"x\"y"#)],
            },
            Signature {
                check: "contract",
                fault: "wrong result",
                clues: &[Clue::Step("is not JSON"), Clue::Step("control character")],
            },
        ],
    },
    Card {
        id: "07-any-map-will-do",
        stage: 7,
        title: "Any map of the counts will do for the checkpoint's JSON",
        why: "The state is the JSON of a BTreeMap<String, u64>, which lists its keys sorted, so \
              the same counts always give the same bytes. A HashMap lists them in an order that \
              changes from map to map and from run to run: the job is no longer deterministic, \
              and two checkpoints of one state no longer compare equal as bytes.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Step("lists its keys out of order")],
        }],
    },
];

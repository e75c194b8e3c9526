//! Stage 03's cards for a subtask's state and its errors: updates that trust their
//! routing, removals that keep the value, values of 0 dropped, snapshots pinned to a
//! parallelism, naming their subtask, or unreadable and taken for empty, keys doubled,
//! lost or left unchecked when state is gathered from several old subtasks, error
//! messages that name nothing, and streams regrouped.

use super::{Card, Clue, Signature};

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "03-update-trusts-routing",
        stage: 3,
        title: "A subtask can count whatever record reaches it",
        why: "A record of a key group the subtask does not own was misrouted: its state lives on \
              another subtask, and counting it here splits the key's state in two. update refuses \
              it with an error and leaves the state as it was.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Step("does not own: the record was misrouted")],
        }],
    },
    Card {
        id: "03-none-means-no-change",
        stage: 3,
        title: "When f returns None, the key keeps its value",
        why: "update replaces the key's value by f(current), and None is a value of that \
              replacement: it removes the key. Keeping the old value makes a removal impossible \
              and the removed key comes back in every snapshot.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Step("None removes the key")],
        }],
    },
    Card {
        id: "03-zero-is-no-state",
        stage: 3,
        title: "A count of 0 is no state, so the key can go",
        why: "update stores whatever f returns: Some(0) is a value, which state(), snapshot() and \
              restore keep like any other. Only None removes a key; dropping a key whose value \
              is the default changes what f is handed next (None, not Some(0)), and f may tell \
              the two apart.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Step("0 is a value like any other")],
        }],
    },
    Card {
        id: "03-snapshot-pins-its-parallelism",
        stage: 3,
        title: "A snapshot restores only at the parallelism it was taken at",
        why: "A snapshot holds only keyed state, so that after a rescale the same bytes feed a \
              subtask of another parallelism: the restored subtask keeps the keys of its own key \
              groups, whatever parallelism wrote them.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Step("restores at any parallelism")],
        }],
    },
    Card {
        id: "03-snapshot-names-its-subtask",
        stage: 3,
        title: "A snapshot may as well record which subtask wrote it",
        why: "restore is told which subtask it builds (its index, parallelism and \
              max_parallelism), and after a rescale the same bytes feed subtasks of other \
              indices and parallelisms: the writer's index and parallelism are no part of the \
              state. A snapshot holds only the keyed state, so two subtasks holding the same \
              keys write the same bytes.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Step("not the index nor the parallelism")],
        }],
    },
    Card {
        id: "03-a-key-found-twice-keeps-one-value",
        stage: 3,
        title: "A key found twice while gathering state just keeps one of its values",
        why: "Each key's state lives on exactly one subtask: a key in two snapshots, or held by \
              two old subtasks, means the state was doubled somewhere. Keeping either value \
              hides it; restore and rescale report it as an error.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "contract",
                fault: "wrong result",
                clues: &[
                    Clue::Step("is in both snapshots"),
                    Clue::Not(&Clue::Actual("panicked")),
                ],
            },
            Signature {
                check: "rescale",
                fault: "wrong result",
                // Kept one value, not panicked while refusing (a panic has its own card
                // or none: the belief here is a quiet success).
                clues: &[
                    Clue::Step("would have its state doubled"),
                    Clue::Not(&Clue::Actual("panicked")),
                ],
            },
        ],
    },
    Card {
        id: "03-a-key-is-where-its-group-says",
        stage: 3,
        title: "Every old subtask holds only keys of its own key groups",
        why: "rescale is handed maps, not a guarantee: a key found on an old subtask that does \
              not own it must still reach its new owner (or be refused), never be skipped \
              because no new subtask looked for it there.",
        reread: "Task",
        signatures: &[Signature {
            check: "rescale",
            fault: "wrong result",
            clues: &[Clue::Step("never lost")],
        }],
    },
    Card {
        id: "03-no-state-is-nothing-to-check",
        stage: 3,
        title: "An empty state rescales to empty subtasks",
        why: "rescale takes one map per old subtask: no map at all is an old parallelism of 0, a \
              configuration error like any parallelism of 0, not a job without keys (that is \
              one empty map per old subtask).",
        reread: "Task",
        signatures: &[Signature {
            check: "rescale",
            fault: "wrong result",
            clues: &[Clue::Step("no old subtask is a parallelism of 0")],
        }],
    },
    Card {
        id: "03-any-error-will-do",
        stage: 3,
        title: "An error is an error, whatever its message says",
        why: "The person who reads the error configured the job: a message that names the \
              argument as the signature spells it (parallelism, max_parallelism, operator_index, \
              key_group) says what to fix; \"invalid configuration\" leaves them guessing.",
        reread: "New API",
        signatures: &[Signature {
            check: "errors",
            fault: "wrong result",
            clues: &[Clue::Step("does not say which argument")],
        }],
    },
    Card {
        id: "03-unreadable-snapshot-is-empty",
        stage: 3,
        title: "Bytes that do not read as a snapshot are an empty state",
        why: "A restore that cannot read its snapshot must fail: carrying on with no state \
              silently loses every key the snapshot held, and the job counts from zero as if \
              nothing had happened.",
        reread: "Task",
        signatures: &[Signature {
            check: "errors",
            fault: "wrong result",
            // The bytes of every `errors` case that are not a snapshot: garbage, none, `{}`
            // and the implementation's own snapshot with bytes after it; not a key or a
            // snapshot written twice, which a reader reads as a state, not as none.
            // Nor a snapshot with a number changed, which may be another snapshot and is
            // judged by what the restored subtask writes.
            clues: &[
                Clue::Case("KeyedSubtask::restore(0, 1, 8, &["),
                Clue::Not(&Clue::Case("twice")),
                Clue::Not(&Clue::Case("one number or null")),
                Clue::Actual("Ok("),
            ],
        }],
    },
    Card {
        id: "03-only-each-keys-order-matters",
        stage: 3,
        title: "A subtask's stream only has to keep each key's records in order",
        why: "partition keeps the input order of every stream, across keys too: a subtask sees \
              its records in the order they came, as a real channel delivers them. Grouping a \
              stream by key or by key group reorders records that later stages (event time, \
              windows, barriers) read in arrival order.",
        reread: "Task",
        signatures: &[Signature {
            check: "partition",
            fault: "wrong result",
            clues: &[Clue::Step("the right elements in the wrong order")],
        }],
    },
    Card {
        id: "03-an-error-after-the-work",
        stage: 3,
        title: "A refused update only has to return its error; what it changed first can stay",
        why: "Whoever gets an error assumes nothing happened: a refused update leaves the state \
              as it was, or the subtask counts a record that was never routed to it.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Step("a refused update leaves the state as it was")],
        }],
    },
];

//! The cases of stage 07, smallest first.

use serde::{Deserialize, Serialize};

use crate::harness::padding::paddings;
use crate::harness::past_u64::PAST_U64;
use crate::harness::rng::Rng;
use crate::harness::{Check, case};

/// The longest input; two inputs per length (one over two words, one over three), every
/// `barrier_every` in 1..=len+1, every crash point and every commit lag: about 1,500 runs per
/// check, the whole stage well under a second in a debug build.
pub const MAX_LEN: usize = 7;
/// The largest commit lag.
pub const MAX_LAG: usize = 2;
/// The longest sequence of store operations checked against the model (those that save
/// both ids are checked twice: with offsets rising with the ids, then falling).
/// Five reach a completed id saved again after a newer one completed (a store that keeps
/// only the latest completed checkpoint forgets the older one and takes the save).
pub const MAX_STORE_OPS: usize = 5;
/// The checkpoints in flight at once in the `store` check's one long sequence.
pub const IN_FLIGHT_AT_ONCE: u64 = 10;
/// How many checkpoints complete, oldest first, in the `store` check's sequences that then
/// save or complete the oldest again: 3, then [`IN_FLIGHT_AT_ONCE`] (a store that keeps
/// only the newest few completed checkpoints forgets the oldest, takes its save and
/// refuses its second completion).
pub const OLD_COMPLETED: [u64; 2] = [3, IN_FLIGHT_AT_ONCE];
/// The ids of the `store` check's high-id sequences, in save order: the largest, then 1,
/// then the id whose low 32 bits are 1 (`2^32 + 1`), which an id kept in a `u32` takes for
/// 1. Nothing fixes where a job's ids start or how high they go.
pub const HIGH_IDS: [u64; 3] = [u64::MAX, 1, (1 << 32) + 1];

pub(super) const ARGUMENTS: Check = Check {
    name: "arguments",
    law: "barrier_every = 0 and crash_after past the end are errors naming the argument, \
          before anything runs",
};
pub(super) const STORE: Check = Check {
    name: "store",
    law: "InMemoryCheckpointStore restores only completed checkpoints, the latest one",
};
pub(super) const PROTOCOL: Check = Check {
    name: "checkpoints",
    law: "checkpoint c is saved with offset c * barrier_every and the counts of that prefix \
          as JSON, and completes commit_lag barriers later, across the crash",
};
pub(super) const STATE: Check = Check {
    name: "exactly-once-state",
    law: "whatever the crash point and the lag, the final counts equal a batch count",
};
pub(super) const OUTPUT: Check = Check {
    name: "at-least-once-output",
    law: "emitted = the emissions of records 0..k, then those of records offset..len \
          counted from the latest completed checkpoint",
};
pub(super) const OWN_STORE: Check = Check {
    name: "own-store",
    law: "run_with_recovery with your InMemoryCheckpointStore gives the same outcome",
};
pub(super) const CONTRACT: Check = Check {
    name: "contract",
    law: "the whole protocol holds for words of every kind, barrier_every up to usize::MAX \
          and commit lags up to usize::MAX",
};

/// The inputs of the `contract` check: the same under every seed, each word of a kind the
/// `a b c` inputs of the other checks never show (a JSON written by hand, or a count keyed
/// by something else than the whole word, passes those). The last holds nine distinct
/// words, none in sorted order of first sight: states of up to nine keys, whose JSON lists
/// them sorted (a state kept in a `HashMap`, or in order of insertion, does not; see
/// `saved_state::SORTED_FROM`).
pub const CONTRACT_WORDS: [&[&str]; 5] = [
    &["A", "a"],
    &["", "a", ""],
    &["x\"y", "a b", "\u{e9}"],
    &["10", "9", "10", "a\\b"],
    &["i", "h", "g", "f", "e", "d", "c", "b", "a"],
];
/// The commit lags of the `contract` check: past the number of barriers, and the largest.
pub const CONTRACT_LAGS: [usize; 4] = [0, 1, 3, usize::MAX];
/// The words of the `contract` check planned after every other case: spaces before and
/// after a word (which is not trimmed: ` a`, `a` and `a ` are three words), and control
/// characters (a tab, a NUL, a line break), which the state's JSON writes escaped.
pub const SPACED_WORDS: [&str; 7] = [" a", "a", "a ", "a\tb", "\u{0}", "a\nb", " a"];
/// How often the one word of the `contract` check's long runs repeats: a count, and a
/// checkpoint id (one per record), past what a `u8` holds.
pub const LONG_RUN: usize = 260;
/// The commit lags of the long runs: ten checkpoints in flight at once with the second.
pub const LONG_LAGS: [usize; 2] = [0, 9];
/// How often the one word of the `contract` check's deep runs repeats, a checkpoint per
/// record, at the commit lag [`DEEP_LAG`]: more barriers than the lag, so checkpoints
/// complete at barriers as well as at the end.
pub const DEEP_RUN: usize = 40;
/// The commit lag of the deep runs: 34 checkpoints in flight at once, past 10, 16 and 32,
/// where a job that bounds how many wait for their completion completes one early.
pub const DEEP_LAG: usize = 33;
/// How often the one word of the `contract` check's wide runs repeats, a checkpoint per
/// record, at the commit lag [`WIDE_LAG`].
pub const WIDE_RUN: usize = 1100;
/// The commit lag of the wide runs: 1,051 checkpoints in flight at once, past 64, 256 and
/// 1,024, where a job that keeps them in a ring of slots completes one early; the first
/// 50 complete at the last barriers.
pub const WIDE_LAG: usize = 1050;
/// The counts the spy hands back, in place of checkpoint 2's, in the `contract` check's
/// [`Case::ForgedState`] runs (over `a b a`, the crash after `a b`): a count that the
/// replay's `a` takes to `2^32`, one already past a `u32`, and `u64::MAX` for `b`, which
/// the replay leaves as it is. Counts no run of the grader reaches, but counts.
pub const FORGED_COUNTS: [[u64; 2]; 3] = [[(1 << 32) - 1, 1], [1 << 32, 1], [1, u64::MAX]];
/// The counts of `a` and `b` the spy hands back in one more [`Case::ForgedState`] run:
/// 0 for both, counts too, which the replay's `a` takes to 1 and leaves `b` at, so that
/// a job that drops (or refuses) a count of 0 shows it in its next state and its counts.
pub const ZERO_COUNTS: [u64; 2] = [0, 0];

/// One run of the job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    /// The input.
    pub words: Vec<String>,
    /// The checkpoint cadence.
    pub barrier_every: usize,
    /// Where the job dies, if it does.
    pub crash_after: Option<usize>,
    /// The commit lag: barriers between a checkpoint's save and its completion (stage 08
    /// commits on that completion, hence one name for both stages).
    pub commit_lag: usize,
}

impl Run {
    fn describe(&self) -> String {
        format!(
            "words [{}], barrier_every {}, crash_after {:?}, commit_lag {}",
            shown(&self.words),
            self.barrier_every,
            self.crash_after,
            self.commit_lag
        )
    }
}

/// `words` as a report shows them: one by one, or, past a dozen, each stretch of one word
/// as the word and how often it repeats (`a x260`). Words are quoted, each as Rust writes
/// a string, when one of them could not be told apart otherwise: an empty one, or one
/// holding a space, a control character, a quote or a backslash.
fn shown(words: &[String]) -> String {
    let odd = |w: &String| {
        w.is_empty()
            || w.chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == '\\')
    };
    if words.len() <= 12 && words.iter().any(odd) {
        let quoted: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
        return quoted.join(", ");
    }
    if words.len() <= 12 {
        return words.join(" ");
    }
    let mut stretches: Vec<(&str, usize)> = Vec::new();
    for word in words {
        match stretches.last_mut() {
            Some((last, n)) if *last == word.as_str() => *n += 1,
            _ => stretches.push((word, 1)),
        }
    }
    let stretches: Vec<String> = stretches
        .iter()
        .map(|(word, n)| format!("{word:?} x{n}"))
        .collect();
    stretches.join(" ")
}

/// One operation on a fresh store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StoreOp {
    /// `save(id, ..)`: offset `10 * id + n` (`10 * (3 - id) + n` in a case whose offsets
    /// fall) and state `"s{id}.{n}"`, `n` counting earlier saves of the same id, so that a
    /// replaced save is visible.
    Save(u64),
    /// `complete(id)`.
    Complete(u64),
}

/// One case of stage 07.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Case {
    /// An invalid run: must be an error naming `argument`.
    Arguments {
        /// The run.
        run: Run,
        /// The argument the error must name.
        argument: String,
    },
    /// Operations on `InMemoryCheckpointStore`.
    Store {
        /// The operations.
        ops: Vec<StoreOp>,
        /// Whether the offsets fall as the ids rise (`save(1)` at offset 20, `save(2)` at
        /// 10): the store ranks checkpoints by id, whatever their offsets.
        falling: bool,
    },
    /// Two `InMemoryCheckpointStore`s alive at once (`two_stores.rs`): each keeps
    /// its own checkpoints.
    TwoStores,
    /// The store calls of a run, through the spy.
    Protocol(Run),
    /// The final counts of a run, through the spy.
    State(Run),
    /// The emissions of a run, through the spy.
    Output(Run),
    /// `run_with_recovery`, with the implementation's own store.
    OwnStore(Run),
    /// Both entry points on one run of the `contract` check.
    Contract(Run),
    /// A run through a spy store that, asked after the crash, hands back the latest
    /// completed checkpoint with `state` in place of its bytes: state that is not the
    /// JSON of counts, which no restore can read, so the run is an error.
    CorruptState {
        /// The run (its crash comes after a completed checkpoint).
        run: Run,
        /// The bytes handed back as the checkpoint's state.
        state: Vec<u8>,
    },
    /// A run through a spy store that, asked after the crash, hands back the latest
    /// completed checkpoint with the JSON of `counts` in place of its state: counts larger
    /// than any run reaches, which the job restores as they are and goes on from.
    ForgedState {
        /// The run (its crash comes after a completed checkpoint).
        run: Run,
        /// The counts handed back.
        counts: super::oracle::Counts,
    },
    /// A run through a spy store whose checkpoint, handed out after the crash, says an
    /// offset past the end of the input: no source can be sought there, so the run fails.
    OffsetPastEnd {
        /// The run (its crash comes after a completed checkpoint).
        run: Run,
        /// The offset handed back.
        offset: u64,
    },
    /// A run through a spy store that, asked after the crash, has lost every checkpoint
    /// after `kept` (see [`super::Loss`]): it hands out an older completed checkpoint than
    /// the one the job completed last (none for 0), and the restarted job resumes from
    /// exactly that one, its offset and its state.
    LostCheckpoints {
        /// The run (the job completes a checkpoint after `kept` before its crash).
        run: Run,
        /// The highest id the store still holds at the recovery.
        kept: u64,
    },
    /// A run through a spy store whose `failing_call`-th `save` or `complete` (from 1)
    /// fails: the run must return an error and call the store no more.
    FailingStore {
        /// The run.
        run: Run,
        /// The failing call.
        failing_call: usize,
    },
}

impl case::Case for Case {
    fn check(&self) -> Check {
        match self {
            Case::Arguments { .. } => ARGUMENTS,
            Case::Store { .. } | Case::TwoStores => STORE,
            Case::Protocol(_) => PROTOCOL,
            Case::State(_) => STATE,
            Case::Output(_) => OUTPUT,
            Case::OwnStore(_) => OWN_STORE,
            Case::Contract(_)
            | Case::CorruptState { .. }
            | Case::ForgedState { .. }
            | Case::OffsetPastEnd { .. }
            | Case::LostCheckpoints { .. }
            | Case::FailingStore { .. } => CONTRACT,
        }
    }

    fn requirements(&self) -> Vec<&'static str> {
        match self {
            Case::Arguments { argument, .. } if argument == "barrier_every" => {
                vec!["07-R15", "07-R17"]
            }
            Case::Arguments { .. } => vec!["07-R16", "07-R17"],
            Case::Store { .. } => vec!["07-R1", "07-R2", "07-R3", "07-R4", "07-R5"],
            Case::TwoStores => vec!["07-R1"],
            Case::Protocol(_) => vec![
                "07-R7", "07-R8", "07-R9", "07-R10", "07-R11", "07-R12", "07-R13", "07-R14",
            ],
            Case::State(_) => vec!["07-R19"],
            Case::Output(_) => vec!["07-R6", "07-R7", "07-R12", "07-R20", "07-R21", "07-R22"],
            Case::OwnStore(_) => vec!["07-R18"],
            Case::Contract(_) => vec![
                "07-R6", "07-R7", "07-R8", "07-R9", "07-R10", "07-R11", "07-R12", "07-R13",
                "07-R14", "07-R18", "07-R19", "07-R20", "07-R21", "07-R22",
            ],
            Case::CorruptState { .. } | Case::ForgedState { .. } | Case::OffsetPastEnd { .. } => {
                vec!["07-R12"]
            }
            Case::FailingStore { .. } => vec!["07-R23"],
            Case::LostCheckpoints { .. } => vec![
                "07-R6", "07-R7", "07-R8", "07-R9", "07-R10", "07-R11", "07-R12", "07-R13",
                "07-R14", "07-R19", "07-R20", "07-R21", "07-R22",
            ],
        }
    }

    fn describe(&self) -> String {
        match self {
            Case::Arguments { run, .. } => run.describe(),
            Case::Store {
                ops,
                falling: false,
            } => {
                format!("on a fresh InMemoryCheckpointStore: {ops:?}")
            }
            Case::Store { ops, falling: true } => format!(
                "on a fresh InMemoryCheckpointStore, offsets falling as the ids rise (save(1) at \
                 offset 20, save(2) at offset 10): {ops:?}"
            ),
            Case::TwoStores => super::two_stores::DESCRIPTION.to_owned(),
            Case::Protocol(run) | Case::State(run) | Case::Output(run) => {
                format!("run_with_recovery_in(spy store) over {}", run.describe())
            }
            Case::OwnStore(run) => format!("run_with_recovery over {}", run.describe()),
            Case::Contract(run) => format!(
                "run_with_recovery_in(spy store), then run_with_recovery, over {}",
                run.describe()
            ),
            Case::CorruptState { run, state } => format!(
                "run_with_recovery_in(spy store whose latest_completed() after the crash holds the state b{:?}) over {}",
                String::from_utf8_lossy(state),
                run.describe()
            ),
            Case::ForgedState { run, counts } => format!(
                "run_with_recovery_in(spy store whose latest_completed() after the crash holds the state {}) over {}",
                String::from_utf8_lossy(&super::oracle::state_of(counts)),
                run.describe()
            ),
            Case::OffsetPastEnd { run, offset } => format!(
                "run_with_recovery_in(spy store whose latest_completed() after the crash says offset {offset}) over {}",
                run.describe()
            ),
            Case::LostCheckpoints { run, kept } => format!(
                "run_with_recovery_in(spy store that, asked after the crash, has lost {}) over {}",
                match kept {
                    0 => "every checkpoint, so that latest_completed() returns None".to_owned(),
                    c => format!(
                        "every checkpoint after checkpoint {c}, so that latest_completed() returns checkpoint {c}"
                    ),
                },
                run.describe()
            ),
            Case::FailingStore { run, failing_call } => format!(
                "run_with_recovery_in(spy store whose save or complete call number {failing_call}, \
                 counted from 1, fails) over {}",
                run.describe()
            ),
        }
    }
}

/// Every case for `seed`.
pub fn plan(seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed, 7);
    let inputs: Vec<Vec<String>> = (0..=MAX_LEN)
        .flat_map(|len| [(len, 2), (len, 3)])
        .map(|(len, alphabet)| {
            rng.values(len, alphabet)
                .iter()
                .map(|v| ["a", "b", "c"][*v as usize].to_owned())
                .collect()
        })
        .collect();
    let mut cases = Vec::new();
    for words in inputs.iter().filter(|w| w.len() <= 3) {
        let len = words.len();
        let run = |barrier_every, crash_after| Run {
            words: words.clone(),
            barrier_every,
            crash_after,
            commit_lag: 0,
        };
        for crash_after in [None, Some(0), Some(len)] {
            cases.push(Case::Arguments {
                run: run(0, crash_after),
                argument: "barrier_every".into(),
            });
        }
        for crash_after in [len + 1, len + 7, 1 << 32, usize::MAX] {
            cases.push(Case::Arguments {
                run: run(1, Some(crash_after)),
                argument: "crash_after".into(),
            });
        }
    }
    for ops in store_ops() {
        // Where both ids are saved, the same operations again with falling offsets.
        let both = [1, 2].map(|id| ops.contains(&StoreOp::Save(id)));
        cases.push(Case::Store {
            ops: ops.clone(),
            falling: false,
        });
        if both == [true, true] {
            cases.push(Case::Store { ops, falling: true });
        }
    }
    // Past the small alphabet: ten checkpoints in flight at once, then completed oldest
    // first, as a commit lag of 9 leaves them (a store bounded to a few in flight drops one).
    cases.push(Case::Store {
        ops: (1..=IN_FLIGHT_AT_ONCE)
            .map(StoreOp::Save)
            .chain((1..=IN_FLIGHT_AT_ONCE).map(StoreOp::Complete))
            .collect(),
        falling: false,
    });
    cases.extend(high_ids().into_iter().map(|ops| Case::Store {
        ops,
        falling: false,
    }));
    let mut runs = Vec::new();
    for words in &inputs {
        // A cadence past `u32::MAX` too, over the shortest inputs: no checkpoint at all,
        // where a cadence squeezed into a `u32` (and clamped to 1) takes one per record.
        let beyond_u32 = (1..=2).contains(&words.len()).then_some(1 << 32);
        for barrier_every in (1..=words.len() + 1).chain(beyond_u32) {
            for crash_after in std::iter::once(None).chain((0..=words.len()).map(Some)) {
                for commit_lag in 0..=MAX_LAG {
                    runs.push(Run {
                        words: words.clone(),
                        barrier_every,
                        crash_after,
                        commit_lag,
                    });
                }
            }
        }
    }
    for make in [Case::Protocol, Case::State, Case::Output, Case::OwnStore] {
        cases.extend(runs.iter().cloned().map(make));
    }
    cases.extend(contract_runs().into_iter().map(Case::Contract));
    cases.extend(corrupt_states());
    cases.extend(forged_states());
    cases.extend(lost_checkpoints());
    cases.extend(offsets_past_the_end());
    cases.extend(
        super::failing::cases()
            .into_iter()
            .map(|(run, failing_call)| Case::FailingStore { run, failing_call }),
    );
    // After them, so the cases above keep their numbers.
    cases.extend(states_past_u64());
    cases.push(Case::ForgedState {
        run: unreadable_checkpoint_run(),
        counts: [
            ("a".to_owned(), ZERO_COUNTS[0]),
            ("b".to_owned(), ZERO_COUNTS[1]),
        ]
        .into(),
    });
    // After those in turn (a later red-team round's): failing calls in runs without a
    // crash or crashing at the end, old completed ids touched again, the wide runs.
    cases.extend(
        super::failing::clean_cases()
            .into_iter()
            .map(|(run, failing_call)| Case::FailingStore { run, failing_call }),
    );
    cases.extend(old_completed().into_iter().map(|ops| Case::Store {
        ops,
        falling: false,
    }));
    cases.extend(wide_runs().into_iter().map(Case::Contract));
    // After them, so the cases above keep their numbers: words with spaces around them
    // and control characters in them.
    cases.extend(grid(&SPACED_WORDS).into_iter().map(Case::Contract));
    // After them, so the cases above keep their numbers: the right counts with bytes
    // around them that a reader stripping what text readers strip takes away.
    cases.extend(padded_states());
    // After them, so the cases above keep their numbers: the counts in the layouts of
    // another format.
    cases.extend(other_layout_states());
    cases
}

/// For each of [`OLD_COMPLETED`]: `save(1)` to `save(n)`, `complete(1)` to `complete(n)`,
/// then `save(1)` (an error: checkpoint 1 completed), and the same followed by
/// `complete(1)` (fine: completing twice).
fn old_completed() -> Vec<Vec<StoreOp>> {
    OLD_COMPLETED
        .into_iter()
        .flat_map(|n| {
            [StoreOp::Save(1), StoreOp::Complete(1)].map(|again| {
                (1..=n)
                    .map(StoreOp::Save)
                    .chain((1..=n).map(StoreOp::Complete))
                    .chain([again])
                    .collect()
            })
        })
        .collect()
}

/// The wide runs of the `contract` check: one word [`WIDE_RUN`] times, a checkpoint per
/// record, at the lag [`WIDE_LAG`], with no crash and with a crash after the last record
/// (whose replay takes 1,050 checkpoints again, all in flight at once). Two runs, not a
/// grid: the size is what they check.
fn wide_runs() -> Vec<Run> {
    [None, Some(WIDE_RUN)]
        .into_iter()
        .map(|crash_after| Run {
            words: vec!["a".to_owned(); WIDE_RUN],
            barrier_every: 1,
            crash_after,
            commit_lag: WIDE_LAG,
        })
        .collect()
}

/// The input of the [`Case::LostCheckpoints`] runs: its prefixes of two words and more.
const LOSS_WORDS: [&str; 5] = ["a", "b", "a", "b", "c"];

/// Every crash after which a correct job has completed a checkpoint, over the prefixes
/// of [`LOSS_WORDS`], `barrier_every` 1 and 2 and commit lags 0 and 1; for each, every
/// older restart point the store may be brought back to (none, or an older completed
/// checkpoint): smallest first.
fn lost_checkpoints() -> Vec<Case> {
    let mut cases = Vec::new();
    for len in 2..=LOSS_WORDS.len() {
        let words: Vec<String> = LOSS_WORDS[..len].iter().map(|w| (*w).to_owned()).collect();
        for barrier_every in 1..=2 {
            for crash in 1..=len {
                for commit_lag in 0..=1 {
                    let run = Run {
                        words: words.clone(),
                        barrier_every,
                        crash_after: Some(crash),
                        commit_lag,
                    };
                    let latest = super::oracle::expected(&run).restored.0;
                    for kept in 0..latest {
                        cases.push(Case::LostCheckpoints {
                            run: run.clone(),
                            kept,
                        });
                    }
                }
            }
        }
    }
    // After them, so the cases above keep their numbers: two stores at once.
    cases.push(Case::TwoStores);
    cases
}

/// The run of the unreadable checkpoints: a crash after checkpoint 2 completed.
fn unreadable_checkpoint_run() -> Run {
    Run {
        words: ["a", "b", "a"].map(str::to_owned).to_vec(),
        barrier_every: 1,
        crash_after: Some(2),
        commit_lag: 0,
    }
}

/// A crash after checkpoint 2 completed, whose state the spy hands back as bytes that
/// are not the JSON of a `BTreeMap<String, u64>`: none, cut short, a negative count, and
/// the right JSON with bytes after it (what a reader of the first value takes); `null`
/// (what an `Option` reads as none), a fraction (what a float reads), a count written as
/// a string of digits (what a reader of strings too reads), and a key that is not UTF-8
/// (what a lossy conversion reads).
fn corrupt_states() -> Vec<Case> {
    [
        &b""[..],
        b"{\"a\":",
        b"{\"a\":-1}",
        b"{\"a\":1}xyz",
        b"null",
        b"{\"a\":1.5}",
        b"{\"a\":\"1\"}",
        b"{\"\xff\":1}",
    ]
    .into_iter()
    .map(|state| Case::CorruptState {
        run: unreadable_checkpoint_run(),
        state: state.to_vec(),
    })
    .collect()
}

/// The crash of [`corrupt_states`], its state handed back as the JSON of counts padded
/// ([`paddings`]: written twice on two lines, after a byte-order mark or a form feed, or
/// followed by an ideographic space or a form feed): none of them is the JSON of a
/// `BTreeMap<String, u64>`, though a reader that strips a byte-order mark, or trims
/// with `trim_ascii` or `str::trim`, takes it for one.
fn padded_states() -> Vec<Case> {
    paddings(br#"{"a":1,"b":1}"#)
        .map(|(_, state)| Case::CorruptState {
            run: unreadable_checkpoint_run(),
            state,
        })
        .collect()
}

/// The crash of [`corrupt_states`], its state handed back as its counts (`a` and `b`
/// once each) in the layouts of another format: a list of `[word, count]` pairs (stage
/// 02's snapshot), of `{"key", "value"}` entries, and the map inside an envelope. None is
/// the JSON of a `BTreeMap<String, u64>`, though a job that also reads an older layout
/// of its own takes each for counts (the sixteenth red team's w07-05).
fn other_layout_states() -> Vec<Case> {
    [
        &br#"[["a",1],["b",1]]"#[..],
        br#"[{"key":"a","value":1},{"key":"b","value":1}]"#,
        br#"{"counts":{"a":1,"b":1}}"#,
    ]
    .into_iter()
    .map(|state| Case::CorruptState {
        run: unreadable_checkpoint_run(),
        state: state.to_vec(),
    })
    .collect()
}

/// The crash of [`corrupt_states`], its state handed back as the JSON of a count past
/// the `u64` range ([`PAST_U64`]: `2^64`, `2^64 + 1`): no count, though a reader of
/// `u128` narrowed with `as u64` takes it for 0 or 1.
fn states_past_u64() -> Vec<Case> {
    PAST_U64
        .into_iter()
        .map(|digits| Case::CorruptState {
            run: unreadable_checkpoint_run(),
            state: format!("{{\"a\":{digits}}}").into_bytes(),
        })
        .collect()
}

/// The same crash, its checkpoint handed back with each of [`FORGED_COUNTS`] as the counts
/// of `a` and `b`: counts, so the job restores them and replays `a` on top.
fn forged_states() -> Vec<Case> {
    FORGED_COUNTS
        .into_iter()
        .map(|[a, b]| Case::ForgedState {
            run: unreadable_checkpoint_run(),
            counts: [("a".to_owned(), a), ("b".to_owned(), b)].into(),
        })
        .collect()
}

/// The same crash, its checkpoint handed back at an offset past the end of the three
/// words: one past it, then far past it (where an offset cut to `u32` lands on 0).
fn offsets_past_the_end() -> Vec<Case> {
    [4, 1 << 32]
        .into_iter()
        .map(|offset| Case::OffsetPastEnd {
            run: unreadable_checkpoint_run(),
            offset,
        })
        .collect()
}

/// The runs of the `contract` check, smallest first: [`CONTRACT_WORDS`], every
/// `barrier_every` among 1, 2, `len`, `len + 1` and `usize::MAX`, every crash point and
/// every lag of [`CONTRACT_LAGS`]; then one word [`DEEP_RUN`] times, then [`LONG_RUN`]
/// times, a checkpoint per record, with no crash, a crash halfway and a crash after the
/// last record, at the lag [`DEEP_LAG`], then at each lag of [`LONG_LAGS`].
fn contract_runs() -> Vec<Run> {
    let mut runs: Vec<Run> = CONTRACT_WORDS.into_iter().flat_map(grid).collect();
    for (len, lags) in [(DEEP_RUN, &[DEEP_LAG][..]), (LONG_RUN, &LONG_LAGS[..])] {
        let words = vec!["a".to_owned(); len];
        for crash_after in [None, Some(len / 2), Some(len)] {
            for &commit_lag in lags {
                runs.push(Run {
                    words: words.clone(),
                    barrier_every: 1,
                    crash_after,
                    commit_lag,
                });
            }
        }
    }
    runs
}

/// The runs of `words` at every `barrier_every` among 1, 2, `len`, `len + 1` and
/// `usize::MAX`, every crash point and every lag of [`CONTRACT_LAGS`].
fn grid(words: &[&str]) -> Vec<Run> {
    let words: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
    let len = words.len();
    let mut everies = vec![1, 2, len, len + 1, usize::MAX];
    everies.sort_unstable();
    everies.dedup();
    let mut runs = Vec::new();
    for &barrier_every in &everies {
        for crash_after in std::iter::once(None).chain((0..=len).map(Some)) {
            for commit_lag in CONTRACT_LAGS {
                runs.push(Run {
                    words: words.clone(),
                    barrier_every,
                    crash_after,
                    commit_lag,
                });
            }
        }
    }
    runs
}

fn store_ops() -> Vec<Vec<StoreOp>> {
    let alphabet = [
        StoreOp::Save(1),
        StoreOp::Save(2),
        StoreOp::Complete(1),
        StoreOp::Complete(2),
    ];
    let mut all = vec![Vec::new()];
    let mut layer = vec![Vec::new()];
    for _ in 0..MAX_STORE_OPS {
        layer = layer
            .iter()
            .flat_map(|ops: &Vec<StoreOp>| {
                alphabet.iter().map(move |op| {
                    let mut next = ops.clone();
                    next.push(*op);
                    next
                })
            })
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

/// A save under each of [`HIGH_IDS`], then every order of completing the three; every
/// prefix once, each before the sequences that extend it.
///
/// Why `u64::MAX` first: a store that keeps its checkpoints in a `Vec` indexed by id fails
/// there at once (an overflow of `id + 1` or an index past the vector, a panic), before
/// `2^32 + 1` could ask it for a vector of four billion slots.
fn high_ids() -> Vec<Vec<StoreOp>> {
    fn complete(path: &mut Vec<StoreOp>, left: &[u64], out: &mut Vec<Vec<StoreOp>>) {
        out.push(path.clone());
        for &id in left {
            let rest: Vec<u64> = left.iter().copied().filter(|&other| other != id).collect();
            path.push(StoreOp::Complete(id));
            complete(path, &rest, out);
            path.pop();
        }
    }
    let saves: Vec<StoreOp> = HIGH_IDS.map(StoreOp::Save).to_vec();
    let mut out: Vec<Vec<StoreOp>> = (1..saves.len()).map(|len| saves[..len].to_vec()).collect();
    complete(&mut saves.clone(), &HIGH_IDS, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The saves' two shorter prefixes, then the three saves followed by every order of
    /// completions, each prefix once; every sequence starts at `u64::MAX`, so that a store
    /// indexed by id panics before it could grow to `2^32 + 1` slots.
    #[test]
    fn high_ids_complete_in_every_order() {
        let sequences = high_ids();
        assert_eq!(sequences.len(), 2 + 1 + 3 + 6 + 6);
        assert_eq!(sequences.iter().filter(|ops| ops.len() == 6).count(), 6);
        assert!(
            sequences
                .iter()
                .all(|ops| ops[0] == StoreOp::Save(u64::MAX))
        );
        assert_eq!(u64::from(HIGH_IDS[2] as u32), HIGH_IDS[1]);
    }

    /// The wide runs' first completion comes after 1,051 saves: well past a ring of 1,024.
    #[test]
    fn wide_runs_keep_over_a_thousand_in_flight() {
        for run in wide_runs() {
            let calls = super::super::oracle::expected(&run).calls;
            let first_completion = calls
                .iter()
                .position(|c| matches!(c, super::super::oracle::Call::Complete { .. }));
            assert_eq!(first_completion, Some(WIDE_LAG + 1));
        }
    }

    /// Each old-completed sequence ends by touching checkpoint 1 after at least three ids
    /// completed: its save refused, its completion taken, by the model.
    #[test]
    fn old_completed_ids_are_touched_after_three_completions() {
        let sequences = old_completed();
        assert_eq!(sequences.len(), 2 * OLD_COMPLETED.len());
        for ops in sequences {
            let mut model = super::super::oracle::ModelStore::default();
            let (last, before) = ops.split_last().expect("not empty");
            for op in before {
                let done = match *op {
                    StoreOp::Save(id) => model.save(id, id, Vec::new()),
                    StoreOp::Complete(id) => model.complete(id),
                };
                assert!(done.is_ok());
            }
            let again = match *last {
                StoreOp::Save(id) => model.save(id, id, Vec::new()).is_err(),
                StoreOp::Complete(id) => model.complete(id).is_ok(),
            };
            assert!(again && before.len() >= 6);
        }
    }
}

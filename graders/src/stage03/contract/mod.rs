//! The `contract` check: every sequence of up to three calls on one `KeyedSubtask`
//! (updates of owned and foreign keys, a removal, a value set to 0, restores at other
//! parallelisms, from several snapshots, from the same snapshot twice and beside another
//! subtask's snapshot of the same keys), each step's answer, state and key groups
//! compared with a model of what the brief fixes ([`model`]); then the snapshots of empty
//! subtasks of several indices and parallelisms, which must be the same bytes. Planned
//! last of the stage's cases: the same sequences over keys that a text format must escape
//! and over keys of 256 bytes and more.
//!
//! The keys are picked by key group, not drawn: each family of the plan has a key that
//! the start subtask and the restore target both own, one that only the start subtask
//! owns, and one it does not own, each of another character class (upper case, digits,
//! multi-byte letters, bytes that are not UTF-8, lower case, the empty key), so no
//! verdict hangs on a seed and no key shares a convenient property with the others.

mod drive;
pub(super) mod model;
mod shown;

use serde::{Deserialize, Serialize};

pub use drive::{Seen, drive_contract};

use shown::shown_key;

use super::oracle;
use crate::harness::enumerate::call_sequences;

/// The longest call sequence enumerated, in the first family (the small-scope
/// hypothesis: most contract mistakes show within three calls); the others, which vary
/// the configuration rather than the history, stop at two.
pub const MAX_CALLS: usize = 3;

/// Subtask `index` of `parallelism` (at the family's `max_parallelism`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct At {
    /// The subtask's index.
    pub index: u32,
    /// The parallelism.
    pub parallelism: u32,
}

/// Which snapshots a restore reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Feed {
    /// `[snapshot]`: the current subtask's.
    Alone,
    /// `[empty, snapshot]`: an empty subtask's first, then the current one's.
    BesideEmpty,
    /// `[snapshot, snapshot]`: the same snapshot twice, so every key is in two.
    Twice,
    /// `[empty, snapshot, empty, other]`: an empty subtask's snapshot, the current one's,
    /// the empty one's again, then the snapshot of another subtask
    /// (`KeyedSubtask::new(0, 1, maxp)`, which owns every key group) that counted every
    /// key the current one holds once more than it holds it: every key is in two
    /// snapshots that are not the same bytes, with two values, neither the first snapshot
    /// read nor next to each other.
    BesideRecounted,
}

impl Feed {
    /// Whether every key of the current subtask is in two of the snapshots read.
    pub fn doubles(self) -> bool {
        matches!(self, Feed::Twice | Feed::BesideRecounted)
    }
}

/// One call of a contract sequence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// `update(key, |c| Some(c.unwrap_or(0) + 1))`.
    Count(String),
    /// `update(key, |_| None)`.
    Remove(String),
    /// `update(key, |_| Some(0))`: the default value, which is a value, not a removal.
    Zero(String),
    /// Snapshot the current subtask, then `restore(at.index, at.parallelism, maxp, feed)`;
    /// on `Ok` the restored subtask goes on, on an error the current one does.
    Restore {
        /// The restored subtask.
        at: At,
        /// The snapshots it reads.
        feed: Feed,
    },
}

impl Op {
    /// The call as code.
    pub fn code(&self, max_parallelism: u32) -> String {
        match self {
            Op::Count(key) => format!("update({}, +1)", shown_key(key)),
            Op::Remove(key) => format!("update({}, |_| None)", shown_key(key)),
            Op::Zero(key) => format!("update({}, |_| Some(0))", shown_key(key)),
            Op::Restore { at, feed } => {
                let snapshots = match feed {
                    Feed::Alone => "[snapshot()]",
                    Feed::BesideEmpty => "[an empty subtask's snapshot, snapshot()]",
                    Feed::Twice => "[snapshot(), snapshot()]",
                    Feed::BesideRecounted => {
                        "[an empty subtask's snapshot, snapshot(), the empty subtask's snapshot again, the snapshot of a KeyedSubtask::new(0, 1, ..) holding the same keys, each counted once more]"
                    }
                };
                format!(
                    "restore({}, {}, {max_parallelism}, {snapshots})",
                    at.index, at.parallelism
                )
            }
        }
    }
}

/// The owned key groups of `at`.
fn owns(at: At, max_parallelism: u32, key: &str) -> bool {
    let (start, end) = oracle::range(at.index, at.parallelism, max_parallelism);
    (start..=end).contains(&oracle::key_group(
        &crate::stage03::key_bytes(key),
        max_parallelism,
    ))
}

/// Keys of one character class: each of `stems`, then each followed by `0..100`.
fn class(stems: &[&str]) -> Vec<String> {
    let mut keys: Vec<String> = stems.iter().map(|s| (*s).to_owned()).collect();
    for n in 0..100 {
        keys.extend(stems.iter().map(|s| format!("{s}{n}")));
    }
    keys
}

/// The first key of `pool` for which `fits` holds.
fn pick(pool: &[String], fits: impl Fn(&str) -> bool) -> String {
    pool.iter()
        .find(|k| fits(k))
        .cloned()
        .expect("the pools hold a key of every key group of the families")
}

/// One family of sequences: a start subtask, two restore targets, three keys.
struct Family {
    max_parallelism: u32,
    /// The longest sequence enumerated.
    max_calls: usize,
    start: At,
    /// Owns all of the start's groups or none of them matters: a target of `Alone`.
    whole: At,
    /// Owns part of the start's groups: a target of `BesideEmpty`.
    part: At,
    /// Pools for the key both own, the key only the start owns, the foreign key.
    pools: [Vec<String>; 3],
    /// Whether the alphabet also removes the foreign key (a refusal whatever `f` returns).
    remove_foreign: bool,
}

fn families() -> Vec<Family> {
    let upper = class(&["A", "K", "Q", "ZZ"]);
    let digits = class(&["7", "-", "9 9", "0x"]);
    let wide = class(&["é", "ß", "日本", "Ω"]);
    let raw = class(&["\\xff", "\\xe9t\\xe9", "k\\x80", "\\xc3"]);
    let lower = {
        let mut keys = vec![String::new()];
        keys.extend(class(&["a", "k", "q", "zz"]));
        keys
    };
    let at = |index, parallelism| At { index, parallelism };
    vec![
        Family {
            max_parallelism: 10,
            max_calls: MAX_CALLS,
            start: at(1, 3),
            whole: at(0, 1),
            part: at(1, 2),
            pools: [upper.clone(), raw, lower.clone()],
            remove_foreign: false,
        },
        Family {
            max_parallelism: 3,
            max_calls: 2,
            start: at(0, 1),
            whole: at(0, 3),
            part: at(1, 2),
            pools: [digits.clone(), upper.clone(), wide.clone()],
            remove_foreign: true,
        },
        Family {
            max_parallelism: 128,
            max_calls: 2,
            start: at(2, 3),
            whole: at(0, 1),
            part: at(3, 4),
            pools: [wide, digits, upper.clone()],
            remove_foreign: true,
        },
        // The largest `max_parallelism`: every key group subtask 1 of 3 owns, times 3, is
        // past `u32::MAX`, so an ownership check in `u32` overflows (03-R24).
        Family {
            max_parallelism: u32::MAX,
            max_calls: 2,
            start: at(1, 3),
            whole: at(0, 1),
            part: at(1, 2),
            pools: [lower.clone(), upper, lower],
            remove_foreign: false,
        },
    ]
}

/// The subtasks whose empty snapshots [`plan`] compares, at each `max_parallelism`: other
/// indices and other parallelisms, holding the same (no) state.
const EMPTY_SUBTASKS: [(u32, u32); 4] = [(0, 1), (0, 2), (1, 2), (2, 3)];

/// The contract cases: every sequence of up to `max_calls` calls of each family, but
/// for a call that repeats the one before it without changing anything a second time
/// (a refused update, a removal, a restore): the repeat tells nothing new. Then, after
/// the sequences, the snapshots of empty subtasks of several indices and parallelisms,
/// which must be the same bytes (03-R6): an empty state has one serialisation whatever
/// holds it, so only an index or a parallelism in the snapshot tells them apart. Last,
/// the first family's sequences that call `update(key, |_| Some(0))` (03-R4: the default
/// value is a value, and only `None` removes a key).
pub fn plan() -> Vec<super::Case> {
    let mut cases = Vec::new();
    for family in families() {
        cases.extend(sequences(&family, Zeros::Without));
    }
    let keys = ["k", "a", "zz", "q", "é", "7", "m", "b", "x", "0x", "Ω", "c"];
    cases.push(super::Case::TwinSnapshots {
        max_parallelism: 128,
        keys: keys.map(str::to_owned).to_vec(),
    });
    for max_parallelism in [10, 128] {
        cases.push(super::Case::EmptySnapshots {
            max_parallelism,
            subtasks: EMPTY_SUBTASKS
                .iter()
                .map(|&(index, parallelism)| At { index, parallelism })
                .collect(),
        });
    }
    // After them, so the cases above keep their numbers: the first family's sequences
    // that set a key to 0, the default value, which is kept like any other (03-R4).
    let first = families().swap_remove(0);
    cases.extend(sequences(&first, Zeros::Only));
    cases
}

/// One more family, planned after every other case but the long keys: keys that a text format must
/// escape (a tab, a line break, a carriage return, a space, a quote, a backslash, a
/// comma, an equals sign, a colon, a bar), through every sequence of up to two calls.
pub fn separator_plan() -> Vec<super::Case> {
    let separators = class(&[
        "a\tb", "k\nv", "x y", "q\"", "b\\\\s", "c,d", "e=f", "g:h", "\r", "|",
    ]);
    one_pool_sequences(separators)
}

/// One more family, planned after the separators: keys of 256 bytes and more (runs of
/// `k`, of `é` and of `0123456789abcdef`), past what a length written in one byte
/// counts, through every sequence of up to two calls.
pub fn long_key_plan() -> Vec<super::Case> {
    let stems = [
        "k".repeat(256),
        "é".repeat(128),
        "0123456789abcdef".repeat(16),
    ];
    let stems: Vec<&str> = stems.iter().map(String::as_str).collect();
    one_pool_sequences(class(&stems))
}

/// Every sequence of up to two calls of a family whose three keys come from one `pool`
/// (subtask 1 of 3 at `max_parallelism` 10, restored as 0 of 1 and 1 of 2).
fn one_pool_sequences(pool: Vec<String>) -> Vec<super::Case> {
    let family = Family {
        max_parallelism: 10,
        max_calls: 2,
        start: At {
            index: 1,
            parallelism: 3,
        },
        whole: At {
            index: 0,
            parallelism: 1,
        },
        part: At {
            index: 1,
            parallelism: 2,
        },
        pools: [pool.clone(), pool.clone(), pool],
        remove_foreign: false,
    };
    sequences(&family, Zeros::Without)
}

/// Whether a family's sequences call `update(key, |_| Some(0))`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Zeros {
    /// Never: the sequences planned first.
    Without,
    /// In every sequence, at least once.
    Only,
}

/// Every sequence of up to `family.max_calls` calls of its alphabet, but for a call that
/// repeats the one before it without changing anything a second time (a refused update,
/// a removal, a restore): the repeat tells nothing new.
fn sequences(family: &Family, zeros: Zeros) -> Vec<super::Case> {
    let maxp = family.max_parallelism;
    let both = pick(&family.pools[0], |k| {
        owns(family.start, maxp, k) && owns(family.part, maxp, k)
    });
    let only_start = pick(&family.pools[1], |k| {
        owns(family.start, maxp, k) && !owns(family.part, maxp, k)
    });
    // Where the start owns every group, the third key is one the target does not own
    // either, in another group than the second's.
    let foreign = pick(&family.pools[2], |k| {
        let group = oracle::key_group(&crate::stage03::key_bytes(k), maxp);
        !owns(family.part, maxp, k)
            && (!owns(family.start, maxp, k)
                || group != oracle::key_group(&crate::stage03::key_bytes(&only_start), maxp))
    });
    let mut alphabet = vec![
        Op::Count(both.clone()),
        Op::Count(only_start),
        Op::Count(foreign.clone()),
        Op::Remove(both.clone()),
        Op::Restore {
            at: family.part,
            feed: Feed::BesideEmpty,
        },
        Op::Restore {
            at: family.whole,
            feed: Feed::Alone,
        },
        Op::Restore {
            at: family.start,
            feed: Feed::Twice,
        },
        Op::Restore {
            at: family.start,
            feed: Feed::BesideRecounted,
        },
    ];
    if family.remove_foreign {
        alphabet.push(Op::Remove(foreign.clone()));
    }
    if zeros == Zeros::Only {
        alphabet.extend([Op::Zero(both), Op::Zero(foreign)]);
    }
    let idempotent = |op: &Op| !matches!(op, Op::Count(k) if owns(family.start, maxp, k));
    let keep = |ops: &[Op]| {
        !ops.windows(2)
            .any(|pair| pair[0] == pair[1] && idempotent(&pair[0]))
    };
    call_sequences(&alphabet, family.max_calls, keep)
        .into_iter()
        .filter(|ops| zeros == Zeros::Without || ops.iter().any(|op| matches!(op, Op::Zero(_))))
        .map(|ops| super::Case::Contract {
            max_parallelism: maxp,
            start: family.start,
            ops,
        })
        .collect()
}

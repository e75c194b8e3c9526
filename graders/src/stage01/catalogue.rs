//! The operator chains stage 01 is graded on, and their iterator oracles.
//!
//! Each chain mixes operators whose order matters (a map before a filter is not the
//! filter before the map), and the flat maps emit zero, one or two records, so a chain
//! that drops, duplicates or reorders shows it.

use serde::{Deserialize, Serialize};

/// A chain of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ChainId {
    /// `Map(triple_plus_one)`
    Map,
    /// `Filter(is_even)`
    Filter,
    /// `FlatMap(copies_by_remainder)`
    FlatMap,
    /// `Map(increment).then(Filter(is_even))`
    MapThenFilter,
    /// `Filter(is_even).then(Map(increment))`
    FilterThenMap,
    /// `Map(double).then(FlatMap(with_successor)).then(Filter(not_multiple_of_three))`
    ThreeSteps,
    /// `Map(numbered())`: a function with state, so an operator that calls it more than
    /// once per record, or calls a fresh copy each time, shows it.
    Numbered,
    /// `Filter(every_other())`: a predicate with state, likewise.
    EveryOther,
    /// `FlatMap(with_successor).then(Map(numbered()))`: a function with state after an
    /// operator that emits two records per record, so a chain that hands the second
    /// operator those records in another order (or all at once, reversed) shows it.
    FlatMapThenNumbered,
    /// `FlatMap(numbered_copies())`: a flat map whose function keeps state, so a
    /// `FlatMap` that calls it twice per record (to count, then to copy) shows it.
    NumberedFlatMap,
}

impl ChainId {
    /// Every chain, simplest first.
    pub const ALL: [ChainId; 8] = [
        ChainId::Map,
        ChainId::Filter,
        ChainId::FlatMap,
        ChainId::MapThenFilter,
        ChainId::FilterThenMap,
        ChainId::ThreeSteps,
        ChainId::Numbered,
        ChainId::EveryOther,
    ];

    /// The chains planned after every other case (so the cases before keep their
    /// numbers): functions with state behind and inside a `FlatMap`.
    pub const LATER: [ChainId; 2] = [ChainId::FlatMapThenNumbered, ChainId::NumberedFlatMap];

    /// Whether the chain's functions keep state. A crash restarts them with the job, so
    /// such a chain has no uninterrupted run to compare a resumed one with: it is
    /// graded in `chain` only.
    pub fn is_stateful(self) -> bool {
        matches!(
            self,
            ChainId::Numbered
                | ChainId::EveryOther
                | ChainId::FlatMapThenNumbered
                | ChainId::NumberedFlatMap
        )
    }

    /// The chain as code.
    pub fn describe(self) -> &'static str {
        match self {
            ChainId::Map => "Map(|x| 3 * x + 1)",
            ChainId::Filter => "Filter(|x| x % 2 == 0)",
            ChainId::FlatMap => {
                "FlatMap(|x| x % 3 copies of x, from an iterator whose size_hint is (0, None))"
            }
            ChainId::MapThenFilter => "Map(|x| x + 1).then(Filter(|x| x % 2 == 0))",
            ChainId::FilterThenMap => "Filter(|x| x % 2 == 0).then(Map(|x| x + 1))",
            ChainId::ThreeSteps => {
                "Map(|x| 2 * x).then(FlatMap(|x| vec![x, x + 1])).then(Filter(|x| x % 3 != 0))"
            }
            ChainId::Numbered => "Map({ let mut n = 0; move |x| { n += 1; 10 * x + n } })",
            ChainId::EveryOther => "Filter({ let mut n = 0; move |_| { n += 1; n % 2 == 1 } })",
            ChainId::FlatMapThenNumbered => {
                "FlatMap(|x| vec![x, x + 1]).then(Map({ let mut n = 0; move |x| { n += 1; 10 * x + n } }))"
            }
            ChainId::NumberedFlatMap => {
                "FlatMap({ let mut n = 0; move |x| { n += 1; vec![10 * x + n; n % 3] } })"
            }
        }
    }

    /// What the chain must produce from `records`: the same functions over an iterator.
    pub fn oracle(self, records: &[u32]) -> Vec<u32> {
        let it = records.iter().copied();
        match self {
            ChainId::Map => it.map(triple_plus_one).collect(),
            ChainId::Filter => it.filter(is_even).collect(),
            ChainId::FlatMap => it.flat_map(copies_by_remainder).collect(),
            ChainId::MapThenFilter => it.map(increment).filter(is_even).collect(),
            ChainId::FilterThenMap => it.filter(is_even).map(increment).collect(),
            ChainId::ThreeSteps => it
                .map(double)
                .flat_map(with_successor)
                .filter(not_multiple_of_three)
                .collect(),
            ChainId::Numbered => it.map(numbered()).collect(),
            ChainId::EveryOther => it.filter(every_other()).collect(),
            ChainId::FlatMapThenNumbered => it.flat_map(with_successor).map(numbered()).collect(),
            ChainId::NumberedFlatMap => it.flat_map(numbered_copies()).collect(),
        }
    }
}

/// `10x + n` for the `n`-th call: the record and how many calls the function has had.
/// `Clone`, as a closure of a counter is, so an operator that copies it compiles.
pub fn numbered() -> impl FnMut(u32) -> u32 + Clone {
    let mut calls = 0;
    move |x| {
        calls += 1;
        10 * x + calls
    }
}

/// `n % 3` copies of `10x + n` for the `n`-th call: one, two, then none, and again.
pub fn numbered_copies() -> impl FnMut(u32) -> Vec<u32> + Clone {
    let mut calls = 0;
    move |x| {
        calls += 1;
        vec![10 * x + calls; (calls % 3) as usize]
    }
}

/// `true` on the 1st, 3rd, 5th, ... call, whatever the record.
pub fn every_other() -> impl FnMut(&u32) -> bool + Clone {
    let mut calls = 0;
    move |_| {
        calls += 1;
        calls % 2 == 1
    }
}

/// `3x + 1`.
pub fn triple_plus_one(x: u32) -> u32 {
    3 * x + 1
}
/// `x + 1`.
pub fn increment(x: u32) -> u32 {
    x + 1
}
/// `2x`.
pub fn double(x: u32) -> u32 {
    2 * x
}
/// Whether `x` is even.
pub fn is_even(x: &u32) -> bool {
    x.is_multiple_of(2)
}
/// Whether `x` is not a multiple of three.
pub fn not_multiple_of_three(x: &u32) -> bool {
    !x.is_multiple_of(3)
}
/// `x % 3` copies of `x`: zero, one or two records out of one, handed out lazily by an
/// iterator that does not know its length (its `size_hint` is `(0, None)`), as a
/// generator or a filtered range would: an operator that copies as many records as the
/// hint promises, or reserves its upper bound, shows it. The other flat maps return
/// vectors, whose hints are exact.
pub fn copies_by_remainder(x: u32) -> impl Iterator<Item = u32> {
    let mut left = x % 3;
    std::iter::from_fn(move || {
        left = left.checked_sub(1)?;
        Some(x)
    })
}
/// `x` and then `x + 1`.
pub fn with_successor(x: u32) -> Vec<u32> {
    vec![x, x + 1]
}

/// `x + 2`, `x` and `x + 1`: three records out of one, neither sorted nor reversed, so an
/// operator that reorders, sorts, dedups or keeps one of them shows it.
pub fn scrambled_neighbours(x: u32) -> Vec<u32> {
    vec![x + 2, x, x + 1]
}

/// `0..x`: as many records as the input says, a million if it is a million.
pub fn range_below(x: u32) -> std::ops::Range<u32> {
    0..x
}

/// An operator (or chain) of the `process` check, called once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum OperatorId {
    /// `Map(triple_plus_one)`
    Map,
    /// `Filter(is_even)`
    Filter,
    /// `FlatMap(copies_by_remainder)`: zero, one or two copies.
    FlatMapCopies,
    /// `FlatMap(scrambled_neighbours)`: three records, out of order.
    FlatMapScrambled,
    /// `FlatMap(scrambled_neighbours).then(Map(increment))`
    FlatMapThenMap,
    /// `FlatMap(with_successor).then(FlatMap(scrambled_neighbours))`
    FlatMapThenFlatMap,
    /// `Map(triple_plus_one).then(Filter(is_even)).then(FlatMap(scrambled_neighbours))`
    ThreeSteps,
    /// `FlatMap(range_below)`: `0..x`, as many records as `x` says (the wide case only,
    /// not in [`OperatorId::ALL`]).
    FlatMapRange,
}

impl OperatorId {
    /// Every operator, the single ones first (a chain is only blamed once its parts pass).
    pub const ALL: [OperatorId; 7] = [
        OperatorId::Map,
        OperatorId::Filter,
        OperatorId::FlatMapCopies,
        OperatorId::FlatMapScrambled,
        OperatorId::FlatMapThenMap,
        OperatorId::FlatMapThenFlatMap,
        OperatorId::ThreeSteps,
    ];

    /// Whether this is a chain built by `then` (else a single operator).
    pub fn is_chain(self) -> bool {
        matches!(
            self,
            OperatorId::FlatMapThenMap | OperatorId::FlatMapThenFlatMap | OperatorId::ThreeSteps
        )
    }

    /// The operator as code.
    pub fn describe(self) -> &'static str {
        match self {
            OperatorId::Map => "Map(|x| 3 * x + 1)",
            OperatorId::Filter => "Filter(|x| x % 2 == 0)",
            OperatorId::FlatMapCopies => {
                "FlatMap(|x| x % 3 copies of x, from an iterator whose size_hint is (0, None))"
            }
            OperatorId::FlatMapScrambled => "FlatMap(|x| vec![x + 2, x, x + 1])",
            OperatorId::FlatMapThenMap => "FlatMap(|x| vec![x + 2, x, x + 1]).then(Map(|x| x + 1))",
            OperatorId::FlatMapThenFlatMap => {
                "FlatMap(|x| vec![x, x + 1]).then(FlatMap(|x| vec![x + 2, x, x + 1]))"
            }
            OperatorId::ThreeSteps => {
                "Map(|x| 3 * x + 1).then(Filter(|x| x % 2 == 0)).then(FlatMap(|x| vec![x + 2, x, x + 1]))"
            }
            OperatorId::FlatMapRange => "FlatMap(|x| 0..x)",
        }
    }

    /// What one call on `x` must emit: the same functions over an iterator of one record.
    pub fn oracle(self, x: u32) -> Vec<u32> {
        let it = std::iter::once(x);
        match self {
            OperatorId::Map => it.map(triple_plus_one).collect(),
            OperatorId::Filter => it.filter(is_even).collect(),
            OperatorId::FlatMapCopies => it.flat_map(copies_by_remainder).collect(),
            OperatorId::FlatMapScrambled => it.flat_map(scrambled_neighbours).collect(),
            OperatorId::FlatMapThenMap => {
                it.flat_map(scrambled_neighbours).map(increment).collect()
            }
            OperatorId::FlatMapThenFlatMap => it
                .flat_map(with_successor)
                .flat_map(scrambled_neighbours)
                .collect(),
            OperatorId::ThreeSteps => it
                .map(triple_plus_one)
                .filter(is_even)
                .flat_map(scrambled_neighbours)
                .collect(),
            OperatorId::FlatMapRange => it.flat_map(range_below).collect(),
        }
    }
}

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
}

impl ChainId {
    /// Every chain, simplest first.
    pub const ALL: [ChainId; 6] = [
        ChainId::Map,
        ChainId::Filter,
        ChainId::FlatMap,
        ChainId::MapThenFilter,
        ChainId::FilterThenMap,
        ChainId::ThreeSteps,
    ];

    /// The chain as code.
    pub fn describe(self) -> &'static str {
        match self {
            ChainId::Map => "Map(|x| 3 * x + 1)",
            ChainId::Filter => "Filter(|x| x % 2 == 0)",
            ChainId::FlatMap => "FlatMap(|x| vec![x; x % 3])",
            ChainId::MapThenFilter => "Map(|x| x + 1).then(Filter(|x| x % 2 == 0))",
            ChainId::FilterThenMap => "Filter(|x| x % 2 == 0).then(Map(|x| x + 1))",
            ChainId::ThreeSteps => {
                "Map(|x| 2 * x).then(FlatMap(|x| vec![x, x + 1])).then(Filter(|x| x % 3 != 0))"
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
        }
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
/// `x % 3` copies of `x`: zero, one or two records out of one.
pub fn copies_by_remainder(x: u32) -> Vec<u32> {
    vec![x; (x % 3) as usize]
}
/// `x` and then `x + 1`.
pub fn with_successor(x: u32) -> Vec<u32> {
    vec![x, x + 1]
}

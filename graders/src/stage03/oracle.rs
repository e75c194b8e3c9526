//! Flink's formulas and the batch answers of stage 03, written independently of any
//! implementation.

use std::collections::BTreeMap;

/// A key's state at every subtask: entry `i` is subtask `i`'s map.
pub type Counts = Vec<BTreeMap<String, u64>>;

/// FNV-1a, 32 bits: the hash the skeleton gives.
pub fn fnv1a(key: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &byte in key {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// `fnv1a(key) % maxp`.
pub fn key_group(key: &[u8], maxp: u32) -> u32 {
    fnv1a(key) % maxp
}

/// `(start, end)` of subtask `i`'s range, both inclusive.
pub fn range(i: u32, p: u32, maxp: u32) -> (u32, u32) {
    let (i, p, maxp) = (u64::from(i), u64::from(p), u64::from(maxp));
    let start = (i * maxp).div_ceil(p);
    let end = ((i + 1) * maxp).div_ceil(p) - 1;
    (start as u32, end as u32)
}

/// The subtask owning key group `g`.
pub fn owner(g: u32, p: u32, maxp: u32) -> u32 {
    (u64::from(g) * u64::from(p) / u64::from(maxp)) as u32
}

/// The subtask owning `key`.
pub fn owner_of(key: &[u8], p: u32, maxp: u32) -> u32 {
    owner(key_group(key, maxp), p, maxp)
}

/// The records routed to each of `p` subtasks, in input order.
pub fn partition(records: &[(String, u32)], p: u32, maxp: u32) -> Vec<Vec<(String, u32)>> {
    let mut out = vec![Vec::new(); p as usize];
    for record in records {
        out[owner_of(&super::key_bytes(&record.0), p, maxp) as usize].push(record.clone());
    }
    out
}

/// The count of every key, split by owning subtask at `p`.
pub fn counts(keys: &[String], p: u32, maxp: u32) -> Counts {
    let mut out = vec![BTreeMap::new(); p as usize];
    for key in keys {
        *out[owner_of(&super::key_bytes(key), p, maxp) as usize]
            .entry(key.clone())
            .or_default() += 1;
    }
    out
}

/// The old subtasks of `p` whose ranges overlap new subtask `j` of `q`.
pub fn parents(j: u32, p: u32, q: u32, maxp: u32) -> Vec<u32> {
    let (start, end) = range(j, q, maxp);
    (0..p)
        .filter(|&i| {
            let (s, e) = range(i, p, maxp);
            s <= end && start <= e
        })
        .collect()
}

/// Records `(key, position)`, so that order within a subtask is visible.
pub(super) fn numbered(keys: &[String]) -> Vec<(String, u32)> {
    (0u32..).zip(keys).map(|(i, k)| (k.clone(), i)).collect()
}

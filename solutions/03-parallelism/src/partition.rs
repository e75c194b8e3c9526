//! Partitioning a stream across subtasks by key group.

use anyhow::Result;

use crate::key_group::check_parallelism;
use crate::{key_group_for, operator_index_for};

/// Splits `records` into `parallelism` streams: record `r` goes to
/// `operator_index_for(key_group_for(key(r)))`.
///
/// Each output stream keeps input order. Since all records of a key share a key group,
/// they share a subtask, so the order of each key's records survives: that is what lets a
/// keyed operator downstream fold them as if it ran alone.
///
/// # Errors
/// When `parallelism` is 0 or above `max_parallelism`.
pub fn partition<T: Clone>(
    records: &[T],
    key: impl Fn(&T) -> &[u8],
    parallelism: u32,
    max_parallelism: u32,
) -> Result<Vec<Vec<T>>> {
    check_parallelism(parallelism, max_parallelism)?;
    let mut streams = vec![Vec::new(); parallelism as usize];
    for record in records {
        let group = key_group_for(key(record), max_parallelism)?;
        let index = operator_index_for(group, parallelism, max_parallelism)?;
        streams[index as usize].push(record.clone());
    }
    Ok(streams)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_every_record_and_each_keys_order() {
        let records: Vec<(Vec<u8>, u32)> = (0..40u32)
            .map(|i| (vec![b'a' + (i % 5) as u8], i))
            .collect();
        for p in 1..=8 {
            let streams = partition(&records, |r| &r.0, p, 16).unwrap();
            assert_eq!(streams.iter().map(Vec::len).sum::<usize>(), records.len());
            for stream in &streams {
                for key in b'a'..b'f' {
                    let seq: Vec<u32> = stream
                        .iter()
                        .filter(|r| r.0 == [key])
                        .map(|r| r.1)
                        .collect();
                    assert!(seq.is_sorted(), "order of key {key} lost at p={p}");
                }
            }
        }
    }
}

//! Multiset differences: which records are missing and which came out too often.

use std::collections::BTreeMap;

/// The difference between an expected and an actual multiset of records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultisetDiff<T> {
    /// Records expected more often than they came out (once per missing copy).
    pub missing: Vec<T>,
    /// Records that came out more often than expected (once per extra copy).
    pub extra: Vec<T>,
}

/// Compares `expected` and `actual` as multisets, ignoring order.
pub fn multiset_diff<T: Ord + Clone>(expected: &[T], actual: &[T]) -> MultisetDiff<T> {
    let mut balance: BTreeMap<&T, i64> = BTreeMap::new();
    for record in expected {
        *balance.entry(record).or_default() += 1;
    }
    for record in actual {
        *balance.entry(record).or_default() -= 1;
    }
    let mut diff = MultisetDiff {
        missing: Vec::new(),
        extra: Vec::new(),
    };
    for (record, count) in balance {
        let side = if count > 0 {
            &mut diff.missing
        } else {
            &mut diff.extra
        };
        side.extend(std::iter::repeat_n(
            record.clone(),
            count.unsigned_abs() as usize,
        ));
    }
    diff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_count_as_separate_records() {
        let diff = multiset_diff(&[1, 1, 2, 3], &[1, 2, 2, 4]);
        assert_eq!(diff.missing, vec![1, 3]);
        assert_eq!(diff.extra, vec![2, 4]);
    }

    #[test]
    fn equal_multisets_in_another_order_have_no_difference() {
        let diff = multiset_diff(&[3, 1, 2], &[1, 2, 3]);
        assert!(diff.missing.is_empty() && diff.extra.is_empty());
    }
}

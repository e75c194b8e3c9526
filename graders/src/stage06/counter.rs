//! The checkpoint counter of an implementation's own snapshots, found by comparing its
//! snapshots zero, one and two checkpoints in, so that bytes saying what no snapshot says
//! (a checkpoint before the first, checkpoint `u64::MAX` completed) can be written in the
//! implementation's own format, whichever number it keeps.

use serde_json::Value;

/// A snapshot format's counter: the JSON numbers that grow by one per completed
/// checkpoint, on a fresh aligner's snapshot.
pub struct Counter {
    fresh: Value,
    /// The snapshot after checkpoint 1: where it differs from `fresh` is the counter.
    one: Value,
    /// The counter's value on a fresh aligner: 0 for a count of completed checkpoints, 1
    /// for the next checkpoint expected.
    pub base: u64,
}

impl Counter {
    /// Finds the counter in `snapshots` (a fresh aligner's, then after checkpoints 1 and
    /// 2): JSON of one shape whose numbers either stay or grow by exactly one per
    /// checkpoint, all of the growing ones from the same value. `None` for any other
    /// format, where the counter cannot be told.
    pub fn find(snapshots: [&[u8]; 3]) -> Option<Counter> {
        let [fresh, one, two] = snapshots.map(|s| serde_json::from_slice::<Value>(s).ok());
        let (fresh, one, two) = (fresh?, one?, two?);
        let mut bases = Vec::new();
        walk(&fresh, &one, &two, &mut bases)?;
        let base = *bases.first()?;
        bases
            .iter()
            .all(|b| *b == base)
            .then_some(Counter { fresh, one, base })
    }

    /// The fresh snapshot with its counter set to `value`.
    pub fn set_to(&self, value: u64) -> Vec<u8> {
        let mut fresh = self.fresh.clone();
        set(&mut fresh, &self.one, value);
        serde_json::to_vec(&fresh).unwrap_or_default()
    }
}

/// Walks three trees of one shape, collecting the counters' fresh values; `None` when the
/// shapes differ or a value changes otherwise than by one per checkpoint.
fn walk(fresh: &Value, one: &Value, two: &Value, bases: &mut Vec<u64>) -> Option<()> {
    match (fresh, one, two) {
        (Value::Number(a), Value::Number(b), Value::Number(c)) => {
            let (a, b, c) = (a.as_u64()?, b.as_u64()?, c.as_u64()?);
            if a == b && b == c {
                return Some(());
            }
            (a.checked_add(1)? == b && b.checked_add(1)? == c).then(|| bases.push(a))
        }
        (Value::Array(a), Value::Array(b), Value::Array(c))
            if a.len() == b.len() && b.len() == c.len() =>
        {
            (0..a.len()).try_for_each(|i| walk(&a[i], &b[i], &c[i], bases))
        }
        (Value::Object(a), Value::Object(b), Value::Object(c))
            if a.len() == b.len() && b.len() == c.len() =>
        {
            a.iter()
                .try_for_each(|(key, a)| walk(a, b.get(key)?, c.get(key)?, bases))
        }
        (a, b, c) => (a == b && b == c).then_some(()),
    }
}

/// Sets the numbers of `tree` (a fresh snapshot) that differ in `one` (the snapshot of
/// the same shape after checkpoint 1), the counter, to `value`; the constants stay.
fn set(tree: &mut Value, one: &Value, value: u64) {
    match (tree, one) {
        (tree @ Value::Number(_), Value::Number(_)) if *tree != *one => {
            *tree = Value::from(value);
        }
        (Value::Array(items), Value::Array(ones)) => {
            items
                .iter_mut()
                .zip(ones)
                .for_each(|(v, o)| set(v, o, value));
        }
        (Value::Object(fields), Value::Object(ones)) => {
            for (key, v) in fields.iter_mut() {
                if let Some(o) = ones.get(key) {
                    set(v, o, value);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_completed_checkpoints_counts_from_0() {
        let found = Counter::find([
            br#"{"completed":0}"#,
            br#"{"completed":1}"#,
            br#"{"completed":2}"#,
        ]);
        let counter = found.expect("a counter");
        assert_eq!(counter.base, 0);
        assert_eq!(
            counter.set_to(u64::MAX),
            br#"{"completed":18446744073709551615}"#
        );
    }

    #[test]
    fn the_next_checkpoint_counts_from_1_beside_constants() {
        let found = Counter::find([
            br#"{"inputs":1,"next":1}"#,
            br#"{"inputs":1,"next":2}"#,
            br#"{"inputs":1,"next":3}"#,
        ]);
        let counter = found.expect("a counter");
        assert_eq!(counter.base, 1);
        assert_eq!(counter.set_to(0), br#"{"inputs":1,"next":0}"#);
    }

    #[test]
    fn formats_that_are_not_one_counter_have_none() {
        assert!(Counter::find([b"\x00", b"\x01", b"\x02"]).is_none());
        assert!(Counter::find([b"0", b"1", b"3"]).is_none());
        assert!(Counter::find([b"[0,5]", b"[1,6]", b"[2,7]"]).is_none());
        assert!(Counter::find([b"7", b"7", b"7"]).is_none());
    }
}

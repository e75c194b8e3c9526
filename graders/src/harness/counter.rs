//! A counter in an implementation's own snapshots, found by comparing three of them one
//! step apart (zero, one and two checkpoints in; a watermark of 0, 1 and 2; an aggregate
//! of one, two and three records), so that bytes saying what no snapshot says (a
//! checkpoint before the first, an aggregate of no record, a watermark that has fired an
//! open window) can be written in the implementation's own format, whichever field it
//! keeps the number in.

use serde_json::Value;

/// A snapshot format's counter: the JSON numbers that grow by one per step.
pub struct Counter {
    /// The first snapshot, which [`Counter::set_to`] rewrites.
    first: Value,
    /// Where the counter is, as JSON pointers (`/open/0/3`).
    at: Vec<String>,
    /// The counter's value in the first snapshot: for a checkpoint counter, 0 when it
    /// counts completed checkpoints and 1 when it is the next one expected.
    pub base: u64,
}

impl Counter {
    /// Finds the counter in `snapshots`, one step apart: JSON of one shape whose numbers
    /// either stay or grow by exactly one per step, all of the growing ones from the same
    /// value. `None` for any other format, where the counter cannot be told.
    pub fn find(snapshots: [&[u8]; 3]) -> Option<Counter> {
        let [first, one, two] = snapshots.map(|s| serde_json::from_slice::<Value>(s).ok());
        let (first, one, two) = (first?, one?, two?);
        let mut found = Vec::new();
        walk(&first, &one, &two, String::new(), &mut found)?;
        let base = found.first()?.1;
        found.iter().all(|(_, b)| *b == base).then(|| Counter {
            first,
            at: found.into_iter().map(|(at, _)| at).collect(),
            base,
        })
    }

    /// The first snapshot with its counter set to `value`.
    pub fn set_to(&self, value: u64) -> Vec<u8> {
        self.set_in(&self.first, value).unwrap_or_default()
    }

    /// The first snapshot with its counter written as `digits`, a number no JSON tree
    /// holds as an integer (`-1` in an unsigned field, `18446744073709551616`): a reader
    /// that narrows a wider integer with `as` takes it for another count.
    pub fn set_to_digits(&self, digits: &str) -> Vec<u8> {
        // A marker no snapshot holds, written as a string and then swapped for the digits.
        const MARKER: &str = "\u{1}counter\u{1}";
        let mut tree = self.first.clone();
        for at in &self.at {
            if let Some(number) = tree.pointer_mut(at) {
                *number = Value::from(MARKER);
            }
        }
        let quoted = serde_json::to_string(&Value::from(MARKER)).unwrap_or_default();
        serde_json::to_string(&tree)
            .unwrap_or_default()
            .replace(&quoted, digits)
            .into_bytes()
    }

    /// Another snapshot of the same format (`snapshot`, which may hold more than the
    /// three compared) with its counter set to `value`; `None` when the counter is not a
    /// number there.
    pub fn set_in(&self, snapshot: &Value, value: u64) -> Option<Vec<u8>> {
        let mut tree = snapshot.clone();
        for at in &self.at {
            let number = tree.pointer_mut(at).filter(|n| n.is_number())?;
            *number = Value::from(value);
        }
        serde_json::to_vec(&tree).ok()
    }
}

/// Where two snapshots of one shape hold different numbers, as JSON pointers; `None` when
/// their shapes differ.
pub fn numbers_that_differ(a: &Value, b: &Value) -> Option<Vec<String>> {
    fn walk(a: &Value, b: &Value, at: String, found: &mut Vec<String>) -> Option<()> {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                if x != y {
                    found.push(at);
                }
                Some(())
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                (0..x.len()).try_for_each(|i| walk(&x[i], &y[i], format!("{at}/{i}"), found))
            }
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                x.iter().try_for_each(|(key, v)| {
                    let escaped = key.replace('~', "~0").replace('/', "~1");
                    walk(v, y.get(key)?, format!("{at}/{escaped}"), found)
                })
            }
            (x, y) => (x == y).then_some(()),
        }
    }
    let mut found = Vec::new();
    walk(a, b, String::new(), &mut found)?;
    Some(found)
}

/// Walks three trees of one shape from `at`, collecting where the counters are and their
/// first values; `None` when the shapes differ or a value changes otherwise than by one
/// per step.
fn walk(
    first: &Value,
    one: &Value,
    two: &Value,
    at: String,
    found: &mut Vec<(String, u64)>,
) -> Option<()> {
    match (first, one, two) {
        (Value::Number(a), Value::Number(b), Value::Number(c)) => {
            let (a, b, c) = (a.as_u64()?, b.as_u64()?, c.as_u64()?);
            if a == b && b == c {
                return Some(());
            }
            (a.checked_add(1)? == b && b.checked_add(1)? == c).then(|| found.push((at, a)))
        }
        (Value::Array(a), Value::Array(b), Value::Array(c))
            if a.len() == b.len() && b.len() == c.len() =>
        {
            (0..a.len()).try_for_each(|i| walk(&a[i], &b[i], &c[i], format!("{at}/{i}"), found))
        }
        (Value::Object(a), Value::Object(b), Value::Object(c))
            if a.len() == b.len() && b.len() == c.len() =>
        {
            a.iter().try_for_each(|(key, a)| {
                // RFC 6901: `~` and `/` in a key are escaped, in that order.
                let escaped = key.replace('~', "~0").replace('/', "~1");
                walk(
                    a,
                    b.get(key)?,
                    c.get(key)?,
                    format!("{at}/{escaped}"),
                    found,
                )
            })
        }
        (a, b, c) => (a == b && b == c).then_some(()),
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
        assert!(Counter::find([b"[0]", b"[1]", b"[2,2]"]).is_none());
    }

    #[test]
    fn numbers_that_differ_are_named_by_pointer() {
        let a: Value = serde_json::from_str(r#"{"inputs":[3,5],"combined":3}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"inputs":[4,5],"combined":4}"#).unwrap();
        assert_eq!(
            numbers_that_differ(&a, &b).unwrap(),
            ["/combined", "/inputs/0"]
        );
        let c: Value = serde_json::from_str(r#"{"inputs":[4,5]}"#).unwrap();
        assert!(numbers_that_differ(&a, &c).is_none());
    }

    #[test]
    fn a_snapshot_that_holds_more_is_set_where_the_counter_is() {
        let counter = Counter::find([
            br#"{"open":[],"w/m":0}"#,
            br#"{"open":[],"w/m":1}"#,
            br#"{"open":[],"w/m":2}"#,
        ])
        .expect("a counter");
        let holding: Value = serde_json::from_str(r#"{"open":[[0,7,1]],"w/m":0}"#).unwrap();
        assert_eq!(
            counter.set_in(&holding, 9).unwrap(),
            br#"{"open":[[0,7,1]],"w/m":9}"#
        );
        let other: Value = serde_json::from_str(r#"{"open":[]}"#).unwrap();
        assert!(counter.set_in(&other, 9).is_none());
    }
}

//! Snapshots that say what no snapshot says, written in the implementation's own format:
//! an aggregate of no record, one aggregate listed twice (next to itself, or apart), an
//! open window that the snapshot's own watermark has fired (alone, or beside one it has
//! not, in either order). `snapshot` cannot write them, so `restore` must
//! refuse them (05-R16). The format is learned by comparing the implementation's own
//! snapshots; where it does not tell a number or a list, that forgery is not made.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{AssignerSpec, Implementation};
use crate::harness::counter::Counter;

/// The assigner of the forged snapshots: `a@3` lies in `[0, 10)`, which `W(9)` fires
/// and `W(8)` does not.
pub const SPEC: AssignerSpec = AssignerSpec::Tumbling(10);

/// The value of the one record the forged aggregates start from: a number no count or
/// watermark of these snapshots takes, so that it marks where the aggregate is written.
const SUM: i64 = 7;

/// One snapshot that no `snapshot()` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Forgery {
    /// The aggregate `a [0, 10)` with its count, found by comparing aggregates of one, two
    /// and three records, set to 0: an aggregate exists from its first record.
    CountZero,
    /// The list that holds `a [0, 10)` (the one that holds two entries when `b` has a
    /// record there too) with its entry written twice: one `(window, key)` is one
    /// aggregate.
    ListedTwice,
    /// `a [0, 10)` open, with the watermark, found by comparing snapshots after `W(0)`,
    /// `W(1)` and `W(2)`, set to 9, which fires `[0, 10)`.
    FiredWindowOpen,
    /// The list of `a [0, 10)` and `b [0, 10)` with its first entry written again after
    /// the second: a check that only compares neighbours misses it.
    ListedApart,
    /// `a [0, 10)` and `a [10, 20)` open, in the order the snapshot lists them, with the
    /// watermark set to 9, which fires the first and not the second.
    FiredBesideOpen,
    /// The same with the two listed in the opposite order: a check of the first entry
    /// alone misses the one that fired.
    FiredBesideOpenReversed,
}

impl Forgery {
    /// Every forgery, in the order they are tried.
    pub const ALL: [Forgery; 6] = [
        Forgery::CountZero,
        Forgery::ListedTwice,
        Forgery::FiredWindowOpen,
        Forgery::ListedApart,
        Forgery::FiredBesideOpen,
        Forgery::FiredBesideOpenReversed,
    ];

    /// The forgery as a report names it.
    pub fn describe(self) -> &'static str {
        match self {
            Forgery::CountZero => {
                "its snapshot of the aggregate a [0, 10) with the count set to 0: an aggregate exists from its first record"
            }
            Forgery::ListedTwice => {
                "its snapshot of the aggregate a [0, 10) with that aggregate listed twice: one (window, key) is one aggregate"
            }
            Forgery::FiredWindowOpen => {
                "its snapshot of the open aggregate a [0, 10) with the watermark set to 9: W(9) fires [0, 10), so no snapshot holds it open"
            }
            Forgery::ListedApart => {
                "its snapshot of the aggregates a [0, 10) and b [0, 10) with the first listed again after the second: one (window, key) is one aggregate"
            }
            Forgery::FiredBesideOpen => {
                "its snapshot of the open aggregates a [0, 10) and a [10, 20) with the watermark set to 9: W(9) fires [0, 10), so no snapshot holds it open"
            }
            Forgery::FiredBesideOpenReversed => {
                "its snapshot of the open aggregates a [0, 10) and a [10, 20), listed in the opposite order, with the watermark set to 9: W(9) fires [0, 10), so no snapshot holds it open"
            }
        }
    }

    /// The forged bytes in `I`'s format, or `None` when its snapshots do not tell where
    /// to write them (not JSON, or no number or list that can be told).
    pub fn forge<I: Implementation>(self) -> Option<Vec<u8>> {
        match self {
            Forgery::CountZero => count_zero::<I>(),
            Forgery::ListedTwice => listed_twice::<I>(),
            Forgery::FiredWindowOpen => fired_window_open::<I>(),
            Forgery::ListedApart => listed_apart::<I>(),
            Forgery::FiredBesideOpen => fired_beside_open::<I>(false),
            Forgery::FiredBesideOpenReversed => fired_beside_open::<I>(true),
        }
    }
}

/// The bytes a fresh operator of [`SPEC`] snapshots after the optional `watermark`, then
/// `records`, each a (key, timestamp, value).
fn snapshot_after<I: Implementation>(
    watermark: Option<u64>,
    records: &[(&str, u64, i64)],
) -> Option<Vec<u8>> {
    let mut operator = I::operator(SPEC).ok()?;
    if let Some(wm) = watermark {
        I::on_watermark(&mut operator, wm);
    }
    for (key, ts, value) in records {
        I::on_record(&mut operator, key, *ts, *value);
    }
    I::snapshot(&operator).ok()
}

/// `bytes` as JSON, if they are.
fn parsed(bytes: Vec<u8>) -> Option<Value> {
    serde_json::from_slice(&bytes).ok()
}

/// Whether `bytes` restores: the check that a forgery's counterpart, a snapshot some run
/// could write, is read by this format as the forger believes.
fn restores<I: Implementation>(bytes: &[u8]) -> bool {
    I::restore(SPEC, bytes).is_ok()
}

fn count_zero<I: Implementation>() -> Option<Vec<u8>> {
    // Records of 0 after the first change the count, not the sum.
    let records = [("a", 3, SUM), ("a", 3, 0), ("a", 3, 0)];
    let [one, two, three] = [1, 2, 3].map(|n| snapshot_after::<I>(None, &records[..n]));
    let count = Counter::find([&one?, &two?, &three?])?;
    let zero = count.base.checked_sub(1)?;
    restores::<I>(&count.set_to(count.base + 5)).then(|| count.set_to(zero))
}

fn listed_twice<I: Implementation>() -> Option<Vec<u8>> {
    let (one, _, at) = aggregates_of_a_and_b::<I>()?;
    first_listed_again(one, &at)
}

fn listed_apart<I: Implementation>() -> Option<Vec<u8>> {
    let (_, two, at) = aggregates_of_a_and_b::<I>()?;
    first_listed_again(two, &at)
}

/// `tree` with the first entry of its list at `at` written again at the end.
fn first_listed_again(mut tree: Value, at: &str) -> Option<Vec<u8>> {
    let list = tree.pointer_mut(at)?.as_array_mut()?;
    list.push(list[0].clone());
    serde_json::to_vec(&tree).ok()
}

/// The snapshots of `a@3` and of `a@3` and `b@3`, and where in them the list of
/// aggregates is: the list of one entry holding [`SUM`] in the first that holds two
/// entries in the second.
fn aggregates_of_a_and_b<I: Implementation>() -> Option<(Value, Value, String)> {
    let one = parsed(snapshot_after::<I>(None, &[("a", 3, SUM)])?)?;
    let two = parsed(snapshot_after::<I>(None, &[("a", 3, SUM), ("b", 3, SUM)])?)?;
    let at = list_of(&one, String::new(), 1)?;
    if two.pointer(&at).and_then(Value::as_array).map(Vec::len) != Some(2) {
        return None;
    }
    Some((one, two, at))
}

/// The deepest list in `tree` of `len` entries that are each a list or an object holding
/// [`SUM`]: the aggregates' entries, where a format of nested lists (windows, then keys)
/// has its innermost one. As a JSON pointer.
fn list_of(tree: &Value, at: String, len: usize) -> Option<String> {
    let holds_sum = |v: &Value| {
        fn holds(v: &Value) -> bool {
            match v {
                Value::Number(n) => n.as_i64() == Some(SUM),
                Value::Array(items) => items.iter().any(holds),
                Value::Object(fields) => fields.values().any(holds),
                _ => false,
            }
        }
        (v.is_array() || v.is_object()) && holds(v)
    };
    let deeper = match tree {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| list_of(item, format!("{at}/{i}"), len)),
        Value::Object(fields) => fields.iter().find_map(|(key, item)| {
            let escaped = key.replace('~', "~0").replace('/', "~1");
            list_of(item, format!("{at}/{escaped}"), len)
        }),
        _ => None,
    };
    deeper.or_else(|| match tree {
        Value::Array(items) if items.len() == len && items.iter().all(holds_sum) => Some(at),
        _ => None,
    })
}

fn fired_window_open<I: Implementation>() -> Option<Vec<u8>> {
    let [zero, one, two] = [0, 1, 2].map(|wm| snapshot_after::<I>(Some(wm), &[]));
    let watermark = Counter::find([&zero?, &one?, &two?])?;
    let open = parsed(snapshot_after::<I>(Some(0), &[("a", 3, SUM)])?)?;
    let at = |wm: u64| watermark.set_in(&open, watermark.base.checked_add(wm)?);
    restores::<I>(&at(8)?).then(|| at(9)).flatten()
}

/// The snapshot after `W(0)`, `a@3` and `a@13` with the watermark set to 9, and with
/// `reversed` its list of the two aggregates in the opposite order; made where the same
/// with the watermark at 8, in the snapshot's own order, restores.
fn fired_beside_open<I: Implementation>(reversed: bool) -> Option<Vec<u8>> {
    let [zero, one, two] = [0, 1, 2].map(|wm| snapshot_after::<I>(Some(wm), &[]));
    let watermark = Counter::find([&zero?, &one?, &two?])?;
    let records = [("a", 3, SUM), ("a", 13, SUM)];
    let mut open = parsed(snapshot_after::<I>(Some(0), &records)?)?;
    let at = |open: &Value, wm: u64| watermark.set_in(open, watermark.base.checked_add(wm)?);
    if !restores::<I>(&at(&open, 8)?) {
        return None;
    }
    if reversed {
        let list = list_of(&open, String::new(), 2)?;
        open.pointer_mut(&list)?.as_array_mut()?.reverse();
    }
    at(&open, 9)
}

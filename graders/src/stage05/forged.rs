//! Snapshots that say what no snapshot says, written in the implementation's own format:
//! an aggregate of no record, one aggregate listed twice (next to itself, or apart), the
//! group that holds it listed twice where the format groups the aggregates (a window's
//! list of keys, a key's list of windows, an object keyed by window or key: next to
//! itself, or apart), an open window that the snapshot's own watermark has fired (alone,
//! or beside one it has not, in either order). `snapshot` cannot write them, so `restore`
//! must refuse them (05-R16). The format is learned by comparing the implementation's
//! own snapshots; where it does not tell a number or a list, that forgery is not made.

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
    /// The same one level up, at every level of lists or objects that holds the
    /// aggregates in groups (found as the lists and objects on the way to `a [0, 10)`
    /// that hold more entries in the snapshot of `a` and `b`, or of `a [0, 10)` and
    /// `a [10, 20)`), deepest first: the entry or member on the way to `a [0, 10)`
    /// written again after the last, an object's member as its key written twice. A
    /// group listed twice lists each of its `(window, key)` twice.
    GroupListedTwice,
    /// `a [0, 10)` open, with the watermark, found by comparing snapshots after `W(0)`,
    /// `W(1)` and `W(2)`, set to 9, which fires `[0, 10)`.
    FiredWindowOpen,
    /// The list of `a [0, 10)` and `b [0, 10)` with its first entry written again after
    /// the second: a check that only compares neighbours misses it.
    ListedApart,
    /// The same at each level of [`Forgery::GroupListedTwice`], in the snapshot where
    /// that level holds two groups: the one on the way to `a [0, 10)` written again after
    /// the other.
    GroupListedApart,
    /// `a [0, 10)` and `a [10, 20)` open, in the order the snapshot lists them, with the
    /// watermark set to 9, which fires the first and not the second.
    FiredBesideOpen,
    /// The same with the two listed in the opposite order: a check of the first entry
    /// alone misses the one that fired.
    FiredBesideOpenReversed,
}

impl Forgery {
    /// Every forgery, in the order they are tried.
    pub const ALL: [Forgery; 8] = [
        Forgery::CountZero,
        Forgery::ListedTwice,
        Forgery::GroupListedTwice,
        Forgery::FiredWindowOpen,
        Forgery::ListedApart,
        Forgery::GroupListedApart,
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
            Forgery::GroupListedTwice => {
                "its snapshot of the aggregate a [0, 10) with the group that holds it (an entry of a list of groups, or a member of an object keyed by window or key) listed twice: one (window, key) is one aggregate"
            }
            Forgery::FiredWindowOpen => {
                "its snapshot of the open aggregate a [0, 10) with the watermark set to 9: W(9) fires [0, 10), so no snapshot holds it open"
            }
            Forgery::ListedApart => {
                "its snapshot of the aggregates a [0, 10) and b [0, 10) with the first listed again after the second: one (window, key) is one aggregate"
            }
            Forgery::GroupListedApart => {
                "its snapshot of the aggregates a [0, 10) and b [0, 10), or a [0, 10) and a [10, 20), with the group that holds a [0, 10) listed again after the other group: one (window, key) is one aggregate"
            }
            Forgery::FiredBesideOpen => {
                "its snapshot of the open aggregates a [0, 10) and a [10, 20) with the watermark set to 9: W(9) fires [0, 10), so no snapshot holds it open"
            }
            Forgery::FiredBesideOpenReversed => {
                "its snapshot of the open aggregates a [0, 10) and a [10, 20), listed in the opposite order, with the watermark set to 9: W(9) fires [0, 10), so no snapshot holds it open"
            }
        }
    }

    /// The forged bytes in `I`'s format, smallest first: none when its snapshots do not
    /// tell where to write them (not JSON, or no number or list that can be told), one
    /// per level of groups for the forgeries of groups.
    pub fn forge<I: Implementation>(self) -> Vec<Vec<u8>> {
        let one = match self {
            Forgery::CountZero => count_zero::<I>(),
            Forgery::ListedTwice => listed_twice::<I>(),
            Forgery::GroupListedTwice => return groups_listed_again::<I>(false),
            Forgery::FiredWindowOpen => fired_window_open::<I>(),
            Forgery::ListedApart => listed_apart::<I>(),
            Forgery::GroupListedApart => return groups_listed_again::<I>(true),
            Forgery::FiredBesideOpen => fired_beside_open::<I>(false),
            Forgery::FiredBesideOpenReversed => fired_beside_open::<I>(true),
        };
        one.into_iter().collect()
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

/// One step of a JSON pointer: an entry of a list or a member of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Index(usize),
    Key(String),
}

impl Step {
    /// `at` followed by this step, as a JSON pointer.
    fn after(&self, at: &str) -> String {
        match self {
            Step::Index(i) => format!("{at}/{i}"),
            Step::Key(key) => format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
        }
    }
}

/// The steps from the top of `tree` to the first number [`SUM`] in it.
fn steps_to_sum(tree: &Value) -> Option<Vec<Step>> {
    let (step, rest) = match tree {
        Value::Number(n) => return (n.as_i64() == Some(SUM)).then(Vec::new),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| Some((Step::Index(i), steps_to_sum(item)?)))?,
        Value::Object(fields) => fields
            .iter()
            .find_map(|(key, item)| Some((Step::Key(key.clone()), steps_to_sum(item)?)))?,
        _ => return None,
    };
    Some([vec![step], rest].concat())
}

/// The entries of a list or the members of an object: whether it is an object, and how
/// many.
fn entries(tree: Option<&Value>) -> Option<(bool, usize)> {
    match tree? {
        Value::Array(items) => Some((false, items.len())),
        Value::Object(fields) => Some((true, fields.len())),
        _ => None,
    }
}

/// The levels of `one` that hold aggregates in groups, deepest first: each list or
/// object on the way to [`SUM`] (as a JSON pointer, with the step out of it on that way)
/// that holds more entries of the same kind in one of `more`, with the first of `more`
/// where it does.
fn levels_of_groups<'a>(one: &Value, more: &'a [Value]) -> Vec<(String, Step, &'a Value)> {
    let steps = steps_to_sum(one).unwrap_or_default();
    let mut levels = Vec::new();
    let mut at = String::new();
    for step in steps {
        let here = entries(one.pointer(&at));
        let grown = more.iter().find(|tree| {
            matches!((here, entries(tree.pointer(&at))), (Some((kind, n)), Some((k, m))) if kind == k && m > n)
        });
        if let Some(tree) = grown {
            levels.push((at.clone(), step.clone(), tree));
        }
        at = step.after(&at);
    }
    levels.reverse();
    levels
}

/// `tree` as JSON text, with the entry or member `step` of the list or object at `at`
/// written again after its last one (an object's member as its key written twice, which
/// no JSON tree holds); `None` when there is no such entry.
fn written_again(tree: &Value, at: &str, step: &Step) -> Option<Vec<u8>> {
    fn write(tree: &Value, here: &str, again: (&str, &Step), out: &mut Vec<u8>) -> Option<()> {
        let repeat = (here == again.0).then_some(again.1);
        match tree {
            Value::Array(items) => {
                let extra = match repeat {
                    Some(Step::Index(i)) => Some((*i, items.get(*i)?)),
                    Some(Step::Key(_)) => return None,
                    None => None,
                };
                out.push(b'[');
                for (n, (i, item)) in items.iter().enumerate().chain(extra).enumerate() {
                    if n > 0 {
                        out.push(b',');
                    }
                    write(item, &Step::Index(i).after(here), again, out)?;
                }
                out.push(b']');
            }
            Value::Object(fields) => {
                let extra = match repeat {
                    Some(Step::Key(key)) => Some(fields.get_key_value(key)?),
                    Some(Step::Index(_)) => return None,
                    None => None,
                };
                out.push(b'{');
                for (n, (key, item)) in fields.iter().chain(extra).enumerate() {
                    if n > 0 {
                        out.push(b',');
                    }
                    serde_json::to_writer(&mut *out, key).ok()?;
                    out.push(b':');
                    write(item, &Step::Key(key.clone()).after(here), again, out)?;
                }
                out.push(b'}');
            }
            scalar => serde_json::to_writer(&mut *out, scalar).ok()?,
        }
        Some(())
    }
    let mut out = Vec::new();
    write(tree, "", (at, step), &mut out)?;
    Some(out)
}

/// The forgeries of groups of `one` (the snapshot of `a [0, 10)`) given the snapshots of
/// `more` aggregates: at each level of groups other than `inner` (the list that
/// [`Forgery::ListedTwice`] and [`Forgery::ListedApart`] forge), the group on the way to
/// `a [0, 10)` written again, in `one` or, `apart`, in the snapshot where that level
/// holds more than one.
fn groups_again(one: &Value, more: &[Value], inner: Option<&str>, apart: bool) -> Vec<Vec<u8>> {
    levels_of_groups(one, more)
        .into_iter()
        .filter(|(at, _, _)| Some(at.as_str()) != inner)
        .filter_map(|(at, step, grown)| written_again(if apart { grown } else { one }, &at, &step))
        .collect()
}

fn groups_listed_again<I: Implementation>(apart: bool) -> Vec<Vec<u8>> {
    let snapshot = |records: &[(&str, u64, i64)]| parsed(snapshot_after::<I>(None, records)?);
    let Some(one) = snapshot(&[("a", 3, SUM)]) else {
        return Vec::new();
    };
    let more: Vec<Value> = [
        snapshot(&[("a", 3, SUM), ("b", 3, SUM)]),
        snapshot(&[("a", 3, SUM), ("a", 13, SUM)]),
    ]
    .into_iter()
    .flatten()
    .collect();
    let inner = aggregates_of_a_and_b::<I>().map(|(_, _, at)| at);
    groups_again(&one, &more, inner.as_deref(), apart)
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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::groups_again;

    /// The forgeries of groups of the snapshot `one` of `a [0, 10)`, given the snapshots
    /// of `a` and `b` in `[0, 10)` and of `a` in `[0, 10)` and `[10, 20)`, and the inner
    /// list `inner` left to the forgeries of entries; as text.
    fn forged(
        one: Value,
        keys: Value,
        windows: Value,
        inner: Option<&str>,
        apart: bool,
    ) -> Vec<String> {
        groups_again(&one, &[keys, windows], inner, apart)
            .into_iter()
            .map(|bytes| String::from_utf8(bytes).unwrap())
            .collect()
    }

    #[test]
    fn a_flat_list_has_no_level_of_groups() {
        let entry = |key: &str, start: u64| json!([{"start": start, "end": start + 10}, key, 7, 1]);
        let one = json!({"watermark": null, "open": [entry("a", 0)]});
        let keys = json!({"watermark": null, "open": [entry("a", 0), entry("b", 0)]});
        let windows = json!({"watermark": null, "open": [entry("a", 0), entry("a", 10)]});
        for apart in [false, true] {
            let made = forged(
                one.clone(),
                keys.clone(),
                windows.clone(),
                Some("/open"),
                apart,
            );
            assert!(made.is_empty(), "{made:?}");
        }
    }

    #[test]
    fn lists_grouped_by_window_repeat_the_window() {
        let one = json!({"open": [[[0, 10], [["a", 7, 1]]]]});
        let keys = json!({"open": [[[0, 10], [["a", 7, 1], ["b", 7, 1]]]]});
        let windows = json!({"open": [[[0, 10], [["a", 7, 1]]], [[10, 20], [["a", 7, 1]]]]});
        let twice = forged(
            one.clone(),
            keys.clone(),
            windows.clone(),
            Some("/open/0/1"),
            false,
        );
        assert_eq!(
            twice,
            [r#"{"open":[[[0,10],[["a",7,1]]],[[0,10],[["a",7,1]]]]}"#]
        );
        let apart = forged(one, keys, windows, Some("/open/0/1"), true);
        assert_eq!(
            apart,
            [r#"{"open":[[[0,10],[["a",7,1]]],[[10,20],[["a",7,1]]],[[0,10],[["a",7,1]]]]}"#]
        );
    }

    #[test]
    fn lists_grouped_by_key_repeat_each_level_deepest_first() {
        // No inner list of entries the forgeries of entries tell: both levels are groups.
        let one = json!([["a", [[0, 7, 1]]]]);
        let keys = json!([["a", [[0, 7, 1]]], ["b", [[0, 7, 1]]]]);
        let windows = json!([["a", [[0, 7, 1], [10, 7, 1]]]]);
        let twice = forged(one.clone(), keys.clone(), windows.clone(), None, false);
        assert_eq!(
            twice,
            [
                r#"[["a",[[0,7,1],[0,7,1]]]]"#,
                r#"[["a",[[0,7,1]]],["a",[[0,7,1]]]]"#
            ]
        );
        let apart = forged(one, keys, windows, None, true);
        assert_eq!(
            apart,
            [
                r#"[["a",[[0,7,1],[10,7,1],[0,7,1]]]]"#,
                r#"[["a",[[0,7,1]]],["b",[[0,7,1]]],["a",[[0,7,1]]]]"#
            ]
        );
    }

    #[test]
    fn objects_keyed_by_window_write_the_key_twice() {
        let one = json!({"open": {"0": {"a": [7, 1]}}, "watermark": 0});
        let keys = json!({"open": {"0": {"a": [7, 1], "b": [7, 1]}}, "watermark": 0});
        let windows = json!({"open": {"0": {"a": [7, 1]}, "10": {"a": [7, 1]}}, "watermark": 0});
        let twice = forged(one.clone(), keys.clone(), windows.clone(), None, false);
        assert_eq!(
            twice,
            [
                r#"{"open":{"0":{"a":[7,1],"a":[7,1]}},"watermark":0}"#,
                r#"{"open":{"0":{"a":[7,1]},"0":{"a":[7,1]}},"watermark":0}"#,
            ]
        );
        let apart = forged(one, keys, windows, None, true);
        assert_eq!(
            apart,
            [
                r#"{"open":{"0":{"a":[7,1],"b":[7,1],"a":[7,1]}},"watermark":0}"#,
                r#"{"open":{"0":{"a":[7,1]},"10":{"a":[7,1]},"0":{"a":[7,1]}},"watermark":0}"#,
            ]
        );
    }
}

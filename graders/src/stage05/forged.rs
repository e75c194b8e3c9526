//! Snapshots that say what no snapshot says, written in the implementation's own format:
//! an aggregate of no record (with its sum, or with a sum of 0 too), one aggregate listed
//! twice (next to itself, or apart), the group that holds it listed twice where the
//! format groups the aggregates (a window's list of keys, a key's list of windows, an
//! object keyed by window or key: next to itself, or apart), an open window that the snapshot's own watermark has fired (alone,
//! or beside one it has not, in either order), and the snapshot with bytes around it or
//! in it that no snapshot holds. `snapshot` cannot write them, so `restore` must refuse
//! them (05-R16). The format is learned by comparing the implementation's own snapshots;
//! where it does not tell a number or a list, that forgery is not made. A JSON format that
//! writes every number as a string of its digits (as protobuf's JSON mapping writes 64-bit
//! integers) is read as if they were numbers, and its forgeries are written its way.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{AssignerSpec, Implementation};
use crate::harness::counter::Counter;
use crate::harness::padding::paddings;

/// The assigner of the forged snapshots: `a@3` lies in `[0, 10)`, which `W(9)` fires
/// and `W(8)` does not.
pub const SPEC: AssignerSpec = AssignerSpec::Tumbling(10);

/// The value of the one record the forged aggregates start from: a number no count or
/// watermark of these snapshots takes, so that it marks where the aggregate is written.
pub(super) const SUM: i64 = 7;

/// One snapshot that no `snapshot()` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Forgery {
    /// The aggregate `a [0, 10)` with its count, found by comparing aggregates of one, two
    /// and three records, set to 0: an aggregate exists from its first record.
    CountZero,
    /// The same count written as -1, 2^64 and 2^64 + 1: no count of records, though a
    /// count read as a signed or a wider integer and narrowed with `as` takes them for
    /// `u64::MAX`, 0 and 1.
    CountOutOfRange,
    /// The list that holds `a [0, 10)` (the one that holds two entries when `b` has a
    /// record there too) with its entry written twice: one `(window, key)` is one
    /// aggregate.
    ListedTwice,
    /// The same with the sum of the entry written again changed to 8: a check that
    /// compares whole entries, not their `(window, key)`, misses it.
    ListedTwiceChanged,
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
    /// The snapshot of the aggregate `Ä [0, 10)` written twice on two lines, after a
    /// byte-order mark or a form feed, followed by an ideographic space (U+3000) or a form feed, or with
    /// the bytes of its `Ä` set to `0xFF` (where it holds them as they are): what a
    /// reader that trims text, reads the first of a stream of values or decodes bytes
    /// lossily takes for a snapshot. In any format, since none needs to be learned.
    Padded,
    /// `a [0, 10)` with its count set to 0, as [`Forgery::CountZero`], and its sum too,
    /// found by comparing aggregates of one record of 7, 8 and 9: an aggregate of no
    /// record is no aggregate, whatever its sum (a check of "count 0 with a sum" misses
    /// it, and a result of count 0 fires).
    SumAndCountZero,
}

impl Forgery {
    /// Every forgery, in the order they are tried.
    pub const ALL: [Forgery; 12] = [
        Forgery::CountZero,
        Forgery::CountOutOfRange,
        Forgery::ListedTwice,
        Forgery::ListedTwiceChanged,
        Forgery::GroupListedTwice,
        Forgery::FiredWindowOpen,
        Forgery::ListedApart,
        Forgery::GroupListedApart,
        Forgery::FiredBesideOpen,
        Forgery::FiredBesideOpenReversed,
        Forgery::Padded,
        // After the others, so that each implementation they reject still names the same
        // forgery.
        Forgery::SumAndCountZero,
    ];

    /// The forgery as a report names it.
    pub fn describe(self) -> &'static str {
        match self {
            Forgery::CountZero => {
                "its snapshot of the aggregate a [0, 10) with the count set to 0: an aggregate exists from its first record"
            }
            Forgery::CountOutOfRange => {
                "its snapshot of the aggregate a [0, 10) with the count written as -1, 18446744073709551616 (2^64) or 18446744073709551617: a count of records is a u64"
            }
            Forgery::ListedTwice => {
                "its snapshot of the aggregate a [0, 10) with that aggregate listed twice: one (window, key) is one aggregate"
            }
            Forgery::ListedTwiceChanged => {
                "its snapshot of the aggregate a [0, 10) with that aggregate listed again, its sum 8: one (window, key) is one aggregate"
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
            Forgery::Padded => {
                "its snapshot of the aggregate Ä [0, 10) written twice on two lines, after a byte-order mark or a form feed, followed by an ideographic space (U+3000, which str::trim strips) or a form feed (which trim_ascii_end strips), or with the bytes of its Ä set to 0xFF, which no UTF-8 text holds: bytes around a snapshot, or in it, that snapshot never writes"
            }
            Forgery::SumAndCountZero => {
                "its snapshot of the aggregate a [0, 10) with both its sum and its count set to 0: an aggregate exists from its first record, whatever its sum"
            }
        }
    }

    /// The forged bytes in `I`'s format, smallest first: none when its snapshots do not
    /// tell where to write them (not JSON, or no number or list that can be told), one
    /// per level of groups for the forgeries of groups.
    pub fn forge<I: Implementation>(self) -> Vec<Vec<u8>> {
        if self == Forgery::Padded {
            return padded::<I>();
        }
        let quoted = quotes_numbers_of::<I>();
        self.forge_as_numbers::<I>()
            .into_iter()
            .map(|bytes| if quoted { requoted(&bytes) } else { bytes })
            .collect()
    }

    /// [`Forgery::forge`], with the numbers of a format that quotes them as numbers.
    fn forge_as_numbers<I: Implementation>(self) -> Vec<Vec<u8>> {
        let one = match self {
            Forgery::CountZero => count_zero::<I>(),
            Forgery::CountOutOfRange => return count_out_of_range::<I>(),
            Forgery::ListedTwice => listed_twice::<I>(false),
            Forgery::ListedTwiceChanged => listed_twice::<I>(true),
            Forgery::GroupListedTwice => return groups_listed_again::<I>(false),
            Forgery::FiredWindowOpen => fired_window_open::<I>(),
            Forgery::ListedApart => listed_apart::<I>(),
            Forgery::GroupListedApart => return groups_listed_again::<I>(true),
            Forgery::FiredBesideOpen => fired_beside_open::<I>(false),
            Forgery::FiredBesideOpenReversed => fired_beside_open::<I>(true),
            Forgery::SumAndCountZero => sum_and_count_zero::<I>(),
            Forgery::Padded => return Vec::new(),
        };
        one.into_iter().collect()
    }
}

/// The bytes a fresh operator of [`SPEC`] snapshots after the optional `watermark`, then
/// `records`, each a (key, timestamp, value), as it writes them.
fn own_snapshot_after<I: Implementation>(
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

/// [`own_snapshot_after`], with numbers written as strings of their digits read as
/// numbers ([`unquoted`]), so that counters and sums are found in either format.
pub(super) fn snapshot_after<I: Implementation>(
    watermark: Option<u64>,
    records: &[(&str, u64, i64)],
) -> Option<Vec<u8>> {
    let own = own_snapshot_after::<I>(watermark, records)?;
    match serde_json::from_slice::<Value>(&own) {
        Ok(tree) if quotes_numbers(&tree) => serde_json::to_vec(&unquoted(tree)).ok(),
        _ => Some(own),
    }
}

/// Whether `I` writes its numbers as strings of their digits: its snapshot of `a@3=7` is
/// JSON with no number in it and the sum as `"7"`.
pub(super) fn quotes_numbers_of<I: Implementation>() -> bool {
    own_snapshot_after::<I>(None, &[("a", 3, SUM)])
        .and_then(|own| serde_json::from_slice::<Value>(&own).ok())
        .is_some_and(|tree| quotes_numbers(&tree))
}

/// Whether `tree` holds no JSON number and some string that is an integer's digits.
fn quotes_numbers(tree: &Value) -> bool {
    fn numbers(tree: &Value, found: &mut (bool, bool)) {
        match tree {
            Value::Number(_) => found.0 = true,
            Value::String(s) => found.1 |= integer(s).is_some(),
            Value::Array(items) => items.iter().for_each(|item| numbers(item, found)),
            Value::Object(fields) => fields.values().for_each(|item| numbers(item, found)),
            _ => {}
        }
    }
    let mut found = (false, false);
    numbers(tree, &mut found);
    found == (false, true)
}

/// `text` as the integer it writes the way `to_string` does (no sign but a minus, no
/// leading zero), if it does.
fn integer(text: &str) -> Option<Value> {
    let n: Value = serde_json::from_str(text).ok()?;
    (n.is_i64() || n.is_u64()).then_some(())?;
    // A `Value` compared with a `&str` compares strings: compare the number's text.
    let canonical = n.to_string();
    (canonical == text).then_some(n)
}

/// `tree` with every string that is an integer's digits written as that number.
fn unquoted(tree: Value) -> Value {
    match tree {
        Value::String(s) => integer(&s).unwrap_or(Value::String(s)),
        Value::Array(items) => Value::Array(items.into_iter().map(unquoted).collect()),
        Value::Object(fields) => {
            Value::Object(fields.into_iter().map(|(k, v)| (k, unquoted(v))).collect())
        }
        scalar => scalar,
    }
}

/// JSON text with every number written as a string of its characters. Made on the
/// text, not on a tree, since a forgery may write a member twice, which no tree holds.
pub(super) fn requoted(json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len());
    let (mut in_string, mut escaped, mut in_number) = (false, false, false);
    for &byte in json {
        let number_byte = matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E');
        if in_number && !number_byte {
            out.push(b'"');
            in_number = false;
        }
        if in_string {
            (in_string, escaped) = (escaped || byte != b'"', !escaped && byte == b'\\');
        } else if byte == b'"' {
            in_string = true;
        } else if !in_number && matches!(byte, b'0'..=b'9' | b'-') {
            out.push(b'"');
            in_number = true;
        }
        out.push(byte);
    }
    if in_number {
        out.push(b'"');
    }
    out
}

/// `bytes` as JSON, if they are.
fn parsed(bytes: Vec<u8>) -> Option<Value> {
    serde_json::from_slice(&bytes).ok()
}

/// Whether `bytes` restores: the check that a forgery's counterpart, a snapshot some run
/// could write, is read by this format as the forger believes.
fn restores<I: Implementation>(bytes: &[u8]) -> bool {
    if quotes_numbers_of::<I>() {
        return I::restore(SPEC, &requoted(bytes)).is_ok();
    }
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

/// The snapshot of `a [0, 10)` with its count and its sum set to 0; made where the same
/// with the sum 0 and the count 6, a state some run makes, restores.
fn sum_and_count_zero<I: Implementation>() -> Option<Vec<u8>> {
    let records = [("a", 3, SUM), ("a", 3, 0), ("a", 3, 0)];
    let [one, two, three] = [1, 2, 3].map(|n| snapshot_after::<I>(None, &records[..n]));
    let count = Counter::find([&one?, &two?, &three?])?;
    // One record each, of 7, 8 and 9: the sum grows by one, the count stays.
    let [seven, eight, nine] =
        [0, 1, 2].map(|more| snapshot_after::<I>(None, &[("a", 3, SUM + more)]));
    let sum = Counter::find([&seven?, &eight?, &nine?])?;
    let zero = count.base.checked_sub(1)?;
    let summed_to_zero = |count_set: Vec<u8>| sum.set_in(&parsed(count_set)?, 0);
    let possible = summed_to_zero(count.set_to(count.base + 5))?;
    restores::<I>(&possible)
        .then(|| summed_to_zero(count.set_to(zero)))
        .flatten()
}

/// The snapshot of `a [0, 10)` with its count written as numbers past a `u64`'s range.
fn count_out_of_range<I: Implementation>() -> Vec<Vec<u8>> {
    let records = [("a", 3, SUM), ("a", 3, 0), ("a", 3, 0)];
    let [one, two, three] = [1, 2, 3].map(|n| snapshot_after::<I>(None, &records[..n]));
    let (Some(one), Some(two), Some(three)) = (one, two, three) else {
        return Vec::new();
    };
    let Some(count) = Counter::find([&one, &two, &three]) else {
        return Vec::new();
    };
    if !restores::<I>(&count.set_to(count.base + 5)) {
        return Vec::new();
    }
    ["-1", "18446744073709551616", "18446744073709551617"]
        .into_iter()
        .map(|digits| count.set_to_digits(digits))
        .collect()
}

/// The snapshot of `a [0, 10)` with its entry written again, `changed` with the sum 8.
fn listed_twice<I: Implementation>(changed: bool) -> Option<Vec<u8>> {
    let (mut one, _, at) = aggregates_of_a_and_b::<I>()?;
    if changed {
        let list = one.pointer_mut(&at)?.as_array_mut()?;
        let mut again = list[0].clone();
        *first_sum(&mut again)? = SUM.checked_add(1)?.into();
        list.push(again);
        return serde_json::to_vec(&one).ok();
    }
    first_listed_again(one, &at)
}

/// The first number [`SUM`] in `tree`, to be written over.
fn first_sum(tree: &mut Value) -> Option<&mut Value> {
    match tree {
        Value::Number(n) if n.as_i64() == Some(SUM) => Some(tree),
        Value::Array(items) => items.iter_mut().find_map(first_sum),
        Value::Object(fields) => fields.values_mut().find_map(first_sum),
        _ => None,
    }
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

/// The snapshot of `a [0, 10)`, the snapshots of more aggregates that tell its levels of
/// groups, and the inner list of entries, where they are JSON.
fn one_and_more<I: Implementation>() -> Option<(Value, Vec<Value>, Option<String>)> {
    let snapshot = |records: &[(&str, u64, i64)]| parsed(snapshot_after::<I>(None, records)?);
    let one = snapshot(&[("a", 3, SUM)])?;
    let more: Vec<Value> = [
        snapshot(&[("a", 3, SUM), ("b", 3, SUM)]),
        snapshot(&[("a", 3, SUM), ("a", 13, SUM)]),
    ]
    .into_iter()
    .flatten()
    .collect();
    let inner = aggregates_of_a_and_b::<I>().map(|(_, _, at)| at);
    Some((one, more, inner))
}

fn groups_listed_again<I: Implementation>(apart: bool) -> Vec<Vec<u8>> {
    one_and_more::<I>().map_or_else(Vec::new, |(one, more, inner)| {
        groups_again(&one, &more, inner.as_deref(), apart)
    })
}

/// The snapshot of `Ä [0, 10)` padded every way no snapshot is.
fn padded<I: Implementation>() -> Vec<Vec<u8>> {
    own_snapshot_after::<I>(None, &[("Ä", 3, SUM)])
        .map(|own| paddings(&own).map(|(_, bytes)| bytes).collect())
        .unwrap_or_default()
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

    use super::{groups_again, quotes_numbers, requoted, unquoted};

    #[test]
    fn numbers_written_as_digits_are_read_as_numbers_and_written_back() {
        let own = json!({"watermark": "12", "open": [["0", "10", "a", "-7", "1"]], "k": "007"});
        assert!(quotes_numbers(&own));
        assert!(!quotes_numbers(
            &json!({"watermark": 12, "open": [["0", "a"]]})
        ));
        assert!(!quotes_numbers(&json!({"watermark": null, "open": []})));
        let read = unquoted(own);
        assert_eq!(
            read,
            json!({"watermark": 12, "open": [[0, 10, "a", -7, 1]], "k": "007"})
        );
        let forged = br#"{"open":[[0,10,"a\"1",-7,1.5e3]],"open":[],"w":-0}"#;
        assert_eq!(
            String::from_utf8(requoted(forged)).unwrap(),
            r#"{"open":[["0","10","a\"1","-7","1.5e3"]],"open":[],"w":"-0"}"#
        );
    }

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

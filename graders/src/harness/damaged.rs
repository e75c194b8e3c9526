//! Snapshots damaged on purpose: an implementation's own bytes, the right shape with the
//! wrong contents (numbers of the wrong type, lists emptied), for the restores that must
//! refuse them whatever the format.

use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

/// A way of writing every number of a JSON snapshot as something no snapshot holds,
/// each what some lenient reader takes for the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Retyping {
    /// The string `"x"`: what a reader that defaults what it cannot read takes for 0.
    Letter,
    /// The number's own digits in a string (`"7"` for 7): what a reader that parses
    /// strings too takes for the number itself.
    Quoted,
    /// The number with a half added (`7.5` for 7): what a reader of floats takes for 7.
    Fractional,
}

impl Retyping {
    /// Every retyping, in the order they are tried.
    pub const ALL: [Retyping; 3] = [Retyping::Letter, Retyping::Quoted, Retyping::Fractional];

    /// How the numbers were written, after "its numbers".
    pub fn describe(self) -> &'static str {
        match self {
            Retyping::Letter => "written as the string \"x\"",
            Retyping::Quoted => "written as strings of their digits (\"7\" for 7)",
            Retyping::Fractional => "written with a half added (7.5 for 7)",
        }
    }

    /// What this retyping writes in place of `number`.
    fn apply(self, number: &Number) -> Value {
        match self {
            Retyping::Letter => Value::from("x"),
            Retyping::Quoted => Value::from(number.to_string()),
            Retyping::Fractional => Value::from(number.as_f64().unwrap_or_default() + 0.5),
        }
    }
}

/// `snapshot` with every number retyped `how`; `None` when it is not JSON or holds no
/// number (the case is then moot for that format).
pub fn retyped(snapshot: &[u8], how: Retyping) -> Option<Vec<u8>> {
    renumbered(snapshot, |number| how.apply(number))
}

/// `snapshot` with its `n`th number (counted from 0, an object's members in the order of
/// their names, as [`renumbered`] writes them) retyped `how`, every other left as it is;
/// `None` when it is not JSON or holds fewer numbers.
pub fn one_retyped(snapshot: &[u8], n: usize, how: Retyping) -> Option<Vec<u8>> {
    let seen = std::cell::Cell::new(0);
    renumbered(snapshot, |number| {
        let at = seen.replace(seen.get() + 1);
        if at == n {
            how.apply(number)
        } else {
            Value::Number(number.clone())
        }
    })
    .filter(|_| seen.get() > n)
}

/// Restores every retyping of `snapshot`, of all its numbers at once, then (where it
/// holds more than one) of each alone, so that a reader lenient with one field only is
/// not hidden behind another that refuses: the first that `restore` accepts, its answer
/// followed by how the numbers were written; else the last refusal (or, when the
/// snapshot holds no JSON number, an error saying so: the case is moot).
pub fn restore_retyped(
    snapshot: &[u8],
    mut restore: impl FnMut(&[u8]) -> anyhow::Result<String>,
) -> anyhow::Result<String> {
    let mut refusal = anyhow::anyhow!("its snapshot holds no JSON number");
    let numbers = count_numbers(snapshot);
    for how in Retyping::ALL {
        let every =
            retyped(snapshot, how).map(|bytes| (bytes, format!("its numbers {}", how.describe())));
        let each = (0..numbers).filter(|_| numbers > 1).filter_map(|n| {
            one_retyped(snapshot, n, how).map(|bytes| {
                (
                    bytes,
                    format!(
                        "number {} of its {numbers} (the others as they were) {}",
                        n + 1,
                        how.describe()
                    ),
                )
            })
        });
        for (bytes, written) in every.into_iter().chain(each) {
            match restore(&bytes) {
                Ok(answer) => return Ok(format!("{answer}, with {written}")),
                Err(error) => refusal = error,
            }
        }
    }
    Err(refusal)
}

/// How many numbers the JSON `snapshot` holds.
fn count_numbers(snapshot: &[u8]) -> usize {
    let seen = std::cell::Cell::new(0);
    let _ = renumbered(snapshot, |number| {
        seen.set(seen.get() + 1);
        Value::Number(number.clone())
    });
    seen.get()
}

/// `snapshot` read as JSON with every number in it replaced by `number(it)`; `None` when
/// it is not JSON or holds no number (the case is then moot for that format).
pub fn renumbered(snapshot: &[u8], number: impl Fn(&Number) -> Value) -> Option<Vec<u8>> {
    fn walk(value: &mut Value, number: &dyn Fn(&Number) -> Value) -> bool {
        match value {
            Value::Number(n) => {
                *value = number(n);
                true
            }
            Value::Array(items) => every(items.iter_mut(), |v| walk(v, number)),
            Value::Object(fields) => every(fields.values_mut(), |v| walk(v, number)),
            _ => false,
        }
    }
    let mut value: Value = serde_json::from_slice(snapshot).ok()?;
    walk(&mut value, &number).then(|| serde_json::to_vec(&value).ok())?
}

/// `snapshot` read as JSON with every non-empty list in it emptied (an instance of no
/// parts: a combiner of no inputs); `None` when it is not JSON or holds no such list.
pub fn emptied(snapshot: &[u8]) -> Option<Vec<u8>> {
    fn walk(value: &mut Value) -> bool {
        match value {
            Value::Array(items) if !items.is_empty() => {
                items.clear();
                true
            }
            Value::Object(fields) => every(fields.values_mut(), walk),
            _ => false,
        }
    }
    let mut value: Value = serde_json::from_slice(snapshot).ok()?;
    walk(&mut value).then(|| serde_json::to_vec(&value).ok())?
}

/// What each number or `null` of a snapshot is changed to, one at a time.
pub const CHANGED_TO: [Option<u64>; 11] = [
    None,
    Some(0),
    Some(1),
    Some(2),
    Some(3),
    Some(4),
    Some(5),
    Some(6),
    Some(7),
    Some(8),
    Some(9),
];

/// `snapshot` with one number changed at a time, whatever its format: for JSON, each
/// number or `null` (of an object member or a list item) changed to each of
/// [`CHANGED_TO`] other than itself, in the order the leaves are written; for bytes that
/// are not JSON, or JSON that holds no number or `null` (its numbers written as strings),
/// each maximal run of ASCII digits changed to each digit 0..=9 other than itself, every
/// other byte left as it is ([`digit_runs_changed`]).
pub fn one_number_changed(snapshot: &[u8]) -> Vec<Vec<u8>> {
    fn leaves(value: &Value, at: String, found: &mut Vec<String>) {
        match value {
            Value::Null | Value::Number(_) => found.push(at),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    leaves(item, format!("{at}/{i}"), found);
                }
            }
            Value::Object(members) => {
                for (key, member) in members {
                    let escaped = key.replace('~', "~0").replace('/', "~1");
                    leaves(member, format!("{at}/{escaped}"), found);
                }
            }
            Value::Bool(_) | Value::String(_) => {}
        }
    }
    let Ok(base) = serde_json::from_slice::<Value>(snapshot) else {
        return digit_runs_changed(snapshot);
    };
    let mut at = Vec::new();
    leaves(&base, String::new(), &mut at);
    if at.is_empty() {
        return digit_runs_changed(snapshot);
    }
    let mut forged = Vec::new();
    for pointer in &at {
        for to in CHANGED_TO {
            let to = to.map_or(Value::Null, Value::from);
            if base.pointer(pointer) == Some(&to) {
                continue;
            }
            let mut changed = base.clone();
            if let Some(leaf) = changed.pointer_mut(pointer) {
                *leaf = to;
                forged.extend(serde_json::to_vec(&changed).ok());
            }
        }
    }
    forged
}

/// [`one_number_changed`], then each run of digits [`digit_runs_changed`] makes that it
/// did not: a number a JSON snapshot writes as an object's member name (a key group, an
/// input's index) or inside a string, where no JSON number is.
///
/// For bytes that are not JSON, then each byte changed ([`bytes_changed`]): a number a
/// binary format writes in bytes, or a hex or base64 text writes in letters, where no
/// run of digits shows it.
pub fn every_number_changed(snapshot: &[u8]) -> Vec<Vec<u8>> {
    let mut every = one_number_changed(snapshot);
    let mut more = digit_runs_changed(snapshot);
    if serde_json::from_slice::<Value>(snapshot).is_err() {
        more.extend(bytes_changed(snapshot));
    }
    for changed in more {
        if !every.contains(&changed) {
            every.push(changed);
        }
    }
    every
}

/// `snapshot` with each byte in turn (in the order written) changed to itself with its
/// lowest bit flipped, then its highest: a changed count of a binary format, a changed
/// letter of a hex or base64 text. A change that makes whitespace, a sign, or a digit out
/// of another byte, or a leading zero of a run of digits, is left out: a text format may
/// skip the one and read `+7` or `07` as 7 (which the brief does not ask it to refuse),
/// so the bytes it restores need not be the bytes it writes.
pub fn bytes_changed(snapshot: &[u8]) -> Vec<Vec<u8>> {
    let digit_at = |i: usize| snapshot.get(i).is_some_and(u8::is_ascii_digit);
    let mut forged = Vec::new();
    for (i, &byte) in snapshot.iter().enumerate() {
        for to in [byte ^ 0x01, byte ^ 0x80] {
            let leading_zero = to == b'0' && digit_at(i + 1) && (i == 0 || !digit_at(i - 1));
            let insignificant = to.is_ascii_whitespace() || to == 0x0b || to == b'+' || to == b'-';
            if insignificant || leading_zero || (to.is_ascii_digit() && !byte.is_ascii_digit()) {
                continue;
            }
            let mut changed = snapshot.to_vec();
            changed[i] = to;
            forged.push(changed);
        }
    }
    forged
}

/// `snapshot` with each maximal run of ASCII digits in turn (in the order written)
/// replaced by each digit 0..=9 other than itself, every other byte as it is: the number
/// forgeries of a format that is not JSON (a line of text, JSON behind a header), where a
/// number is a run of digits whatever surrounds it. A run is replaced whole, so that no
/// forgery writes a number with a leading zero.
pub fn digit_runs_changed(snapshot: &[u8]) -> Vec<Vec<u8>> {
    let mut forged = Vec::new();
    let mut start = 0;
    while start < snapshot.len() {
        if !snapshot[start].is_ascii_digit() {
            start += 1;
            continue;
        }
        let end = snapshot[start..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(snapshot.len(), |n| start + n);
        for digit in b'0'..=b'9' {
            if snapshot[start..end] == [digit] {
                continue;
            }
            let mut changed = snapshot[..start].to_vec();
            changed.push(digit);
            changed.extend_from_slice(&snapshot[end..]);
            forged.push(changed);
        }
        start = end;
    }
    forged
}

/// Applies `f` to every item (no short circuit: each must be damaged), and says whether
/// any call did damage.
fn every<'a>(
    items: impl Iterator<Item = &'a mut Value>,
    mut f: impl FnMut(&mut Value) -> bool,
) -> bool {
    let mut damaged = false;
    for item in items {
        damaged |= f(item);
    }
    damaged
}

#[cfg(test)]
mod tests {
    use super::{
        Retyping, bytes_changed, digit_runs_changed, emptied, every_number_changed,
        one_number_changed, one_retyped, renumbered, restore_retyped, retyped,
    };
    use serde_json::Value;

    /// The byte at `i` in each forgery of `snapshot` that changes it, in order.
    fn changes_at(snapshot: &[u8], i: usize) -> Vec<u8> {
        bytes_changed(snapshot)
            .iter()
            .filter(|forged| forged[i] != snapshot[i])
            .map(|forged| forged[i])
            .collect()
    }

    #[test]
    fn each_byte_is_changed_twice_and_nothing_else_moves() {
        let snapshot = [0x02, 0x00, 0xff, b'k'];
        let forged = bytes_changed(&snapshot);
        assert_eq!(forged.len(), 2 * snapshot.len());
        for changed in &forged {
            assert_eq!(changed.len(), snapshot.len());
            let moved = changed
                .iter()
                .zip(&snapshot)
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(moved, 1, "one byte changed in {changed:?}");
        }
        assert_eq!(changes_at(&snapshot, 0), [0x03, 0x82]);
        assert_eq!(changes_at(&snapshot, 2), [0xfe, 0x7f]);
    }

    /// No change makes what a text reader may take for the same number: whitespace it
    /// skips, a sign, a digit out of a byte that was none, a leading zero.
    #[test]
    fn no_change_a_text_reader_may_read_as_the_same_number() {
        // `!` (0x21) flips to a space (0x20); `*` (0x2a) to `+` (0x2b); `,` (0x2c) to `-`.
        assert_eq!(changes_at(b"a!b", 1), [0xa1]);
        assert_eq!(changes_at(b"a*b", 1), [0xaa]);
        assert_eq!(changes_at(b"a,b", 1), [0xac]);
        // `\n` (0x0a) flips to 0x0b, a vertical tab: whitespace to some readers.
        assert_eq!(changes_at(b"a\nb", 1), [0x8a]);
        // `8` (0x38) flips to `9`, a digit from a digit: kept; `p` (0x70) flips to `q`,
        // and 0xb0 flips to `0` (0x30): a digit out of another byte, left out.
        assert_eq!(changes_at(b"8", 0), [b'9', 0xb8]);
        assert_eq!(changes_at(&[0xb0], 0), [0xb1]);
        // `1` (0x31) flips to `0` before another digit: a leading zero, left out; at the
        // end of a run, or inside one, `0` is a change like any other.
        assert_eq!(changes_at(b"17", 0), [0xb1]);
        assert_eq!(changes_at(b"71", 1), [b'0', 0xb1]);
        assert_eq!(changes_at(b"717", 1), [b'0', 0xb1]);
    }

    #[test]
    fn json_snapshots_get_no_byte_changes() {
        let snapshot = br#"[["a",1]]"#;
        let every = every_number_changed(snapshot);
        assert!(
            every.iter().all(|forged| forged.len() != snapshot.len()
                || forged
                    .iter()
                    .zip(snapshot)
                    .all(|(a, b)| a == b || b.is_ascii_digit())),
            "a JSON snapshot's forgeries change its numbers, not its bytes one by one"
        );
    }

    #[test]
    fn every_list_is_emptied() {
        assert_eq!(
            emptied(br#"{"inputs":[5,3],"combined":3}"#).as_deref(),
            Some(&br#"{"combined":3,"inputs":[]}"#[..])
        );
        assert_eq!(emptied(br#"{"inputs":[]}"#), None);
    }

    #[test]
    fn every_number_is_renumbered_and_nothing_else() {
        let x = |_: &serde_json::Number| serde_json::Value::from("x");
        assert_eq!(
            renumbered(br#"{"completed":1,"of":[2,"3"]}"#, x).as_deref(),
            Some(&br#"{"completed":"x","of":["x","3"]}"#[..])
        );
        assert_eq!(renumbered(b"7", x).as_deref(), Some(&br#""x""#[..]));
        assert_eq!(renumbered(br#"{"a":"1"}"#, x), None);
        assert_eq!(renumbered(b"not json", x), None);
    }

    #[test]
    fn each_retyping_writes_what_a_lenient_reader_takes_for_the_number() {
        let snapshot = br#"{"completed":7,"of":[0]}"#;
        let written = |how| String::from_utf8(retyped(snapshot, how).unwrap()).unwrap();
        assert_eq!(written(Retyping::Letter), r#"{"completed":"x","of":["x"]}"#);
        assert_eq!(written(Retyping::Quoted), r#"{"completed":"7","of":["0"]}"#);
        assert_eq!(
            written(Retyping::Fractional),
            r#"{"completed":7.5,"of":[0.5]}"#
        );
    }

    #[test]
    fn a_restore_that_takes_any_retyping_is_named_with_it() {
        let lenient = |bytes: &[u8]| {
            let value: serde_json::Value = serde_json::from_slice(bytes)?;
            anyhow::ensure!(value["completed"].is_f64(), "not a number");
            Ok("Ok(an aligner)".to_owned())
        };
        assert_eq!(
            restore_retyped(br#"{"completed":7}"#, lenient).unwrap(),
            "Ok(an aligner), with its numbers written with a half added (7.5 for 7)"
        );
        let strict = |_: &[u8]| -> anyhow::Result<String> { anyhow::bail!("no snapshot") };
        assert!(restore_retyped(br#"{"completed":7}"#, strict).is_err());
        let moot = restore_retyped(br#"{"completed":"7"}"#, lenient).unwrap_err();
        assert!(moot.to_string().contains("no JSON number"));
    }

    /// A reader lenient with one field is found though another field refuses the same
    /// retyping (the twentieth red team's w04-13 read `max_ts` from a string of digits,
    /// and `max_delay` as a string made every retyping of all numbers at once fail).
    #[test]
    fn a_restore_lenient_with_one_number_is_found_alone() {
        let one_lenient = |bytes: &[u8]| {
            let value: serde_json::Value = serde_json::from_slice(bytes)?;
            anyhow::ensure!(value["max_delay"].is_u64(), "max_delay is no number");
            anyhow::ensure!(!value["max_ts"].is_null(), "no max_ts");
            Ok("Ok(a generator)".to_owned())
        };
        assert_eq!(
            restore_retyped(br#"{"max_delay":2,"max_ts":7}"#, one_lenient).unwrap(),
            "Ok(a generator), with number 2 of its 2 (the others as they were) written as the string \"x\""
        );
        assert_eq!(
            one_retyped(br#"{"a":[1,2],"b":3}"#, 1, Retyping::Quoted).as_deref(),
            Some(&br#"{"a":[1,"2"],"b":3}"#[..])
        );
        assert_eq!(one_retyped(br#"{"a":1}"#, 1, Retyping::Quoted), None);
    }

    /// Each number and each `null` is changed to every other value, one at a time; a
    /// snapshot that is not JSON has nothing to change.
    #[test]
    fn each_leaf_takes_each_other_value() {
        let forged = one_number_changed(br#"{"inputs":[3,null],"combined":null}"#);
        // Three leaves, ten other values each.
        assert_eq!(forged.len(), 30);
        let values: Vec<Value> = forged
            .iter()
            .map(|bytes| serde_json::from_slice(bytes).unwrap())
            .collect();
        for want in [
            r#"{"inputs":[9,null],"combined":null}"#,
            r#"{"inputs":[3,null],"combined":3}"#,
        ] {
            assert!(
                values.contains(&serde_json::from_str(want).unwrap()),
                "{want}"
            );
        }
        // Not JSON: each run of digits in turn, whatever surrounds it.
        assert_eq!(
            one_number_changed(b"max_delay=2"),
            digit_runs_changed(b"max_delay=2")
        );
    }

    /// A snapshot that is not JSON (a line format, JSON behind a header) has each run of
    /// digits changed, whole, to each other digit; every other byte stays.
    #[test]
    fn each_run_of_digits_takes_each_other_digit() {
        let forged = digit_runs_changed(b"v1 9;13,-");
        // Three runs: "1" and "9" to nine digits each, "13" to all ten.
        assert_eq!(forged.len(), 28);
        let written: Vec<String> = forged
            .into_iter()
            .map(|b| String::from_utf8(b).unwrap())
            .collect();
        for want in ["v0 9;13,-", "v1 2;13,-", "v1 9;0,-", "v1 9;7,-"] {
            assert!(written.contains(&want.to_owned()), "{want}");
        }
        assert!(!written.contains(&"v1 9;13,-".to_owned()));
        assert!(digit_runs_changed(b"no digits").is_empty());
        // JSON that holds its numbers only as strings is forged the same way.
        assert_eq!(one_number_changed(br#"["5"]"#).len(), 9);
        // A member's name is reached by the runs of digits, after the numbers.
        let every = every_number_changed(br#"{"2":[1]}"#);
        assert_eq!(&every[..10], &one_number_changed(br#"{"2":[1]}"#)[..]);
        assert!(every.contains(&br#"{"4":[1]}"#.to_vec()));
        assert!(!every[10..].contains(&br#"{"2":[3]}"#.to_vec()));
        // JSON behind a header is not JSON: its digits are changed where they stand.
        assert!(
            one_number_changed(br#"combiner/v1 {"combined":3}"#)
                .contains(&br#"combiner/v1 {"combined":4}"#.to_vec())
        );
    }
}

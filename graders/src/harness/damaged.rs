//! Snapshots damaged on purpose: an implementation's own bytes, the right shape with the
//! wrong contents (numbers of the wrong type, lists emptied), for the restores that must
//! refuse them whatever the format.

/// `snapshot` read as JSON with every number in it replaced by `number()`; `None` when
/// it is not JSON or holds no number (the case is then moot for that format).
pub fn renumbered(snapshot: &[u8], number: impl Fn() -> serde_json::Value) -> Option<Vec<u8>> {
    fn walk(value: &mut serde_json::Value, number: &dyn Fn() -> serde_json::Value) -> bool {
        match value {
            serde_json::Value::Number(_) => {
                *value = number();
                true
            }
            serde_json::Value::Array(items) => every(items.iter_mut(), |v| walk(v, number)),
            serde_json::Value::Object(fields) => every(fields.values_mut(), |v| walk(v, number)),
            _ => false,
        }
    }
    let mut value: serde_json::Value = serde_json::from_slice(snapshot).ok()?;
    walk(&mut value, &number).then(|| serde_json::to_vec(&value).ok())?
}

/// `snapshot` read as JSON with every non-empty list in it emptied (an instance of no
/// parts: a combiner of no inputs); `None` when it is not JSON or holds no such list.
pub fn emptied(snapshot: &[u8]) -> Option<Vec<u8>> {
    fn walk(value: &mut serde_json::Value) -> bool {
        match value {
            serde_json::Value::Array(items) if !items.is_empty() => {
                items.clear();
                true
            }
            serde_json::Value::Object(fields) => every(fields.values_mut(), walk),
            _ => false,
        }
    }
    let mut value: serde_json::Value = serde_json::from_slice(snapshot).ok()?;
    walk(&mut value).then(|| serde_json::to_vec(&value).ok())?
}

/// Applies `f` to every item (no short circuit: each must be damaged), and says whether
/// any call did damage.
fn every<'a>(
    items: impl Iterator<Item = &'a mut serde_json::Value>,
    mut f: impl FnMut(&mut serde_json::Value) -> bool,
) -> bool {
    let mut damaged = false;
    for item in items {
        damaged |= f(item);
    }
    damaged
}

#[cfg(test)]
mod tests {
    use super::{emptied, renumbered};

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
        let x = || serde_json::Value::from("x");
        assert_eq!(
            renumbered(br#"{"completed":1,"of":[2,"3"]}"#, x).as_deref(),
            Some(&br#"{"completed":"x","of":["x","3"]}"#[..])
        );
        assert_eq!(renumbered(b"7", x).as_deref(), Some(&br#""x""#[..]));
        assert_eq!(renumbered(br#"{"a":"1"}"#, x), None);
        assert_eq!(renumbered(b"not json", x), None);
    }
}

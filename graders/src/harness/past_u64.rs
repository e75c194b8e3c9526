//! Numbers past the `u64` range written into an implementation's own JSON snapshot: what
//! a reader of wider numbers (`u128`, `f64`) narrowed with `as` takes for a small number
//! (`2^64` for 0, `2^64 + 1` for 1), where a snapshot of `u64` counters holds none.
//!
//! A `serde_json::Value` cannot hold such a number, so every number of the snapshot is
//! first written as a marker string, and the marker's JSON text then replaced by the
//! digits.

use crate::harness::damaged::renumbered;

/// `2^64`, the first number past `u64::MAX`, and `2^64 + 1`: read as a `u128` and cast
/// with `as u64`, they are 0 and 1.
pub const PAST_U64: [&str; 2] = ["18446744073709551616", "18446744073709551617"];

/// What each number is written as before the digits replace it: a string no snapshot
/// writes (its NUL bytes are escaped in JSON text, as `\u0000`).
const MARKER: &str = "\u{0}past u64\u{0}";

/// `snapshot` read as JSON with every number in it written as `digits` (a decimal
/// number, such as one of [`PAST_U64`]); `None` when it is not JSON, holds no number, or
/// already holds the marker's text (the case is then moot for that format).
pub fn renumbered_past_u64(snapshot: &[u8], digits: &str) -> Option<Vec<u8>> {
    let marker = serde_json::to_string(MARKER).ok()?;
    if contains(snapshot, marker.as_bytes()) {
        return None;
    }
    let marked = renumbered(snapshot, |_| serde_json::Value::from(MARKER))?;
    let text = String::from_utf8(marked).ok()?;
    Some(text.replace(&marker, digits).into_bytes())
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_is_written_past_u64() {
        assert_eq!(
            renumbered_past_u64(br#"{"completed":1,"of":[2,"3"]}"#, PAST_U64[0]).as_deref(),
            Some(&br#"{"completed":18446744073709551616,"of":[18446744073709551616,"3"]}"#[..])
        );
        assert_eq!(
            renumbered_past_u64(b"7", PAST_U64[1]).as_deref(),
            Some(&b"18446744073709551617"[..])
        );
    }

    #[test]
    fn no_number_or_no_json_is_moot() {
        assert_eq!(renumbered_past_u64(br#"{"a":"1"}"#, PAST_U64[0]), None);
        assert_eq!(renumbered_past_u64(b"not json", PAST_U64[0]), None);
    }

    #[test]
    fn the_numbers_read_as_u128_narrow_to_0_and_1() {
        let narrowed = PAST_U64.map(|digits| digits.parse::<u128>().map(|n| n as u64));
        assert_eq!(narrowed, [Ok(0), Ok(1)]);
    }
}

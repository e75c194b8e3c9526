//! An implementation's own snapshot with bytes around it or in it that its `snapshot`
//! never writes: what a reader that strips what text-file readers strip, reads a stream
//! of values, or decodes bytes lossily takes for the snapshot itself. Each is no snapshot,
//! whatever the format.

use serde::{Deserialize, Serialize};

/// The byte-order mark of UTF-8, which text editors and some readers strip.
const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

/// A form feed: whitespace to `str::trim` and `trim_ascii`, not to JSON.
const FORM_FEED: &[u8] = b"\x0c";

/// U+3000 IDEOGRAPHIC SPACE: whitespace to `str::trim`, not to JSON nor to `trim_ascii`.
const IDEOGRAPHIC_SPACE: &[u8] = "\u{3000}".as_bytes();

/// `Ä` in UTF-8, the character a broken snapshot loses.
const A_UMLAUT: &[u8] = "Ä".as_bytes();

/// What is put around (or into) an implementation's own snapshot before it is restored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Padding {
    /// The snapshot, then the same snapshot again: bytes after one. Where a snapshot
    /// may be a bare number, the two may be another snapshot (`1` twice is `11`).
    Twice,
    /// The snapshot, a line feed, and the same snapshot again: no snapshot whatever the
    /// format, since a line feed cannot join two numbers into one.
    TwiceOnTwoLines,
    /// A byte-order mark, then the snapshot: bytes before one.
    AfterByteOrderMark,
    /// A form feed, then the snapshot.
    AfterFormFeed,
    /// The snapshot, then an ideographic space.
    BeforeIdeographicSpace,
    /// The snapshot with its first `Ä` written as the bytes `FF FF`, which no UTF-8 text
    /// holds (where the snapshot holds an `Ä` as it is): what a lossy decoder reads as
    /// `U+FFFD`.
    BrokenCharacter,
    /// The snapshot, then a form feed: of what `trim_ascii_end` strips, the one byte JSON
    /// does not read as whitespace (JSON's are space, tab, line feed and carriage return).
    BeforeFormFeed,
}

impl Padding {
    /// Every padding, in the order they are tried.
    pub const ALL: [Padding; 7] = [
        Padding::Twice,
        Padding::TwiceOnTwoLines,
        Padding::AfterByteOrderMark,
        Padding::AfterFormFeed,
        Padding::BeforeIdeographicSpace,
        Padding::BrokenCharacter,
        Padding::BeforeFormFeed,
    ];

    /// `snapshot` padded, or `None` for a broken character where it holds no `Ä`.
    pub fn pad(self, snapshot: &[u8]) -> Option<Vec<u8>> {
        Some(match self {
            Padding::Twice => [snapshot, snapshot].concat(),
            Padding::TwiceOnTwoLines => [snapshot, b"\n", snapshot].concat(),
            Padding::AfterByteOrderMark => [BYTE_ORDER_MARK, snapshot].concat(),
            Padding::AfterFormFeed => [FORM_FEED, snapshot].concat(),
            Padding::BeforeIdeographicSpace => [snapshot, IDEOGRAPHIC_SPACE].concat(),
            Padding::BeforeFormFeed => [snapshot, FORM_FEED].concat(),
            Padding::BrokenCharacter => {
                let at = snapshot
                    .windows(A_UMLAUT.len())
                    .position(|w| w == A_UMLAUT)?;
                let mut broken = snapshot.to_vec();
                broken[at..at + A_UMLAUT.len()].fill(0xff);
                broken
            }
        })
    }

    /// The padded bytes, as the report names them.
    pub fn describe(self) -> &'static str {
        match self {
            Padding::Twice => "its own snapshot written twice, one after the other",
            Padding::TwiceOnTwoLines => "its own snapshot written twice, on two lines",
            Padding::AfterByteOrderMark => "its own snapshot after a byte-order mark",
            Padding::AfterFormFeed => {
                "its own snapshot after a form feed (b\"\\x0c\", which str::trim strips)"
            }
            Padding::BeforeIdeographicSpace => {
                "its own snapshot followed by an ideographic space (U+3000, which str::trim strips)"
            }
            Padding::BeforeFormFeed => {
                "its own snapshot followed by a form feed (b\"\\x0c\", which trim_ascii_end strips)"
            }
            Padding::BrokenCharacter => {
                "its own snapshot with the bytes of its first 'Ä' set to 0xFF, which no UTF-8 text holds"
            }
        }
    }
}

/// Every padding of `snapshot` that is no snapshot whatever the format, with the padding:
/// all but [`Padding::Twice`], since a snapshot that is a bare number written twice with
/// nothing between is another snapshot (`1` twice is `11`). A check whose snapshot holds
/// keys, which a second copy repeats, may add it.
pub fn paddings(snapshot: &[u8]) -> impl Iterator<Item = (Padding, Vec<u8>)> + '_ {
    Padding::ALL
        .into_iter()
        .filter(|padding| *padding != Padding::Twice)
        .filter_map(move |padding| Some((padding, padding.pad(snapshot)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_padding_of_a_json_snapshot_parses_as_json() {
        let snapshot = serde_json::to_vec(&[("Ä b", 2)]).unwrap();
        let mut padded: Vec<_> = paddings(&snapshot).collect();
        padded.extend(Padding::Twice.pad(&snapshot).map(|b| (Padding::Twice, b)));
        assert_eq!(padded.len(), Padding::ALL.len());
        for (padding, bytes) in padded {
            assert!(
                serde_json::from_slice::<serde_json::Value>(&bytes).is_err(),
                "{padding:?}"
            );
        }
    }

    #[test]
    fn a_snapshot_without_the_character_is_not_broken() {
        assert_eq!(Padding::BrokenCharacter.pad(b"[1]"), None);
    }
}

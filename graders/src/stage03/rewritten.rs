//! Stage 03's own subtask snapshot rewritten into bytes `snapshot` never writes, whatever
//! its format: one key's name replaced by another's, so that a key is listed twice or the
//! keys are out of order. Neither is a snapshot (03-R9: a key found twice in one snapshot
//! is no snapshot, whoever restores it).
//!
//! The format is the implementation's own, so the key is looked for in every encoding a
//! snapshot of bytes plausibly uses (the bytes as text, a JSON list of byte values, hex,
//! base64), and what `restore` made of the rewritten bytes is asked back: it may refuse
//! them, or restore a subtask whose own snapshot is those bytes (the same JSON tree, for
//! JSON: spacing and the order of an object's members are the writer's). A subtask that
//! writes other bytes read them as a snapshot they are not: a key read twice keeps one
//! value, keys out of order are sorted back.

use super::binding::Implementation;
use super::guard::{Answer, caught};
use crate::harness::strict_json;

/// The snapshot rewritten is of subtask 0 of 2 at `max_parallelism` 8, which owns key
/// groups 0..=3, holding [`FIRST`] counted once and [`SECOND`] counted twice; the
/// rewritten bytes are restored by the same subtask.
const SUBTASK: (u32, u32, u32) = (0, 2, 8);

/// Key group 0 at `max_parallelism` 8.
const FIRST: &str = "cherry";
/// Key group 0: the key whose name is replaced. Six letters, as are the others, so that
/// every encoding of it is as long as theirs (a length written before it stays right).
const SECOND: &str = "medlar";
/// Key group 0, and before [`FIRST`] in byte order.
const BEFORE: &str = "banana";

/// What [`SECOND`]'s name is replaced by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rename {
    /// [`FIRST`]: that key twice, once with each value.
    Twice,
    /// [`BEFORE`], which sorts before [`FIRST`]: the keys out of order where the format
    /// lists them in order.
    OutOfOrder,
}

impl Rename {
    fn to(self) -> &'static str {
        match self {
            Rename::Twice => FIRST,
            Rename::OutOfOrder => BEFORE,
        }
    }
}

/// The encodings of `key` a snapshot may hold, in the order they are tried: its bytes as
/// text, a JSON list of its byte values (compact and spaced), hex (lower and upper case),
/// base64.
fn encodings(key: &[u8]) -> Vec<Vec<u8>> {
    let values: Vec<String> = key.iter().map(u8::to_string).collect();
    let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
    vec![
        key.to_vec(),
        format!("[{}]", values.join(",")).into_bytes(),
        format!("[{}]", values.join(", ")).into_bytes(),
        hex.clone().into_bytes(),
        hex.to_uppercase().into_bytes(),
        base64(key).into_bytes(),
    ]
}

/// `bytes` in standard base64, with padding.
fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(DIGITS[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `snapshot` with every occurrence of `from` written `to`, if it holds one.
fn replaced(snapshot: &[u8], from: &[u8], to: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(snapshot.len());
    let mut rest = snapshot;
    let mut found = false;
    while !rest.is_empty() {
        if rest.starts_with(from) {
            out.extend_from_slice(to);
            rest = &rest[from.len()..];
            found = true;
        } else {
            out.push(rest[0]);
            rest = &rest[1..];
        }
    }
    found.then_some(out)
}

/// `snapshot` rewritten `rename`, once for each encoding in which it holds [`SECOND`].
pub fn forge(snapshot: &[u8], rename: Rename) -> Vec<Vec<u8>> {
    encodings(SECOND.as_bytes())
        .iter()
        .zip(encodings(rename.to().as_bytes()))
        .filter_map(|(from, to)| replaced(snapshot, from, &to))
        .collect()
}

/// Whether `again`, a restored subtask's own snapshot, is the snapshot `bytes` were: the
/// same JSON tree where both are JSON, else the same bytes.
fn same_snapshot(bytes: &[u8], again: &[u8]) -> bool {
    match (strict_json::read(bytes), strict_json::read(again)) {
        (Ok(forged), Ok(written)) => forged == written,
        _ => bytes == again,
    }
}

/// Restores each rewriting of the implementation's own snapshot: the first that restores
/// a subtask whose own snapshot is other bytes, described (`Ok`), or a panic; `Err` when
/// each is refused or restores its own bytes (or none can be made: the case is moot).
pub fn restored_otherwise<I: Implementation>(rename: Rename) -> Answer<String> {
    let (index, parallelism, max_parallelism) = SUBTASK;
    let own = caught(|| {
        let mut subtask = I::subtask(index, parallelism, max_parallelism)?;
        I::count(&mut subtask, FIRST)?;
        I::count(&mut subtask, SECOND)?;
        I::count(&mut subtask, SECOND)?;
        I::snapshot(&subtask)
    });
    let Answer::Ok(own) = own else {
        // The laws' checks report a subtask that cannot be made.
        return Answer::Err("its snapshot of the two keys could not be taken".to_owned());
    };
    let forged = forge(&own, rename);
    if forged.is_empty() {
        return Answer::Err(format!(
            "its snapshot holds {SECOND:?} in none of the encodings tried"
        ));
    }
    for bytes in forged {
        let restored = caught(|| {
            let subtask = I::restore(
                index,
                parallelism,
                max_parallelism,
                std::slice::from_ref(&bytes),
            )?;
            Ok((I::counts(&subtask), I::snapshot(&subtask)))
        });
        match restored {
            Answer::Err(_) => continue,
            Answer::Ok((_, Ok(again))) if same_snapshot(&bytes, &again) => continue,
            Answer::Ok((counts, again)) => {
                return Answer::Ok(format!(
                    "subtask {index} of {parallelism} (max_parallelism {max_parallelism}) restored \
                     from {:?}, rewritten from its own snapshot {:?}, holds {counts:?} and its own \
                     snapshot is {}: bytes no snapshot writes, read as one",
                    String::from_utf8_lossy(&bytes),
                    String::from_utf8_lossy(&own),
                    match again {
                        Ok(again) => format!("{:?}", String::from_utf8_lossy(&again)),
                        Err(e) => format!("Err({e:#})"),
                    }
                ));
            }
            Answer::Panicked(message) => return Answer::Panicked(message),
        }
    }
    Answer::Err(
        "each is refused, or restores a subtask whose own snapshot is those bytes".to_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::{BEFORE, FIRST, Rename, SECOND, SUBTASK, base64, forge, same_snapshot};
    use crate::stage03::oracle;

    #[test]
    fn the_three_keys_are_owned_by_the_subtask_and_ordered() {
        let (index, parallelism, max_parallelism) = SUBTASK;
        for key in [FIRST, SECOND, BEFORE] {
            assert_eq!(
                oracle::owner_of(key.as_bytes(), parallelism, max_parallelism),
                index,
                "{key}"
            );
        }
        assert!(BEFORE < FIRST && FIRST < SECOND);
    }

    #[test]
    fn the_second_key_is_renamed_in_each_encoding_found() {
        let pairs = br#"[[[99,104,101,114,114,121],1],[[109,101,100,108,97,114],2]]"#;
        assert_eq!(
            forge(pairs, Rename::Twice),
            vec![br#"[[[99,104,101,114,114,121],1],[[99,104,101,114,114,121],2]]"#.to_vec()]
        );
        assert_eq!(
            forge(b"636865727279 1\n6d65646c6172 2\n", Rename::OutOfOrder),
            vec![b"636865727279 1\n62616e616e61 2\n".to_vec()]
        );
        assert_eq!(
            forge(br#"{"cherry":1,"medlar":2}"#, Rename::Twice),
            vec![br#"{"cherry":1,"cherry":2}"#.to_vec()]
        );
        assert_eq!(
            forge(b"bWVkbGFy=2", Rename::OutOfOrder),
            vec![b"YmFuYW5h=2".to_vec()]
        );
        assert!(forge(b"[]", Rename::Twice).is_empty());
    }

    #[test]
    fn base64_is_the_standard_one() {
        assert_eq!(base64(b"medlar"), "bWVkbGFy");
        assert_eq!(base64(b"k"), "aw==");
        assert_eq!(base64(b"ke"), "a2U=");
    }

    #[test]
    fn a_snapshot_is_the_same_tree_or_the_same_bytes() {
        assert!(same_snapshot(
            br#"{"medlar":2,"banana":1}"#,
            br#"{ "banana": 1, "medlar": 2 }"#
        ));
        assert!(!same_snapshot(br#"{"a":1,"a":2}"#, br#"{"a":2}"#));
        assert!(!same_snapshot(b"[[1],[0]]", b"[[0],[1]]"));
        assert!(same_snapshot(b"6b 1\n", b"6b 1\n"));
        assert!(!same_snapshot(b"6b 1\n6b 2\n", b"6b 2\n"));
    }
}

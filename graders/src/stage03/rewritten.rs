//! Stage 03's own subtask snapshot rewritten, whatever its format: one key's name replaced
//! by another's, so that a key is listed twice or the keys are out of order, which is no
//! snapshot (03-R9: a key found twice in one snapshot is no snapshot, whoever restores
//! it); or one number changed, which may be a snapshot (of other counts, other keys) and
//! then must be read as the one it is.
//!
//! The format is the implementation's own, so the key is looked for in every encoding a
//! snapshot of bytes plausibly uses (`harness::renamed`), and what `restore` made of the rewritten bytes is asked back: it may refuse
//! them, or restore a subtask whose own snapshot is those bytes (the same JSON tree, for
//! JSON: spacing and the order of an object's members are the writer's). A subtask that
//! writes other bytes read them as a snapshot they are not: a key read twice keeps one
//! value, keys out of order are sorted back.
//!
//! Last of all, not the snapshot rewritten but its state written by the grader in each
//! other layout a snapshot commonly has (`harness::layouts`), keys as the JSON list of
//! their bytes and as text: the list of pairs stage 02's `to_bytes` writes among them. A
//! `restore` that reads its own format and also one of these ("legacy" snapshots, the
//! reference's layout) reads bytes its `snapshot` never writes (03-R9); the layout that
//! is its own format is not tried.

use serde_json::Value;

use super::binding::Implementation;
use super::guard::{Answer, caught};
use crate::harness::damaged::every_number_changed;
use crate::harness::derivable::derived;
use crate::harness::layouts::other_layouts;
use crate::harness::renamed::renamings;
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

/// Where a snapshot is restored whose numbers were changed: subtask 0 of 1, which owns
/// every key group, so that a correct restore keeps every key the bytes hold, wherever a
/// changed number put it, and its own snapshot is those bytes.
const WHOLE: (u32, u32, u32) = (0, 1, 8);

/// How the snapshot is rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rewrite {
    /// [`SECOND`] written [`FIRST`]: that key twice, once with each value.
    Twice,
    /// [`SECOND`] written [`BEFORE`], which sorts before [`FIRST`]: the keys out of order
    /// where the format lists them in order.
    OutOfOrder,
    /// Each number (or `null`) changed in turn to `null` and to 0 to 9, then each run of
    /// digits to each other digit, restored by [`WHOLE`]: a count, a version or a key
    /// group written beside the keys and never read back.
    NumberChanged,
    /// Not the snapshot rewritten: its state, [`FIRST`] counted once and [`SECOND`]
    /// twice, written by the grader in each layout of [`other_layouts`] that is not its
    /// own, restored by [`SUBTASK`], which owns both keys.
    OtherLayout,
}

impl Rewrite {
    /// The subtask that restores the rewritten bytes.
    fn restored_by(self) -> (u32, u32, u32) {
        match self {
            Rewrite::Twice | Rewrite::OutOfOrder | Rewrite::OtherLayout => SUBTASK,
            Rewrite::NumberChanged => WHOLE,
        }
    }
}

/// `snapshot` rewritten so: once for each encoding in which it holds [`SECOND`]
/// ([`renamings`]), or once for each number changed ([`every_number_changed`]); or its
/// state in each other layout ([`other_layouts`]).
pub fn forge(snapshot: &[u8], rewrite: Rewrite) -> Vec<Vec<u8>> {
    let second = SECOND.as_bytes();
    match rewrite {
        Rewrite::Twice => renamings(snapshot, second, FIRST.as_bytes()),
        Rewrite::OutOfOrder => renamings(snapshot, second, BEFORE.as_bytes()),
        Rewrite::NumberChanged => every_number_changed(snapshot),
        Rewrite::OtherLayout => {
            // The keys as the JSON list of their bytes (what serde writes of a `Vec<u8>`),
            // then as text (what a snapshot of keys decoded as strings writes).
            let pairs = |key: fn(&'static str) -> Value| {
                [(FIRST, 1_u64), (SECOND, 2)]
                    .map(|(k, count)| (key(k), Value::from(count)))
                    .to_vec()
            };
            other_layouts(
                snapshot,
                &[pairs(|k| Value::from(k.as_bytes())), pairs(Value::from)],
            )
        }
    }
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
pub fn restored_otherwise<I: Implementation>(rewrite: Rewrite) -> Answer<String> {
    let own = caught(|| {
        let (index, parallelism, max_parallelism) = SUBTASK;
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
    let forged = forge(&own, rewrite);
    if forged.is_empty() {
        return Answer::Err(format!(
            "its snapshot holds {SECOND:?} in none of the encodings tried, or no digit, or \
             is every layout"
        ));
    }
    let (index, parallelism, max_parallelism) = rewrite.restored_by();
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
            // What a derived `Deserialize` of its own type reads (a struct written as the
            // list of its fields, say) is no second format of its own.
            Answer::Ok((_, Ok(again)))
                if rewrite == Rewrite::OtherLayout && derived(&bytes, &again) =>
            {
                continue;
            }
            Answer::Ok((counts, again)) => {
                let again = match again {
                    Ok(again) => format!("{:?}", String::from_utf8_lossy(&again)),
                    Err(e) => format!("Err({e:#})"),
                };
                return Answer::Ok(if rewrite == Rewrite::OtherLayout {
                    format!(
                        "restore read bytes in another layout, {:?}, which your snapshot never \
                         writes: subtask {index} of {parallelism} (max_parallelism \
                         {max_parallelism}) restored from them holds {counts:?} and its own \
                         snapshot is {again}",
                        String::from_utf8_lossy(&bytes),
                    )
                } else {
                    format!(
                        "subtask {index} of {parallelism} (max_parallelism {max_parallelism}) \
                         restored from {:?}, rewritten from its own snapshot {:?}, holds \
                         {counts:?} and its own snapshot is {again}: bytes no snapshot writes, \
                         read as one",
                        String::from_utf8_lossy(&bytes),
                        String::from_utf8_lossy(&own),
                    )
                });
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
    use super::{BEFORE, FIRST, Rewrite, SECOND, SUBTASK, forge, same_snapshot};
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
    fn the_second_key_is_renamed() {
        assert_eq!(
            forge(br#"{"cherry":1,"medlar":2}"#, Rewrite::Twice),
            vec![br#"{"cherry":1,"cherry":2}"#.to_vec()]
        );
        assert_eq!(
            forge(br#"{"cherry":1,"medlar":2}"#, Rewrite::OutOfOrder),
            vec![br#"{"cherry":1,"banana":2}"#.to_vec()]
        );
    }

    #[test]
    fn the_state_is_written_in_every_layout_but_its_own() {
        let pairs = r#"[[[99,104,101,114,114,121],1],[[109,101,100,108,97,114],2]]"#;
        let others = forge(pairs.as_bytes(), Rewrite::OtherLayout);
        // Three layouts of keys as bytes (no object: its names are text), four of text.
        assert_eq!(others.len(), 6);
        assert!(!others.contains(&pairs.as_bytes().to_vec()));
        assert!(others.contains(&br#"{"cherry":1,"medlar":2}"#.to_vec()));
        assert!(others.contains(&br#"[["cherry",1],["medlar",2]]"#.to_vec()));
        // A snapshot of another format meets all seven.
        let own = br#"{"max_parallelism":8,"pairs":[]}"#;
        assert_eq!(forge(own, Rewrite::OtherLayout).len(), 7);
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

//! Stage 03's own snapshot with one number changed: `restore` may refuse it, or keep what
//! it reads, but a subtask never keeps a key whose group it does not own.
//!
//! Why: a format may write beside each key what the key already says (its key group, as
//! Flink's key-group-indexed state does), and a `restore` that sorts by that number
//! instead of hashing the key again keeps whatever the bytes claim. Whether it kept a key
//! it does not own is read from its state, so every format is judged the same way; and
//! every format is forged: a snapshot that is not JSON (a line of text, JSON behind a
//! header) has each run of digits changed instead, and a JSON one has its runs of digits
//! changed too, after its numbers, since a key group may be written as an object's member
//! name (`{"2": [["6b", 1]]}`) or inside a string, where no JSON number is.

use super::binding::Implementation;
use super::guard::{Answer, caught};
use super::oracle;
use crate::harness::damaged::every_number_changed;

/// Where the forged snapshot is restored: both subtasks of 2 at `max_parallelism` 8, one
/// of which owns `k` and one not.
const RESTORED_AS: [(u32, u32, u32); 2] = [(0, 2, 8), (1, 2, 8)];

/// Restores `own` (the implementation's snapshot of `{"k": 1}`) with each of its numbers,
/// then each of its runs of digits, changed in turn, as each subtask of [`RESTORED_AS`]: the first restore that keeps a key
/// its subtask does not own, described (`Ok`), or a panic; `Err` when none does.
pub fn restored_not_owned<I: Implementation>(own: &[u8]) -> Answer<String> {
    for forged in every_number_changed(own) {
        for (index, parallelism, max_parallelism) in RESTORED_AS {
            let kept = caught(|| {
                I::restore(
                    index,
                    parallelism,
                    max_parallelism,
                    std::slice::from_ref(&forged),
                )
                .map(|subtask| I::counts(&subtask))
            });
            let counts = match kept {
                Answer::Ok(counts) => counts,
                Answer::Err(_) => continue,
                Answer::Panicked(message) => return Answer::Panicked(message),
            };
            for key in counts.keys() {
                let bytes = super::binding::key_bytes(key);
                let owner = oracle::owner_of(&bytes, parallelism, max_parallelism);
                if owner != index {
                    return Answer::Ok(format!(
                        "subtask {index} of {parallelism} (max_parallelism {max_parallelism}) restored from {} holds {counts:?}: key {key:?} is in key group {}, which subtask {owner} owns",
                        String::from_utf8_lossy(&forged),
                        oracle::key_group(&bytes, max_parallelism),
                    ));
                }
            }
        }
    }
    Answer::Err("each is refused, or restores only keys the subtask owns".to_owned())
}

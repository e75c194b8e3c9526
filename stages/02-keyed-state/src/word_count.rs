//! The running word count: stage 01's operators plus stage 02's keyed state.

use crate::KeyedProcessFunction;

/// The keyed function of [`word_count`]: it counts the occurrences of each word, emitting
/// `(word, count so far)` every time (02-R11).
#[derive(Debug, Clone, Copy, Default)]
pub struct WordCount;

impl KeyedProcessFunction<String, String> for WordCount {
    type Out = (String, u64);
    type State = u64;

    fn process_element(
        &mut self,
        key: &String,
        word: String,
        state: &mut Option<u64>,
        out: &mut Vec<(String, u64)>,
    ) {
        // TODO(stage 02): bump this word's count and emit `(word, count)`.
        let _ = (key, word, state, out);
        todo!()
    }
}

/// The running-count update stream of the words in `lines`: one `(word, count so far)`
/// per occurrence, in input order (02-R11). Words are separated by any whitespace
/// (02-R12) and kept exactly as written (02-R13).
pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
    // TODO(stage 02): a `VecSource` of the lines, a `FlatMap` that splits them into words,
    // then a `KeyedProcessOperator` keyed by the word running `WordCount`, and `run`.
    let _ = lines;
    todo!()
}

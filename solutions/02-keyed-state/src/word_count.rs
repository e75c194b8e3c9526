//! The running word count: stage 01's operators plus stage 02's keyed state.

use stage01::{FlatMap, Operator, VecSource, run};

use crate::{KeyedProcessFunction, KeyedProcessOperator};

/// Counts the occurrences of each word, emitting `(word, count so far)` every time.
#[derive(Debug, Clone, Copy, Default)]
pub struct WordCount;

impl KeyedProcessFunction<String, String> for WordCount {
    type Out = (String, u64);
    type State = u64;

    fn process_element(
        &mut self,
        key: &String,
        _word: String,
        state: &mut Option<u64>,
        out: &mut Vec<(String, u64)>,
    ) {
        let count = state.unwrap_or(0) + 1;
        *state = Some(count);
        out.push((key.clone(), count));
    }
}

/// The running-count update stream of the words in `lines`: one `(word, count so far)`
/// per occurrence, in input order. Words are separated by whitespace.
pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
    let mut source = VecSource::new(lines.to_vec());
    let split = FlatMap(|line: String| {
        line.split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    });
    let count = KeyedProcessOperator::new(|word: &String| word.clone(), WordCount);
    let mut job = split.then(count);
    run(&mut source, &mut job)
}

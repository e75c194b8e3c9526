//! The judge of a call given a bad argument: it must be refused with an error that names
//! the argument, never accepted and never refused in words that leave the learner
//! guessing which argument was wrong. [`refusal`] takes a message that contains the name
//! as naming it, as the briefs of stages 05 to 07 say; [`names`] asks for the name as a
//! whole word, for stage 03, whose arguments' names hold one another (`max_parallelism`
//! holds `parallelism`, `operator_index` holds `index`): the person who reads the error
//! fixes the argument it names. Either way the case of the message's letters does not
//! matter: an error that starts "Inputs: ..." names `inputs`.

use std::fmt::Display;

use super::case::Failure;

/// How a call given a bad argument answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal<'a, T> {
    /// Refused with an error that names the argument: right.
    Named,
    /// Refused, but the error does not name the argument.
    Unnamed(&'a str),
    /// Accepted, returning this.
    Accepted(&'a T),
}

/// Whether `message` names `argument` as a whole word, not as part of a longer identifier
/// (a letter, digit or `_` right before or after it), though a plural `s` may follow
/// (`inputs` for `input`). Where no other argument's name holds this one, [`refusal`]'s
/// plainer test is the brief's: `window_size` names `size` there.
pub fn names(message: &str, argument: &str) -> bool {
    let message = message.to_lowercase();
    let part_of_a_name = |c: char| c.is_alphanumeric() || c == '_';
    !argument.is_empty()
        && message.match_indices(argument).any(|(at, _)| {
            let before = message[..at].chars().next_back();
            let mut after = message[at + argument.len()..].chars();
            let after = match after.next() {
                Some('s') => after.next(),
                next => next,
            };
            !before.is_some_and(part_of_a_name) && !after.is_some_and(part_of_a_name)
        })
}

/// Whether `message` contains `argument` (a name in lower case) in any case of its
/// letters.
pub fn contains_name(message: &str, argument: &str) -> bool {
    message.to_lowercase().contains(argument)
}

/// How `result`, the answer to a call with a bad `argument`, refused it (if it did): an
/// error whose message contains the argument's name names it.
pub fn refusal<'a, T>(result: &'a Result<T, String>, argument: &str) -> Refusal<'a, T> {
    match result {
        Err(message) if contains_name(message, argument) => Refusal::Named,
        Err(message) => Refusal::Unnamed(message),
        Ok(value) => Refusal::Accepted(value),
    }
}

/// `Ok` when `result` is an error naming `argument`; otherwise the failure that says
/// whether `call` accepted the bad argument or refused it without naming it.
///
/// # Errors
/// The [`Failure`] that explains what was expected and what came out.
pub fn expect_error_naming<T: Display>(
    result: &Result<T, String>,
    argument: &str,
    call: impl Display,
) -> Result<(), Failure> {
    let expected = || format!("an error naming `{argument}`");
    match refusal(result, argument) {
        Refusal::Named => Ok(()),
        Refusal::Unnamed(message) => Err(Failure::new(expected(), format!("Err({message:?})"))
            .step("the error does not say which argument is wrong")),
        Refusal::Accepted(value) => {
            Err(Failure::new(expected(), format!("Ok({value})"))
                .step(format!("{call} was accepted")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_counts_only_as_a_whole_word() {
        assert!(names(
            "parallelism must be at least 1, got 0",
            "parallelism"
        ));
        assert!(names("bad `parallelism`: 0", "parallelism"));
        assert!(names(
            "new_parallelism: parallelism must be at least 1",
            "parallelism"
        ));
        assert!(names("no input 5: this combiner has 2 inputs", "input"));
        assert!(names("a combiner needs inputs", "input"));
        assert!(!names(
            "max_parallelism 8 does not allow 0 subtasks",
            "parallelism"
        ));
        assert!(!names("operator_index must be below 2", "index"));
        assert!(!names("indexed 2 times", "index"));
        assert!(!names("parallelisms2", "parallelism"));
        assert!(!names("anything", ""));
    }

    #[test]
    fn an_error_naming_the_argument_passes_and_the_others_say_why_not() {
        assert!(
            expect_error_naming(&Err::<u32, _>("bad `size`: 0".into()), "size", "f(0)").is_ok()
        );
        let unnamed =
            expect_error_naming(&Err::<u32, _>("bad".into()), "size", "f(0)").unwrap_err();
        assert_eq!(unnamed.actual, "Err(\"bad\")");
        assert_eq!(
            unnamed.first_wrong_step.as_deref(),
            Some("the error does not say which argument is wrong")
        );
        let accepted = expect_error_naming(&Ok::<u32, String>(7), "size", "f(0)").unwrap_err();
        assert_eq!(accepted.expected, "an error naming `size`");
        assert_eq!(accepted.actual, "Ok(7)");
        assert_eq!(
            accepted.first_wrong_step.as_deref(),
            Some("f(0) was accepted")
        );
    }
}

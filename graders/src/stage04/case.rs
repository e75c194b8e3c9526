//! One case of stage 04 and the check it belongs to. Records are `(ts, id)`; the id
//! tells equal timestamps apart.

use serde::{Deserialize, Serialize};

use super::Element;
use super::contract::{Op, Subject};
use crate::harness::{Check, case};

pub(super) const GENERATOR: Check = Check {
    name: "generator",
    law: "after each record the watermark is max_ts - max_delay - 1, None while max_ts <= max_delay",
};
pub(super) const WITH_WATERMARKS: Check = Check {
    name: "with-watermarks",
    law: "a watermark follows a record exactly when it advanced: no repeat, no regression",
};
pub(super) const LATENESS: Check = Check {
    name: "lateness",
    law: "a record is late exactly when its timestamp is <= a watermark before it",
};
pub(super) const COMBINER: Check = Check {
    name: "combiner",
    law: "the combined watermark is None until every input reported, then the running minimum",
};
pub(super) const CRASH: Check = Check {
    name: "crash",
    law: "restoring the generator or the combiner from bytes after any element changes nothing",
};
pub(super) const CONTRACT: Check = Check {
    name: "contract",
    law: "every short sequence of calls on a generator or a combiner answers and reads as the brief says",
};
pub(super) const ERRORS: Check = Check {
    name: "errors",
    law: "0 inputs or an unknown input is an error that names the argument, and restore refuses bytes that are not a snapshot",
};

/// A call with an invalid argument, and the argument its error must name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorCall {
    /// `CombinedWatermark::new(0)`
    NoInputs,
    /// `on_watermark(2, 5)` on a combiner of 2 inputs.
    UnknownInput,
    /// `on_watermark(usize::MAX, 5)` on a combiner of 2 inputs: the largest index, where
    /// `input + 1` overflows.
    FarInput,
    /// `on_watermark(1 << 32, 5)` on a combiner of 2 inputs: an input kept in a `u32`
    /// (`input as u32`) takes it for input 0.
    WrappedInput,
    /// `BoundedOutOfOrderness::restore(b"not a snapshot")`
    GeneratorGarbage,
    /// `CombinedWatermark::restore(b"not a snapshot")`
    CombinerGarbage,
    /// `BoundedOutOfOrderness::restore(b"{}")`: JSON, but no generator's snapshot (unless
    /// the implementation's own snapshot of a fresh generator is `{}`).
    GeneratorEmptyObject,
    /// `CombinedWatermark::restore(b"{}")`: JSON, but no combiner's snapshot (unless the
    /// implementation's own snapshot of a fresh combiner is `{}`).
    CombinerEmptyObject,
    /// `BoundedOutOfOrderness::restore(b"[]")`: JSON, but no generator's snapshot, which
    /// a reader that takes a list's missing fields for their defaults restores (unless
    /// the bytes are the implementation's own snapshot, see [`ErrorCall::is_junk`]).
    GeneratorEmptyArray,
    /// `BoundedOutOfOrderness::restore(b"null")`.
    GeneratorNull,
    /// `CombinedWatermark::restore(b"[]")`: a combiner of no input, if anything.
    CombinerEmptyArray,
    /// `CombinedWatermark::restore(b"null")`.
    CombinerNull,
    /// `BoundedOutOfOrderness::restore` of the implementation's own snapshot of
    /// `new(2)` with ` trailing` after it (what a reader that stops after the first value
    /// takes for a snapshot), then padded ([`paddings`](crate::harness::padding::paddings):
    /// what a reader of a stream of values, or one that trims text, takes for one).
    GeneratorTrailing,
    /// `CombinedWatermark::restore` of the implementation's own snapshot of `new(2)` with
    /// ` trailing` after it, then padded.
    CombinerTrailing,
    /// `BoundedOutOfOrderness::restore` of the first half of the implementation's own
    /// snapshot of `new(2)` after `on_event(7)`: a snapshot cut short.
    GeneratorHalf,
    /// `CombinedWatermark::restore` of the first half of the implementation's own
    /// snapshot of `new(2)` after `on_watermark(0, 5)` and `on_watermark(1, 3)`.
    CombinerHalf,
    /// `BoundedOutOfOrderness::restore` of the implementation's own snapshot of `new(2)`
    /// after `on_event(7)` with every JSON number written as the string `"x"`, as a
    /// string of its digits, and with a half added, all at once, then each alone
    /// ([`Retyping`](crate::harness::damaged::Retyping);
    /// moot for a snapshot that is not JSON or holds no number).
    GeneratorRetyped,
    /// `CombinedWatermark::restore` of the combiner's snapshot of [`ErrorCall::CombinerHalf`]
    /// with every JSON number retyped in each of those ways.
    CombinerRetyped,
    /// `CombinedWatermark::restore` of the implementation's own snapshot of `new(2)` with
    /// every list in it emptied: a combiner of no inputs, which `new(0)` refuses (moot
    /// without a list).
    CombinerEmptied,
    /// `CombinedWatermark::restore` of the implementation's own snapshot of `new(2)` after
    /// `on_watermark(0, 3)` and `on_watermark(1, 5)`, with its combined watermark (the one
    /// number that moves from there to inputs at 4 and 5, and not to inputs at 5 and 3) set
    /// to 4: a combined watermark above the minimum of its inputs', which no combiner
    /// holds (moot when the snapshot keeps no combined watermark that can be told).
    CombinerOutOfStep,
    /// `BoundedOutOfOrderness::restore` of the implementation's own snapshot of `new(2)`,
    /// and of `new(2)` after `on_event(5)`, with one number or `null` changed to `null` or
    /// to a number up to 9, then each run of digits changed to another digit
    /// ([`every_number_changed`](crate::harness::damaged::every_number_changed)):
    /// each must be refused, or restore a generator that answers as one a run makes.
    GeneratorNumberChanged,
    /// `CombinedWatermark::restore` of the implementation's own snapshot of `new(2)` after
    /// inputs 3 and 5 reported, and after input 0 alone reported 4, one number or `null`
    /// changed so: each must be refused, or restore a combiner that answers as one a run
    /// makes.
    CombinerNumberChanged,
    /// `BoundedOutOfOrderness::restore` of the implementation's own snapshots of
    /// [`ErrorCall::GeneratorNumberChanged`] with every JSON number in them set to
    /// `u64::MAX` at once: refused, or a generator that answers as one some run makes,
    /// never a panic (moot for a snapshot that is not JSON or holds no number).
    GeneratorNumbersMax,
    /// `CombinedWatermark::restore` of the implementation's own snapshot of `new(1)` after
    /// `on_watermark(0, 3)`, its combined watermark (where [`ErrorCall::CombinerOutOfStep`]
    /// finds it) set to 4, then to 2; and of `new(1)`, where it writes none as `null`
    /// there, set to 5: one input, and still not the minimum of its inputs' (moot when
    /// the combined watermark cannot be told).
    CombinerSingleOutOfStep,
}

impl ErrorCall {
    /// Every invalid call, in plan order: the arguments first, then the bytes that are
    /// not a snapshot, shortest first.
    pub const ALL: [ErrorCall; 21] = [
        ErrorCall::NoInputs,
        ErrorCall::UnknownInput,
        ErrorCall::FarInput,
        ErrorCall::GeneratorGarbage,
        ErrorCall::CombinerGarbage,
        ErrorCall::GeneratorEmptyObject,
        ErrorCall::CombinerEmptyObject,
        ErrorCall::GeneratorEmptyArray,
        ErrorCall::GeneratorNull,
        ErrorCall::CombinerEmptyArray,
        ErrorCall::CombinerNull,
        ErrorCall::GeneratorTrailing,
        ErrorCall::CombinerTrailing,
        ErrorCall::GeneratorHalf,
        ErrorCall::CombinerHalf,
        ErrorCall::GeneratorRetyped,
        ErrorCall::CombinerRetyped,
        ErrorCall::CombinerEmptied,
        ErrorCall::CombinerOutOfStep,
        ErrorCall::GeneratorNumberChanged,
        ErrorCall::CombinerNumberChanged,
    ];

    /// The invalid calls added after the others, planned after every other case so that
    /// those keep their numbers.
    pub const LATER: [ErrorCall; 3] = [
        ErrorCall::GeneratorNumbersMax,
        ErrorCall::CombinerSingleOutOfStep,
        ErrorCall::WrappedInput,
    ];

    /// Whether the call's bytes are junk a restore may still accept when they are the
    /// implementation's own snapshot (of a fresh instance, or of the very instance they
    /// restore, which writes them back): `{}`, `[]`, `null`, a snapshot cut short. Bytes
    /// after a whole snapshot never are.
    pub fn is_junk(self) -> bool {
        matches!(
            self,
            ErrorCall::GeneratorEmptyObject
                | ErrorCall::CombinerEmptyObject
                | ErrorCall::GeneratorEmptyArray
                | ErrorCall::GeneratorNull
                | ErrorCall::CombinerEmptyArray
                | ErrorCall::CombinerNull
                | ErrorCall::GeneratorHalf
                | ErrorCall::CombinerHalf
                | ErrorCall::CombinerEmptied
        )
    }

    /// The call as code.
    pub fn code(self) -> &'static str {
        match self {
            ErrorCall::NoInputs => "CombinedWatermark::new(0)",
            ErrorCall::UnknownInput => "CombinedWatermark::new(2)?.on_watermark(2, 5)",
            ErrorCall::FarInput => "CombinedWatermark::new(2)?.on_watermark(usize::MAX, 5)",
            ErrorCall::WrappedInput => "CombinedWatermark::new(2)?.on_watermark(1 << 32, 5)",
            ErrorCall::GeneratorGarbage => "BoundedOutOfOrderness::restore(b\"not a snapshot\")",
            ErrorCall::CombinerGarbage => "CombinedWatermark::restore(b\"not a snapshot\")",
            ErrorCall::GeneratorEmptyObject => "BoundedOutOfOrderness::restore(b\"{}\")",
            ErrorCall::CombinerEmptyObject => "CombinedWatermark::restore(b\"{}\")",
            ErrorCall::GeneratorTrailing => {
                "BoundedOutOfOrderness::restore(&[BoundedOutOfOrderness::new(2).snapshot()?, b\" trailing\"].concat()), and of that snapshot written twice on two lines, after a byte-order mark or a form feed, or followed by an ideographic space (U+3000) or a form feed"
            }
            ErrorCall::CombinerTrailing => {
                "CombinedWatermark::restore(&[CombinedWatermark::new(2)?.snapshot()?, b\" trailing\"].concat()), and of that snapshot written twice on two lines, after a byte-order mark or a form feed, or followed by an ideographic space (U+3000) or a form feed"
            }
            ErrorCall::GeneratorEmptyArray => "BoundedOutOfOrderness::restore(b\"[]\")",
            ErrorCall::GeneratorNull => "BoundedOutOfOrderness::restore(b\"null\")",
            ErrorCall::CombinerEmptyArray => "CombinedWatermark::restore(b\"[]\")",
            ErrorCall::CombinerNull => "CombinedWatermark::restore(b\"null\")",
            ErrorCall::GeneratorHalf => {
                "BoundedOutOfOrderness::restore(&bytes[..bytes.len() / 2]), bytes the snapshot of new(2) after on_event(7)"
            }
            ErrorCall::CombinerHalf => {
                "CombinedWatermark::restore(&bytes[..bytes.len() / 2]), bytes the snapshot of new(2) after on_watermark(0, 5), on_watermark(1, 3)"
            }
            ErrorCall::GeneratorRetyped => {
                "BoundedOutOfOrderness::restore(the snapshot of new(2) after on_event(7), its numbers written as \"x\", as strings of their digits or with a half added, all at once, then each alone)"
            }
            ErrorCall::CombinerRetyped => {
                "CombinedWatermark::restore(the snapshot of new(2) after on_watermark(0, 5), on_watermark(1, 3), its numbers written as \"x\", as strings of their digits or with a half added, all at once, then each alone)"
            }
            ErrorCall::CombinerEmptied => {
                "CombinedWatermark::restore(the snapshot of new(2), its lists emptied: no inputs)"
            }
            ErrorCall::CombinerOutOfStep => {
                "CombinedWatermark::restore(the snapshot of new(2) after on_watermark(0, 3), on_watermark(1, 5), its combined watermark set to 4, above the minimum 3 of its inputs', then to 2, below it, then to 5, the other input's; and of new(2) after on_watermark(0, 4) alone, its combined watermark set to 4 where it writes none as null: input 1 is silent)"
            }
            ErrorCall::CombinerSingleOutOfStep => {
                "CombinedWatermark::restore(the snapshot of new(1) after on_watermark(0, 3), its combined watermark set to 4, then to 2; and of new(1), where it writes none as null, set to 5)"
            }
            ErrorCall::GeneratorNumberChanged => {
                "BoundedOutOfOrderness::restore(the snapshot of new(2), and of new(2) after on_event(5), one number or null in it changed to null or to 0..=9), refused or a generator some run makes"
            }
            ErrorCall::GeneratorNumbersMax => {
                "BoundedOutOfOrderness::restore(the snapshot of new(2), and of new(2) after on_event(5), every number in it set to u64::MAX), refused or a generator some run makes"
            }
            ErrorCall::CombinerNumberChanged => {
                "CombinedWatermark::restore(the snapshot of new(2) after on_watermark(0, 3), on_watermark(1, 5), and after on_watermark(0, 4) alone, one number or null in it changed to null or to 0..=9), refused or a combiner some run makes"
            }
        }
    }

    /// What the call must answer.
    pub fn expected(self) -> String {
        match (self, self.argument()) {
            (ErrorCall::GeneratorNumberChanged | ErrorCall::GeneratorNumbersMax, _) => {
                "an error, or a generator that answers as one some run makes".to_owned()
            }
            (ErrorCall::CombinerNumberChanged, _) => {
                "an error, or a combiner that answers as one some run makes".to_owned()
            }
            (_, Some(argument)) => format!("an error naming `{argument}`"),
            (_, None) => "an error".to_owned(),
        }
    }

    /// The requirement a call that does not refuse as it should breaks.
    pub fn requirement(self) -> &'static str {
        match self {
            ErrorCall::NoInputs => "04-R11",
            ErrorCall::UnknownInput | ErrorCall::FarInput | ErrorCall::WrappedInput => "04-R12",
            _ => "04-R15",
        }
    }

    /// The word the error message must contain (none for unreadable bytes).
    pub fn argument(self) -> Option<&'static str> {
        match self {
            ErrorCall::NoInputs => Some("inputs"),
            ErrorCall::UnknownInput | ErrorCall::FarInput | ErrorCall::WrappedInput => {
                Some("input")
            }
            _ => None,
        }
    }
}

/// One case of stage 04. Records are `(ts, id)`; the id tells equal timestamps apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Case {
    /// `on_event` for each arrival, `current_watermark()` after each.
    Generator {
        /// The records in arrival order.
        arrivals: Vec<(u64, u32)>,
        /// The bound.
        max_delay: u64,
    },
    /// `with_watermarks(arrivals, max_delay)`.
    WithWatermarks {
        /// The records in arrival order.
        arrivals: Vec<(u64, u32)>,
        /// The bound.
        max_delay: u64,
    },
    /// `split_late` of the stream the bounded generator makes of `arrivals`.
    Lateness {
        /// The records in arrival order.
        arrivals: Vec<(u64, u32)>,
        /// The bound the watermarks were generated with.
        max_delay: u64,
    },
    /// `on_watermark(input, ts)` for each step of `interleaving`.
    Combiner {
        /// The number of inputs.
        inputs: usize,
        /// `(input, watermark)` in arrival order.
        interleaving: Vec<(usize, u64)>,
    },
    /// The generator snapshotted and restored after `crash_after` records.
    GeneratorCrash {
        /// The records in arrival order.
        arrivals: Vec<(u64, u32)>,
        /// The bound.
        max_delay: u64,
        /// Records before the snapshot.
        crash_after: usize,
    },
    /// The combiner snapshotted and restored after `crash_after` steps.
    CombinerCrash {
        /// The number of inputs.
        inputs: usize,
        /// `(input, watermark)` in arrival order.
        interleaving: Vec<(usize, u64)>,
        /// Steps before the snapshot.
        crash_after: usize,
    },
    /// `split_late` of a stream built here, with watermarks that go back, timestamps at
    /// the edges of `u64`, several late records: streams `with_watermarks` never makes.
    Split {
        /// The stream.
        elements: Vec<Element>,
    },
    /// A short sequence of calls on one generator or combiner.
    Contract {
        /// What is driven.
        subject: Subject,
        /// The calls, in order.
        ops: Vec<Op>,
    },
    /// A call with an invalid argument.
    Errors {
        /// The call.
        call: ErrorCall,
    },
}

fn timestamps(arrivals: &[(u64, u32)]) -> String {
    let ts: Vec<String> = arrivals.iter().map(|(ts, _)| ts.to_string()).collect();
    format!("[{}]", ts.join(", "))
}

fn steps(interleaving: &[(usize, u64)]) -> String {
    let steps: Vec<String> = interleaving
        .iter()
        .map(|(input, ts)| format!("input {input}: {ts}"))
        .collect();
    format!("[{}]", steps.join(", "))
}

impl case::Case for Case {
    fn check(&self) -> Check {
        match self {
            Case::Generator { .. } => GENERATOR,
            Case::WithWatermarks { .. } => WITH_WATERMARKS,
            Case::Lateness { .. } | Case::Split { .. } => LATENESS,
            Case::Contract { .. } => CONTRACT,
            Case::Combiner { .. } => COMBINER,
            Case::GeneratorCrash { .. } | Case::CombinerCrash { .. } => CRASH,
            Case::Errors { .. } => ERRORS,
        }
    }

    fn describe(&self) -> String {
        match self {
            Case::Generator {
                arrivals,
                max_delay,
            }
            | Case::WithWatermarks {
                arrivals,
                max_delay,
            } => format!(
                "timestamps in arrival order {}, max_delay {max_delay}",
                timestamps(arrivals)
            ),
            Case::Lateness {
                arrivals,
                max_delay,
            } => format!(
                "the stream with_watermarks makes of timestamps {} with max_delay {max_delay}",
                timestamps(arrivals)
            ),
            Case::Combiner {
                inputs,
                interleaving,
            } => format!("{inputs} inputs, watermarks {}", steps(interleaving)),
            Case::GeneratorCrash {
                arrivals,
                max_delay,
                crash_after,
            } => format!(
                "timestamps in arrival order {}, max_delay {max_delay}, generator snapshotted and restored after {crash_after} record(s)",
                timestamps(arrivals)
            ),
            Case::CombinerCrash {
                inputs,
                interleaving,
                crash_after,
            } => format!(
                "{inputs} inputs, watermarks {}, combiner snapshotted and restored after {crash_after} step(s)",
                steps(interleaving)
            ),
            Case::Split { elements } => {
                let shown: Vec<String> = elements.iter().map(Element::to_string).collect();
                format!("split_late([{}])", shown.join(", "))
            }
            Case::Contract { subject, ops } => super::contract::describe(*subject, ops),
            Case::Errors { call } => call.code().to_owned(),
        }
    }

    fn requirements(&self) -> Vec<&'static str> {
        match self {
            Case::Generator { .. } => vec!["04-R1", "04-R2", "04-R16"],
            Case::WithWatermarks { .. } => vec!["04-R3", "04-R4"],
            Case::Lateness { .. } | Case::Split { .. } => vec!["04-R5", "04-R6"],
            Case::Combiner { .. } => vec!["04-R7", "04-R8", "04-R9", "04-R10"],
            Case::GeneratorCrash { .. } => vec!["04-R13"],
            Case::CombinerCrash { .. } => vec!["04-R13", "04-R14"],
            Case::Contract {
                subject: Subject::Generator { .. },
                ..
            } => vec!["04-R1", "04-R2", "04-R13", "04-R16"],
            Case::Contract { .. } => vec![
                "04-R7", "04-R8", "04-R9", "04-R10", "04-R12", "04-R13", "04-R14",
            ],
            Case::Errors { call } => vec![call.requirement()],
        }
    }
}

//! The cases of stage 05, shortest stream first.

use serde::{Deserialize, Serialize};

use super::checks::{ASSIGN, CONTRACT, CRASH, ERRORS, FIRING, LATENESS, STATE, WINDOW_SUMS};
use super::contract::{self, Call};
use super::forged;
use super::{AssignerSpec, Element, ErrorCall, LateRecord, oracle};
use crate::harness::enumerate::permutations;
use crate::harness::rng::Rng;
use crate::harness::{Check, case};

/// The assigners of the plan.
pub const ASSIGNERS: [AssignerSpec; 4] = [
    AssignerSpec::Tumbling(2),
    AssignerSpec::Tumbling(3),
    AssignerSpec::Sliding(3, 1),
    AssignerSpec::Sliding(4, 2),
];
/// The bounds the watermarks are generated with: 0 makes disorder late, 2 mostly not.
pub const MAX_DELAYS: [u64; 2] = [0, 2];
/// The largest keyed event set whose every arrival order is enumerated.
pub const MAX_RECORDS: usize = 4;

/// The assigners `assign` is asked about besides the plan's: a size of 1, slides that do
/// not divide the size, a slide equal to the size, and the largest size.
pub const MORE_ASSIGNERS: [AssignerSpec; 5] = [
    AssignerSpec::Tumbling(1),
    AssignerSpec::Sliding(5, 2),
    AssignerSpec::Sliding(3, 2),
    AssignerSpec::Sliding(3, 3),
    AssignerSpec::Tumbling(u64::MAX),
];

/// The assigners `assign` is asked about at the top of `u64`: sizes so large that their
/// windows near `u64::MAX` would end past it, and that a timestamp there is only a few
/// slides from 0 (an assigner that walks from 0 answers at once).
pub const TOP_ASSIGNERS: [AssignerSpec; 3] = [
    AssignerSpec::Tumbling(1 << 63),
    AssignerSpec::Tumbling(3 << 62),
    AssignerSpec::Sliding(1 << 63, 1 << 62),
];

/// A top assigner whose size divides `u64::MAX` (three windows fill `0..u64::MAX`): its
/// window of `u64::MAX` starts there and is cut short to `[u64::MAX, u64::MAX)`.
pub const EMPTY_AT_TOP: AssignerSpec = AssignerSpec::Tumbling(u64::MAX / 3);

/// The timestamps at the top of `u64` that `assign` is asked about: the windows of the
/// first two end at `u64::MAX`; `u64::MAX` itself only may not panic nor wrap.
pub const TOP_TIMESTAMPS: [u64; 3] = [u64::MAX - 2, u64::MAX - 1, u64::MAX];

/// The assigners `assign` is asked about near 0 whose windows span more slides than
/// memory holds (`2^63`, then `u64::MAX`): a timestamp near 0 is in a few of them only,
/// so an `assign` that sizes its answer by `size / slide`, or walks every slide of a
/// window, never answers.
pub const WIDE_ASSIGNERS: [AssignerSpec; 2] = [
    AssignerSpec::Sliding(1 << 63, 1),
    AssignerSpec::Sliding(u64::MAX, 1),
];

/// The timestamps the wide assigners are asked about: `ts` is in `ts + 1` windows.
pub const WIDE_TIMESTAMPS: [u64; 4] = [0, 1, 2, 3];

/// Streams at the top of `u64`, the same under every seed, run over the top assigners.
/// The first holds records whose windows end at `u64::MAX` (cut short there, and for
/// `Sliding::new(1 << 63, 1 << 62)` two windows of different starts that end together),
/// fired by watermarks below it. The second goes on after the
/// end-of-input `W(MAX)`: every record after it is late, a second `W(MAX)` changes
/// nothing, and an operator restored after it must still hold `W(MAX)`.
pub fn top_streams() -> [Vec<Element>; 2] {
    use Element::{Record, Watermark};
    const TOP: u64 = u64::MAX;
    let record = |key: &str, ts: u64, value: i64| Record(key.to_owned(), ts, value);
    [
        vec![
            record("a", TOP - 1, 4),
            // -3 * 2^40: an aggregate summed in an `i32` loses it.
            record("b", TOP - 2, -(3 << 40)),
            Watermark(TOP - 2),
            record("a", TOP - 2, 2),
            Watermark(TOP - 1),
        ],
        vec![
            record("a", 1, 5),
            Watermark(TOP),
            record("a", TOP - 1, 3),
            record("b", 0, -2),
            Watermark(TOP),
        ],
    ]
}

/// The assigner of the long stream.
pub const LONG_SPEC: AssignerSpec = AssignerSpec::Tumbling(10);
/// The keys of the long stream, `a` to `z`, each in every one of its windows.
pub const LONG_KEYS: u8 = 26;
/// The windows of the long stream, `[0, 10)` to `[90, 100)`.
pub const LONG_WINDOWS: u64 = 10;
/// The records of key `a` at time 5 after the grid: with its record at 1, 300 in `[0, 10)`.
pub const LONG_REPEATS: usize = 299;

/// The long stream, the same under every seed, for what shows only past a size: each
/// key of `a` to `z` at 1, 11, .., 91 (window by window, keys from `z` down to `a`), so
/// 260 aggregates are open, more than a `u8` counts; then [`LONG_REPEATS`] records
/// `a@5=1`, so one aggregate counts 300 records; then `W(MAX)`, which fires all 260 results
/// in one call, more than a small sort keeps in place.
pub fn long_stream() -> Vec<Element> {
    let mut elements = Vec::new();
    for window in 0..LONG_WINDOWS {
        for key in (b'a'..b'a' + LONG_KEYS).rev() {
            elements.push(Element::Record(
                char::from(key).to_string(),
                window * 10 + 1,
                1,
            ));
        }
    }
    elements.extend(std::iter::repeat_n(
        Element::Record("a".to_owned(), 5, 1),
        LONG_REPEATS,
    ));
    elements.push(Element::Watermark(u64::MAX));
    elements
}

/// The most elements of a stream whose run lets a panic through to the harness (which
/// reports where it happened): every stream but the long one. A panic in the long one,
/// whose every call a shorter stream made before, comes of its size, and the driver
/// catches it so that the judge names the rule of the call that panicked.
pub const MAX_UNCAUGHT: usize = 64;

/// One case of stage 05. Records are `(key, ts, value)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Case {
    /// `assign(ts)` for every `ts` in `0..=max_ts`.
    Assign {
        /// The assigner.
        spec: AssignerSpec,
        /// The largest timestamp asked about.
        max_ts: u64,
    },
    /// `assign(ts)` for every `ts` of `TOP_TIMESTAMPS` (`u64::MAX - 2..=u64::MAX`), where
    /// a window's end would pass `u64::MAX`.
    AssignTop {
        /// The assigner.
        spec: AssignerSpec,
    },
    /// `assign(ts)` for every `ts` of `WIDE_TIMESTAMPS` (`0..=3`), for an assigner of
    /// `WIDE_ASSIGNERS`, whose windows span `2^63` slides or more.
    AssignWide {
        /// The assigner.
        spec: AssignerSpec,
    },
    /// The operator over `elements`, judged on what `on_watermark` fires.
    Firing {
        /// The assigner.
        spec: AssignerSpec,
        /// The stream.
        elements: Vec<Element>,
    },
    /// The operator over `elements`, judged on what `on_record` calls late.
    Lateness {
        /// The assigner.
        spec: AssignerSpec,
        /// The stream.
        elements: Vec<Element>,
    },
    /// The operator over `elements`, judged on `state_size()`.
    State {
        /// The assigner.
        spec: AssignerSpec,
        /// The stream.
        elements: Vec<Element>,
    },
    /// The operator snapshotted and restored after `crash_after` elements.
    Crash {
        /// The assigner.
        spec: AssignerSpec,
        /// The stream.
        elements: Vec<Element>,
        /// Elements before the snapshot.
        crash_after: usize,
    },
    /// `window_sums(elements, assigner)`.
    WindowSums {
        /// The assigner.
        spec: AssignerSpec,
        /// The stream.
        elements: Vec<Element>,
    },
    /// An assigner with an invalid argument.
    Errors {
        /// The call.
        call: ErrorCall,
    },
    /// An operator keyed by pairs, restored from its snapshot (see `pair_keys.rs`).
    PairKeys,
    /// One aggregate past an `f64`'s integers and a `u16`'s count (`heavy.rs`).
    Heavy,
    /// An operator of 256 keys of random symbols through a snapshot and a restore
    /// (`dense.rs`).
    DenseSnapshot,
    /// A record at `u64::MAX` against the assigner's own `assign(u64::MAX)`
    /// (`top_record.rs`).
    RecordAtTop {
        /// The assigner.
        spec: AssignerSpec,
    },
    /// Snapshots of the same state under two assigners (`assigner_free.rs`).
    AssignerFree,
    /// A call sequence of the contract check on a fresh operator.
    Contract {
        /// The assigner.
        spec: AssignerSpec,
        /// The calls, in order.
        calls: Vec<Call>,
    },
}

/// The elements as `[a@3=5, W(2), ...]`; a run of four or more equal elements as
/// `299 × a@5=1`.
pub fn show(elements: &[Element]) -> String {
    let mut shown: Vec<String> = Vec::new();
    let mut rest = elements;
    while let Some(first) = rest.first() {
        let run = rest.iter().take_while(|e| *e == first).count();
        if run >= 4 {
            shown.push(format!("{run} × {first}"));
        } else {
            shown.extend(rest[..run].iter().map(Element::to_string));
        }
        rest = &rest[run..];
    }
    format!("[{}]", shown.join(", "))
}

/// "at element 5 (W(3)), after [a@1=2, ...]".
pub(super) fn at(elements: &[Element], i: usize) -> String {
    format!(
        "at element {} ({}), after {}",
        i + 1,
        elements[i],
        show(&elements[..i])
    )
}

impl case::Case for Case {
    fn check(&self) -> Check {
        match self {
            Case::Assign { .. } | Case::AssignTop { .. } | Case::AssignWide { .. } => ASSIGN,
            Case::Firing { .. } | Case::Heavy => FIRING,
            Case::Lateness { .. } | Case::RecordAtTop { .. } => LATENESS,
            Case::State { .. } => STATE,
            Case::Crash { .. } | Case::PairKeys | Case::DenseSnapshot | Case::AssignerFree => CRASH,
            Case::WindowSums { .. } => WINDOW_SUMS,
            Case::Errors { .. } => ERRORS,
            Case::Contract { .. } => CONTRACT,
        }
    }

    fn requirements(&self) -> Vec<&'static str> {
        match self {
            Case::Assign { .. } => vec!["05-R1", "05-R8", "05-R9"],
            Case::AssignTop { .. } => vec!["05-R21"],
            Case::AssignWide { .. } => vec!["05-R8", "05-R9", "05-R21"],
            Case::Firing { .. } => vec![
                "05-R1", "05-R2", "05-R3", "05-R5", "05-R6", "05-R7", "05-R10", "05-R11", "05-R12",
                "05-R14",
            ],
            Case::Lateness { .. } => vec!["05-R4", "05-R6", "05-R7", "05-R10"],
            Case::State { .. } => vec!["05-R5"],
            Case::Crash { .. } | Case::PairKeys => vec!["05-R12", "05-R15"],
            Case::DenseSnapshot | Case::AssignerFree => vec!["05-R15"],
            Case::RecordAtTop { .. } => vec!["05-R6", "05-R10", "05-R15"],
            Case::Heavy => vec!["05-R2", "05-R5"],
            Case::WindowSums { .. } => vec!["05-R17", "05-R18"],
            Case::Errors { .. } => vec!["05-R19", "05-R20", "05-R1", "05-R8", "05-R9"],
            Case::Contract { .. } => vec![
                "05-R1", "05-R2", "05-R3", "05-R4", "05-R5", "05-R6", "05-R7", "05-R10", "05-R11",
                "05-R12", "05-R13", "05-R14", "05-R15", "05-R16",
            ],
        }
    }

    fn describe(&self) -> String {
        match self {
            Case::Assign { spec, max_ts } => format!("{spec}.assign(ts) for ts in 0..={max_ts}"),
            Case::AssignTop { spec } => {
                format!("{spec}.assign(ts) for ts in u64::MAX - 2..=u64::MAX")
            }
            Case::AssignWide { spec } => format!(
                "{spec}.assign(ts) for ts in 0..={}",
                WIDE_TIMESTAMPS[WIDE_TIMESTAMPS.len() - 1]
            ),
            Case::Firing { spec, elements }
            | Case::Lateness { spec, elements }
            | Case::State { spec, elements }
            | Case::WindowSums { spec, elements } => {
                format!("{spec}, elements (key@ts=value) {}", show(elements))
            }
            Case::Crash {
                spec,
                elements,
                crash_after,
            } => format!(
                "{spec}, elements (key@ts=value) {}, operator snapshotted and restored after {crash_after} element(s)",
                show(elements)
            ),
            Case::PairKeys => super::pair_keys::describe(),
            Case::DenseSnapshot => super::dense::describe(),
            Case::RecordAtTop { spec } => super::top_record::describe(*spec),
            Case::AssignerFree => super::assigner_free::describe(),
            Case::Heavy => super::heavy::describe(),
            Case::Errors { call } => format!("{}, then {}", call.spec(), call.boundary()),
            Case::Contract { spec, calls } => format!("{spec}, calls {}", contract::show(calls)),
        }
    }
}

/// One keyed event set per size, the same under every seed: keys `a` and `b`, two keys
/// in one window and one key twice, timestamps at 0, at windows' last timestamps and at
/// their ends; only the values are drawn, within the signs every seed must have.
fn record_sets(rng: &mut Rng) -> Vec<Vec<LateRecord>> {
    const SHAPES: [&[(&str, u64)]; MAX_RECORDS + 1] = [
        &[],
        &[("a", 2)],
        &[("a", 2), ("b", 3)],
        &[("b", 1), ("a", 0), ("a", 3)],
        &[("b", 4), ("a", 1), ("b", 2), ("a", 1)],
    ];
    // The signs every seed gives, by shape and position (`None`: drawn freely): a lone
    // zero, and one key twice in a window with a negative and a positive value, so no
    // verdict on zeros, signs or sums hangs on the draw.
    const SIGNS: [&[Option<i64>]; MAX_RECORDS + 1] = [
        &[],
        &[None],
        &[None, None],
        &[Some(0), Some(-1), Some(1)],
        &[None, Some(-1), None, Some(1)],
    ];
    SHAPES
        .iter()
        .zip(SIGNS)
        .map(|(shape, signs)| {
            shape
                .iter()
                .zip(signs)
                .map(|(&(key, ts), sign)| {
                    let drawn = rng.below(19) as i64 - 9;
                    let value = match sign {
                        None => drawn,
                        Some(sign) => sign * drawn.abs().max(1),
                    };
                    (key.to_owned(), ts, value)
                })
                .collect()
        })
        .collect()
}

/// Every case for `seed`.
pub fn plan(seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed, 5);
    let mut cases = Vec::new();
    for spec in ASSIGNERS.into_iter().chain(MORE_ASSIGNERS) {
        cases.push(Case::Assign { spec, max_ts: 12 });
    }
    for spec in TOP_ASSIGNERS {
        cases.push(Case::AssignTop { spec });
    }
    for spec in WIDE_ASSIGNERS {
        cases.push(Case::AssignWide { spec });
    }
    // (assigner, max_delay, stream), shortest stream first.
    let mut streams: Vec<(AssignerSpec, u64, Vec<Element>)> = Vec::new();
    for set in record_sets(&mut rng) {
        for order in permutations(&set) {
            for spec in ASSIGNERS {
                for max_delay in MAX_DELAYS {
                    streams.push((spec, max_delay, oracle::with_watermarks(&order, max_delay)));
                }
            }
        }
    }
    // After the enumerated streams, those at the top of time: a mistake there shows on
    // none of the small ones.
    // Only over the top assigners, a few slides from 0: over a slide of 2, an assigner that
    // walks its windows from 0 (slow, but not wrong) would take 2^63 steps.
    for elements in top_streams() {
        for spec in TOP_ASSIGNERS {
            // Their watermarks are written out, not generated: no `max_delay` is theirs.
            streams.push((spec, 0, elements.clone()));
        }
    }
    for (spec, _, elements) in &streams {
        cases.push(Case::Firing {
            spec: *spec,
            elements: elements.clone(),
        });
    }
    // Then the long stream, after every short one: a mistake that shows only past a
    // size (a count in a `u8`, results of one call reordered by an unstable sort).
    cases.push(Case::Firing {
        spec: LONG_SPEC,
        elements: long_stream(),
    });
    for (spec, _, elements) in &streams {
        cases.push(Case::Lateness {
            spec: *spec,
            elements: elements.clone(),
        });
    }
    for (spec, _, elements) in &streams {
        cases.push(Case::State {
            spec: *spec,
            elements: elements.clone(),
        });
    }
    // Every crash point of the streams with up to 3 records, and of the 4-record ones with
    // the bound that makes records late.
    for (spec, max_delay, elements) in &streams {
        let records = elements
            .iter()
            .filter(|e| matches!(e, Element::Record(..)))
            .count();
        if records < MAX_RECORDS || *max_delay == 0 {
            for crash_after in 0..=elements.len() {
                cases.push(Case::Crash {
                    spec: *spec,
                    elements: elements.clone(),
                    crash_after,
                });
            }
        }
    }
    cases.push(Case::PairKeys);
    for (spec, _, elements) in &streams {
        cases.push(Case::WindowSums {
            spec: *spec,
            elements: elements.clone(),
        });
    }
    // The same streams without the end-of-input watermark: nothing flushes at the end.
    for (spec, _, elements) in &streams {
        cases.push(Case::WindowSums {
            spec: *spec,
            elements: elements[..elements.len() - 1].to_vec(),
        });
    }
    // Identical records, on time and then late: each counts, and each late one is
    // reported, however alike (the drawn streams never repeat a record).
    let twice = |ts| {
        [
            Element::Record("a".to_owned(), ts, 5),
            Element::Record("a".to_owned(), ts, 5),
        ]
    };
    cases.push(Case::WindowSums {
        spec: AssignerSpec::Tumbling(2),
        elements: [
            &twice(1)[..],
            &[Element::Watermark(3)],
            &twice(1),
            &[Element::Watermark(u64::MAX)],
        ]
        .concat(),
    });
    for call in [
        ErrorCall::TumblingZero,
        ErrorCall::SlidingSizeZero,
        ErrorCall::BothZero,
        ErrorCall::SlideZero,
        ErrorCall::SlideAboveSize,
    ] {
        cases.push(Case::Errors { call });
    }
    for (spec, alphabet) in contract::alphabets() {
        for calls in contract::sequences(&alphabet) {
            cases.push(Case::Contract { spec, calls });
        }
    }
    // Its own format, forged: the restore is made of fresh operators of its own, so one
    // call on a fresh operator is the whole case.
    cases.push(Case::Contract {
        spec: forged::SPEC,
        calls: vec![Call::RestoreForged],
    });
    // After it, so the cases above keep their numbers: its own snapshot with a number
    // changed, whose restore must be refused or a state (`renumbered.rs`).
    cases.push(Case::Contract {
        spec: forged::SPEC,
        calls: vec![Call::RestoreRenumbered],
    });
    cases.push(Case::Heavy);
    // After it, so the cases above keep their numbers: its own snapshot with counts past
    // a `u32`'s range, which must restore and count on (`wide_counts.rs`).
    cases.push(Case::Contract {
        spec: forged::SPEC,
        calls: vec![Call::RestoreWideCounts],
    });
    // And keys a text format must escape, through a round trip.
    cases.push(Case::Contract {
        spec: AssignerSpec::Tumbling(3),
        calls: contract::odd_keys_calls(),
    });
    // After them, so the cases above keep their numbers: a state that no handle can name
    // in so few bytes.
    cases.push(Case::DenseSnapshot);
    // After it, so the cases above keep their numbers: a record at `u64::MAX`, which
    // `assign` may give windows cut short or none, and the same state under two
    // assigners, which is configuration.
    for spec in TOP_ASSIGNERS {
        cases.push(Case::RecordAtTop { spec });
    }
    cases.push(Case::AssignerFree);
    // After it, so the cases above keep their numbers: an assigner whose size divides
    // `u64::MAX`, so `assign(u64::MAX)` is `[u64::MAX, u64::MAX)`, a window cut short to
    // nothing, that a snapshot holds; and a slide of 2 under the largest size, where
    // `size - 1 + slide` (a count of windows per record) overflows.
    cases.push(Case::RecordAtTop { spec: EMPTY_AT_TOP });
    cases.push(Case::AssignWide {
        spec: AssignerSpec::Sliding(u64::MAX, 2),
    });
    // After them, so the cases above keep their numbers: one state in other layouts
    // than the implementation's own, whose restore must be refused or a derived reading
    // of its own type (`layouts.rs`).
    cases.push(Case::Contract {
        spec: forged::SPEC,
        calls: vec![Call::RestoreRelaid],
    });
    cases
}

//! The cases of stage 04, shortest arrival order first.

use super::Element;
use super::case::{Case, ErrorCall};
use crate::harness::enumerate::{interleavings, permutations};
use crate::harness::rng::Rng;
use crate::harness::sizes::PAST_U16_INPUTS;

/// The largest event set whose every arrival order is enumerated.
pub const MAX_EVENTS: usize = 5;
/// The largest event set of the crash check (every order, every crash point).
pub const MAX_CRASH_EVENTS: usize = 4;
/// The bounds of out-of-orderness enumerated.
pub const MAX_DELAYS: [u64; 4] = [0, 1, 2, 3];

/// Event sets, smallest first: two per size up to 4, one of size 5. Timestamps are drawn
/// from a range barely wider than the set, so duplicates and small values (near the
/// `None` of the formula) are common.
fn event_sets(rng: &mut Rng) -> Vec<Vec<(u64, u32)>> {
    let mut sets = Vec::new();
    for size in 0..=MAX_EVENTS {
        let copies = if size < MAX_EVENTS { 2 } else { 1 };
        for _ in 0..copies {
            let set: Vec<(u64, u32)> = (0u32..)
                .take(size)
                .map(|id| (rng.below(size as u64 + 4), id))
                .collect();
            sets.push(set);
        }
    }
    sets
}

/// Per-input watermark sequences for 2 and 3 inputs, fewest steps first.
fn combiner_inputs(rng: &mut Rng) -> Vec<Vec<Vec<u64>>> {
    let shapes: [&[usize]; 6] = [
        &[1, 1],
        &[2, 1],
        &[2, 2],
        &[1, 1, 1],
        &[2, 1, 1],
        &[2, 2, 1],
    ];
    let mut all = Vec::new();
    for shape in shapes {
        for _ in 0..2 {
            all.push(
                shape
                    .iter()
                    .map(|&len| (0..len).map(|_| rng.below(8)).collect())
                    .collect(),
            );
        }
    }
    all
}

/// Combiners of more inputs than a `u64` (then a `u128`) has bits, then than a `u8`
/// counts, for one fixed run each: whoever keeps "which inputs reported" in a bitmask, or
/// counts them in a `u8`, never sees them all.
pub const WIDE_INPUTS: [usize; 3] = [65, 129, 257];

/// Records of the generator's long stream: more than a `u8` counts, and far more than a
/// generator that remembers only its last few timestamps keeps.
pub const LONG_RECORDS: u32 = 300;

/// The generator's long stream, the same under every seed: `(LONG_RECORDS, 0)` first, the
/// largest timestamp until the last record, then small timestamps (`1, 2, .., 9, 0, 1,
/// ..`), then `(LONG_RECORDS + 1, ..)`. The watermark stays where the first record put it
/// until the last one moves it: a maximum taken over the last few records goes back.
pub fn long_arrivals() -> Vec<(u64, u32)> {
    let last = LONG_RECORDS - 1;
    (0..LONG_RECORDS)
        .map(|id| match id {
            0 => (u64::from(LONG_RECORDS), id),
            _ if id == last => (u64::from(LONG_RECORDS) + 1, id),
            _ => (u64::from(id % 10), id),
        })
        .collect()
}

/// The bound of the long stream.
pub const LONG_MAX_DELAY: u64 = 2;

/// The generator's fixed edge cases: `(arrivals, max_delay)`.
const EDGES: [(&[(u64, u32)], u64); 2] = [
    (&[(0, 0), (7, 1), (u64::MAX, 2)], u64::MAX),
    (&[(u64::MAX - 1, 0), (u64::MAX, 1)], 0),
];

/// Streams `with_watermarks` never makes, for `split_late`: a watermark that goes back
/// (the largest before a record decides, not the latest), a record at a watermark and
/// one past it, `u64::MAX`, several late records and several on time out of timestamp
/// order (each list keeps stream order), a stream without any watermark.
const SPLITS: [&[Element]; 6] = [
    &[Element::Record(5, 0), Element::Record(1, 1)],
    &[
        Element::Watermark(0),
        Element::Record(0, 0),
        Element::Record(1, 1),
    ],
    &[
        Element::Watermark(6),
        Element::Watermark(2),
        Element::Record(4, 0),
        Element::Record(7, 1),
    ],
    &[
        Element::Record(9, 0),
        Element::Watermark(8),
        Element::Record(4, 1),
        Element::Record(2, 2),
        Element::Record(12, 3),
        Element::Record(10, 4),
    ],
    &[
        Element::Watermark(u64::MAX - 1),
        Element::Record(u64::MAX, 0),
        Element::Record(u64::MAX - 1, 1),
    ],
    &[
        Element::Record(u64::MAX, 0),
        Element::Watermark(u64::MAX),
        Element::Record(u64::MAX, 1),
    ],
];

/// Every case for `seed`.
pub fn plan(seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed, 4);
    let sets = event_sets(&mut rng);
    let orders: Vec<Vec<(u64, u32)>> = sets.iter().flat_map(|s| permutations(s)).collect();
    let mut cases = Vec::new();
    for arrivals in &orders {
        for max_delay in MAX_DELAYS {
            cases.push(Case::Generator {
                arrivals: arrivals.clone(),
                max_delay,
            });
        }
    }
    // Fixed cases past the enumeration's bounds, after it so the smallest failing case
    // still comes first: the largest bound there is (no watermark ever, and
    // `max_delay + 1` overflows), and timestamps at the top of `u64`.
    cases.extend(EDGES.iter().map(|(arrivals, max_delay)| Case::Generator {
        arrivals: arrivals.to_vec(),
        max_delay: *max_delay,
    }));
    // Then one long stream: what only shows past a few records.
    cases.push(Case::Generator {
        arrivals: long_arrivals(),
        max_delay: LONG_MAX_DELAY,
    });
    for arrivals in &orders {
        for max_delay in MAX_DELAYS {
            cases.push(Case::WithWatermarks {
                arrivals: arrivals.clone(),
                max_delay,
            });
        }
    }
    cases.extend(
        EDGES
            .iter()
            .map(|(arrivals, max_delay)| Case::WithWatermarks {
                arrivals: arrivals.to_vec(),
                max_delay: *max_delay,
            }),
    );
    for arrivals in &orders {
        for max_delay in MAX_DELAYS {
            cases.push(Case::Lateness {
                arrivals: arrivals.clone(),
                max_delay,
            });
        }
    }
    cases.extend(SPLITS.iter().map(|elements| Case::Split {
        elements: elements.to_vec(),
    }));
    let mut combiner_runs: Vec<(usize, Vec<(usize, u64)>)> = combiner_inputs(&mut rng)
        .iter()
        .flat_map(|sequences| {
            interleavings(sequences)
                .into_iter()
                .map(|i| (sequences.len(), i))
        })
        .collect();
    // A fixed run after the drawn ones, so that every seed has an input whose watermark
    // goes back (the drawn values do so only by chance): input 0 says 5, then 2, which
    // changes nothing; input 1 then says 6, and the minimum is 5, not 2.
    combiner_runs.push((2, vec![(0, 5), (1, 4), (0, 2), (1, 6)]));
    for (inputs, interleaving) in &combiner_runs {
        cases.push(Case::Combiner {
            inputs: *inputs,
            interleaving: interleaving.clone(),
        });
    }
    // More inputs than the bits of a `u64` (and of a `u128`), and than a `u8` counts:
    // every input reports once, in order, and the last one's report, the smallest, makes
    // the combined watermark (so it must advance there). Not crashed at every step: a
    // restore is judged above.
    for inputs in WIDE_INPUTS {
        cases.push(Case::Combiner {
            inputs,
            interleaving: (0..inputs).map(|i| (i, (inputs - i) as u64)).collect(),
        });
    }
    for arrivals in orders.iter().filter(|o| o.len() <= MAX_CRASH_EVENTS) {
        for max_delay in MAX_DELAYS {
            for crash_after in 0..=arrivals.len() {
                cases.push(Case::GeneratorCrash {
                    arrivals: arrivals.clone(),
                    max_delay,
                    crash_after,
                });
            }
        }
    }
    for (inputs, interleaving) in &combiner_runs {
        for crash_after in 0..=interleaving.len() {
            cases.push(Case::CombinerCrash {
                inputs: *inputs,
                interleaving: interleaving.clone(),
                crash_after,
            });
        }
    }
    for call in ErrorCall::ALL {
        cases.push(Case::Errors { call });
    }
    cases.extend(super::contract::plan());
    // After them, so the cases above keep their numbers: a combiner of more inputs than a
    // `u16` counts, of which two report, and the same through a crash.
    let (inputs, interleaving) = sparse_run();
    cases.push(Case::Combiner {
        inputs,
        interleaving: interleaving.clone(),
    });
    cases.push(Case::CombinerCrash {
        inputs,
        interleaving,
        crash_after: 2,
    });
    for call in ErrorCall::LATER {
        cases.push(Case::Errors { call });
    }
    cases
}

/// A combiner of [`PAST_U16_INPUTS`] whose last and first inputs report (the last twice):
/// no combined watermark, for most inputs never report.
fn sparse_run() -> (usize, Vec<(usize, u64)>) {
    let last = PAST_U16_INPUTS - 1;
    (PAST_U16_INPUTS, vec![(last, 5), (0, 3), (last, 9)])
}

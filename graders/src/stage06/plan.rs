//! The cases of stage 06, smallest first: shapes of 1 input, then 2, then 3, every
//! interleaving.

use super::case::{Case, Elem, letter};
use crate::harness::enumerate::arrival_orders;
use crate::harness::rng::Rng;
use crate::harness::sizes::PAST_U16_INPUTS;

/// The longest record list `inject_barriers` is graded on (every cadence up to len + 1).
pub const MAX_INJECT_LEN: usize = 6;
/// The cadences `inject_barriers` is also graded on, over every length: the largest two,
/// valid as any other (no barrier, every input being shorter), where arithmetic that adds
/// to the cadence (`(len + barrier_every - 1) / barrier_every`, say) overflows.
pub const FAR_CADENCES: [usize; 2] = [usize::MAX - 1, usize::MAX];
/// Records per input in the alignment shapes with two inputs.
pub const MAX_RECORDS_2: usize = 3;
/// The most records on the single input of a 1-input shape.
pub const MAX_RECORDS_1: usize = 3;
/// The most elements of a 1-input shape.
pub const MAX_ELEMENTS_1: usize = 6;
/// Records per input in the alignment shapes with three inputs.
pub const MAX_RECORDS_3: usize = 2;
/// Elements (records and barriers) of all inputs together in a 2-input shape. Together
/// with the bound for 3 inputs this keeps the whole stage (about 8,000 cases, every
/// interleaving and every crash step) near one second in a debug build.
pub const MAX_ELEMENTS_2: usize = 8;
/// The inputs of the wide alignment cases: more than a `u64` has bits, then more than a
/// `u128` has, then more than a `u8` counts.
pub const WIDE_INPUTS: [usize; 3] = [65, 129, 257];
/// Elements of all inputs together in a 3-input shape.
pub const MAX_ELEMENTS_3: usize = 7;

/// Every case for `seed`: record values for `inject_barriers` from the seed, everything
/// else enumerated, smallest first.
pub fn plan(seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed, 6);
    let mut cases = Vec::new();
    for len in 0..=MAX_INJECT_LEN {
        let records: Vec<String> = rng
            .values(len, 3)
            .iter()
            .map(|v| ["x", "y", "z"][*v as usize].to_owned())
            .collect();
        for barrier_every in (1..=len + 1).chain(FAR_CADENCES) {
            cases.push(Case::Inject {
                records: records.clone(),
                barrier_every,
            });
        }
    }
    for records in [
        vec![],
        vec!["x".to_owned()],
        vec!["x".to_owned(), "x".to_owned()],
    ] {
        cases.push(Case::ZeroCadence { records });
    }
    cases.push(Case::NoInputs);
    for call in super::BadCall::ALL {
        cases.push(Case::BadCall { call });
    }

    let runs: Vec<(Vec<Vec<Elem>>, Vec<usize>)> = shapes()
        .into_iter()
        .flat_map(|inputs| {
            arrival_orders(&inputs.iter().map(Vec::len).collect::<Vec<_>>())
                .into_iter()
                .map(move |schedule| (inputs.clone(), schedule))
        })
        .collect();
    for (inputs, schedule) in &runs {
        cases.push(Case::Align {
            inputs: inputs.clone(),
            schedule: schedule.clone(),
        });
    }
    cases.extend(WIDE_INPUTS.map(wide));
    for (inputs, schedule) in &runs {
        cases.push(Case::Snapshots {
            inputs: inputs.clone(),
            schedule: schedule.clone(),
        });
    }
    for inputs in uneven() {
        let lens: Vec<usize> = inputs.iter().map(Vec::len).collect();
        for schedule in arrival_orders(&lens) {
            cases.push(Case::Snapshots {
                inputs: inputs.clone(),
                schedule,
            });
        }
    }
    for (inputs, schedule) in &runs {
        for crash_after in 0..=schedule.len() {
            cases.push(Case::Crash {
                inputs: inputs.clone(),
                schedule: schedule.clone(),
                crash_after,
            });
        }
    }
    for (from, to) in super::rescale::RESCALES {
        cases.push(Case::Rescale { from, to });
    }
    for completed in super::far::FAR {
        cases.push(Case::Far { completed });
    }
    cases.extend(super::contract::plan());
    // After them, so the cases above keep their numbers.
    for call in super::BadCall::LATER {
        cases.push(Case::BadCall { call });
    }
    // After them, so the cases above keep their numbers: an aligner of more inputs than
    // a `u16` counts, of which two deliver anything.
    cases.push(sparse(PAST_U16_INPUTS));
    // After it, so the cases above keep their numbers.
    cases.push(Case::SameBytes);
    // After it, so the cases above keep their numbers: the state after checkpoint 1 in
    // other layouts than the implementation's own (`layouts.rs`).
    cases.push(Case::BadCall {
        call: super::BadCall::LAST,
    });
    cases
}

/// An aligner of `width` inputs, all empty but the last, `[a0 B1 a1]`, and the first,
/// `[b0]`: the last's record comes straight out, its barrier blocks it, its next record
/// is held back, and the first's record comes straight out (no checkpoint completes).
fn sparse(width: usize) -> Case {
    let record = |name: &str| Elem::Record(name.to_owned());
    let mut inputs = vec![Vec::new(); width];
    inputs[width - 1] = vec![record("a0"), Elem::Barrier(1), record("a1")];
    inputs[0] = vec![record("b0")];
    let last = width - 1;
    Case::Align {
        inputs,
        schedule: vec![last, last, last, 0],
    }
}

/// Inputs that carry different numbers of barriers (the shapes above never do): a
/// checkpoint one input never reaches does not complete, and the result still holds the
/// ones that did. Input 0 = `[a0 B1]`, input 1 = `[b0]`; then input 0 = `[a0 B1 a1 B2]`,
/// input 1 = `[b0 B1]`.
fn uneven() -> [Vec<Vec<Elem>>; 2] {
    let record = |name: &str| Elem::Record(name.to_owned());
    [
        vec![vec![record("a0"), Elem::Barrier(1)], vec![record("b0")]],
        vec![
            vec![
                record("a0"),
                Elem::Barrier(1),
                record("a1"),
                Elem::Barrier(2),
            ],
            vec![record("b0"), Elem::Barrier(1)],
        ],
    ]
}

/// `width` inputs, more than a machine word has bits: input 0 = `[B1 a0]`, the others
/// `[B1]`, input 0 first (so `a0` is held back), then the others in order. The shapes
/// above have at most 3 inputs, so an aligner that packs its inputs into a word would pass
/// them.
fn wide(width: usize) -> Case {
    let mut inputs = vec![vec![Elem::Barrier(1)]; width];
    inputs[0].push(Elem::Record("a0".to_owned()));
    let schedule = std::iter::once(0).chain(0..width).collect();
    Case::Align { inputs, schedule }
}

/// The stream of one input: its records tagged `<letter><index>`, a barrier after every
/// `every` records.
fn stream(input: usize, records: usize, every: usize) -> Vec<Elem> {
    let mut elements = Vec::new();
    for index in 0..records {
        elements.push(Elem::Record(format!("{}{index}", letter(input))));
        if (index + 1) % every == 0 {
            elements.push(Elem::Barrier(((index + 1) / every) as u64));
        }
    }
    elements
}

/// The shape of one input's stream, with records as `R` and barriers as `B`.
fn pattern(records: usize, every: usize) -> String {
    stream(0, records, every)
        .iter()
        .map(|e| {
            if matches!(e, Elem::Record(_)) {
                'R'
            } else {
                'B'
            }
        })
        .collect()
}

/// Every distinct shape of 2 inputs, then of 3: each input some records with a barrier
/// cadence of its own, all inputs carrying the same number of barriers (so every
/// checkpoint can complete), inputs in a canonical order (the interleavings already
/// try every input first). Smallest total first.
fn shapes() -> Vec<Vec<Vec<Elem>>> {
    let mut all = Vec::new();
    for (inputs, max_records, max_elements) in [
        (1, MAX_RECORDS_1, MAX_ELEMENTS_1),
        (2, MAX_RECORDS_2, MAX_ELEMENTS_2),
        (3, MAX_RECORDS_3, MAX_ELEMENTS_3),
    ] {
        // (pattern, records, every), one per distinct pattern, smallest first.
        let mut kinds: Vec<(String, usize, usize)> = Vec::new();
        for records in 0..=max_records {
            for every in 1..=records + 1 {
                let p = pattern(records, every);
                if !kinds.iter().any(|(q, _, _)| *q == p) {
                    kinds.push((p, records, every));
                }
            }
        }
        kinds.sort_by_key(|(p, _, _)| (p.len(), p.clone()));
        let mut shapes: Vec<Vec<usize>> = vec![vec![]];
        for _ in 0..inputs {
            shapes = shapes
                .into_iter()
                .flat_map(|s| {
                    let from = s.last().copied().unwrap_or(0);
                    (from..kinds.len()).map(move |k| {
                        let mut next = s.clone();
                        next.push(k);
                        next
                    })
                })
                .collect();
        }
        let mut chosen: Vec<Vec<Vec<Elem>>> = shapes
            .into_iter()
            .filter(|s| {
                let barriers = |k: &usize| kinds[*k].0.matches('B').count();
                s.iter().all(|k| barriers(k) == barriers(&s[0]))
                    && s.iter().map(|k| kinds[*k].0.len()).sum::<usize>() <= max_elements
            })
            .map(|s| {
                s.iter()
                    .enumerate()
                    .map(|(input, k)| stream(input, kinds[*k].1, kinds[*k].2))
                    .collect()
            })
            .collect();
        chosen.sort_by_key(|s: &Vec<Vec<Elem>>| s.iter().map(Vec::len).sum::<usize>());
        all.extend(chosen);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_stays_small_enough_to_run_in_about_a_second() {
        let plan = plan(1);
        // About 8,000 law cases and 3,500 contract sequences.
        assert!(plan.len() < 12_000, "{} cases", plan.len());
        // Shapes where a blocked input holds its own next barrier exist.
        assert!(shapes().iter().any(|s| {
            s[0].iter()
                .filter(|e| matches!(e, Elem::Barrier(_)))
                .count()
                >= 2
        }));
    }
}

//! The `aligned-snapshots` check: over every prefix of an interleaving, each snapshot
//! holds exactly the records before its barriers, and only completed checkpoints appear.

use super::case::{Elem, Out, list};
use super::driver::Snapshots;
use super::oracle;
use crate::harness::Failure;

pub(super) fn judge_snapshots(
    inputs: &[Vec<Elem>],
    schedule: &[usize],
    prefixes: &[Result<Snapshots, String>],
) -> Result<(), Failure> {
    let model = oracle::steps(inputs, schedule, 0, &vec![0; inputs.len()]);
    // A refusal of the whole schedule is told as such, before the prefixes it also
    // refuses: a valid schedule was refused, not only a stop before the end.
    if let Some(Err(e)) = prefixes.get(schedule.len()) {
        let want =
            oracle::fold_snapshots(&model.iter().flat_map(|s| s.out.clone()).collect::<Vec<_>>());
        let arrivals: Vec<String> = schedule.iter().map(ToString::to_string).collect();
        return Err(Failure::new(format!("Ok({want:?})"), format!("Err({e})"))
            .step(format!(
                "aligned_snapshots with all {} arrival(s) [{}]: a valid schedule returned an error",
                schedule.len(),
                arrivals.join(" ")
            ))
            .requirement("06-R15"));
    }
    for p in 0..=schedule.len() {
        let arrivals: Vec<String> = schedule[..p].iter().map(ToString::to_string).collect();
        let label = format!(
            "aligned_snapshots with the first {p} arrival(s) [{}]",
            arrivals.join(" ")
        );
        let outs: Vec<Out> = model[..p].iter().flat_map(|s| s.out.clone()).collect();
        let want = oracle::fold_snapshots(&outs);
        let got = match prefixes.get(p) {
            Some(Ok(got)) => got,
            // A prefix leaves elements undelivered: a job that crashed there (06-R16).
            Some(Err(e)) if p < schedule.len() => {
                return Err(Failure::new(format!("Ok({want:?})"), format!("Err({e})"))
                    .step(format!(
                        "{label}: a schedule may stop before the inputs are exhausted, and \
                         the result then holds the checkpoints completed by then; this one \
                         returned an error"
                    ))
                    .requirement("06-R16"));
            }
            Some(Err(e)) => {
                return Err(Failure::new(format!("Ok({want:?})"), format!("Err({e})"))
                    .step(format!("{label}: a valid schedule returned an error"))
                    .requirement("06-R15"));
            }
            None => {
                return Err(Failure::new("one result per prefix", "fewer")
                    .step(label)
                    .requirement("06-R15"));
            }
        };
        if let Some(extra) = got.iter().find(|(c, _)| !want.iter().any(|(w, _)| w == c)) {
            let c = extra.0;
            return Err(Failure::new(format!("{want:?}"), format!("{got:?}"))
                .step(format!(
                    "{label}: checkpoint {c} is not complete yet (not every input has delivered \
                 Barrier({c})), but the result holds it; only checkpoints completed within the \
                 schedule count"
                ))
                .requirement("06-R16"));
        }
        for (c, state) in &want {
            let Some((_, have)) = got.iter().find(|(g, _)| g == c) else {
                return Err(Failure::new(format!("{want:?}"), format!("{got:?}"))
                    .step(format!(
                        "{label}: checkpoint {c} completed but has no snapshot"
                    ))
                    .requirement("06-R15"));
            };
            if have != state {
                let cut = oracle::records_before(inputs, *c);
                let mut sorted_have = have.clone();
                sorted_have.sort();
                let mut sorted_cut = cut.clone();
                sorted_cut.sort();
                let why = if sorted_have == sorted_cut {
                    "it folds the right records, but not in the order the aligner releases them"
                        .to_owned()
                } else {
                    format!(
                        "snapshot {c} must be the fold of exactly the records before Barrier({c}) \
                         on every input: {}",
                        list(&cut)
                    )
                };
                return Err(Failure::new(
                    format!("snapshot {c} = {}", list(state)),
                    format!("snapshot {c} = {}", list(have)),
                )
                .step(format!("{label}: {why}"))
                .multiset(state, have)
                .requirement("06-R15"));
            }
        }
        if got.len() != want.len() || got.iter().zip(&want).any(|(g, w)| g.0 != w.0) {
            return Err(Failure::new(format!("{want:?}"), format!("{got:?}"))
                .step(format!(
                    "{label}: one snapshot per completed checkpoint, in order"
                ))
                .requirement("06-R15"));
        }
    }
    Ok(())
}

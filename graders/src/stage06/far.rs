//! A restore far along: `restore(2, bytes)` of the implementation's own snapshot with its
//! checkpoint counter set to say that `completed` checkpoints completed (the counter found
//! by comparing its snapshots 0, 1 and 2 checkpoints in), then two more checkpoints. A
//! job never takes four billion checkpoints before a test ends, but a snapshot can say it
//! did: just below `2^32`, where a `u32` counter has no next id, and past it, where one
//! reads the count cut short.

use super::bad_calls::own_counter;
use super::case::letter;
use super::driver::{Step, feed};
use super::{Elem, Implementation, Observation};
use crate::stage03::guard::{Answer, caught};

/// The checkpoints completed in the restored snapshots: `2^32 - 2` (the next two are
/// `u32::MAX` and `2^32`), then `2^32`.
pub const FAR: [u64; 2] = [(1 << 32) - 2, 1 << 32];

/// The inputs: input `i` = `[B(c) <letter>0 B(c + 1) <letter>1 B(c + 2)]`, replayed from
/// just after `B(c)`, `c` the checkpoints completed.
pub fn inputs(completed: u64) -> Vec<Vec<Elem>> {
    (0..2)
        .map(|i| {
            vec![
                Elem::Barrier(completed),
                Elem::Record(format!("{}0", letter(i))),
                Elem::Barrier(completed + 1),
                Elem::Record(format!("{}1", letter(i))),
                Elem::Barrier(completed + 2),
            ]
        })
        .collect()
}

/// Input 0's record and barrier, then input 1's (which completes the checkpoint), then
/// both records, then input 1's barrier and input 0's.
pub const SCHEDULE: [usize; 8] = [0, 0, 1, 1, 0, 1, 1, 0];

/// The restore and the calls after it; moot where the snapshots hold no counter that can
/// be told. A panic ends the run as an error that names it.
pub fn drive_far<I: Implementation>(completed: u64) -> Observation {
    let counter = match own_counter::<I>() {
        Ok(counter) => counter,
        Err(e) => {
            return Observation::Moot {
                why: format!("{e:#}"),
            };
        }
    };
    let Some(value) = counter.base.checked_add(completed) else {
        return Observation::Moot {
            why: "its counter cannot say so many checkpoints".to_owned(),
        };
    };
    let bytes = counter.set_to(value);
    let mut steps: Vec<Step> = Vec::new();
    let run = caught(|| {
        let mut restored = I::restore(2, &bytes).map_err(|e| {
            anyhow::anyhow!(
                "restore(2, your snapshot with its counter set to {value}) failed: {e:#}"
            )
        })?;
        feed::<I>(
            &mut restored,
            &inputs(completed),
            &SCHEDULE,
            &[1, 1],
            &mut steps,
            |_, _| Ok(()),
        )
        .map_err(anyhow::Error::msg)
    });
    let error = match run {
        Answer::Ok(()) => None,
        Answer::Err(e) => Some(e),
        Answer::Panicked(m) => Some(format!("panicked: {m}")),
    };
    Observation::Align { steps, error }
}

/// The case as a report shows it.
pub fn describe(completed: u64) -> String {
    format!(
        "restore(2, your fresh aligner's snapshot with its checkpoint counter set to say \
         {completed} checkpoints completed), then {}",
        super::case::describe_run(&inputs(completed), &SCHEDULE)
    )
}

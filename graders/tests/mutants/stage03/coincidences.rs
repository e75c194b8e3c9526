//! Stage 03 mutants whose routing is wrong in another way than a card's: no card may be
//! shown for them, even where their smallest case lands a record where the card's
//! mistake would.

use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

/// **Mistake:** `partition` sends each record to the subtask after its owner (an
/// off-by-one in the routing, not `hash % p`).
/// **Verdict:** `partition` fails on the first case with two subtasks (03-R1), with no
/// card: it is not the routing of `03-hash-modulo-parallelism`.
mod next_subtask {
    pub use solution03::*;

    pub fn partition<T: Clone>(
        records: &[T],
        key: impl Fn(&T) -> &[u8],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<Vec<T>>> {
        key_group_range(0, parallelism, max_parallelism)?;
        let mut out = vec![Vec::new(); parallelism as usize];
        for record in records {
            let group = key_group_for(key(record), max_parallelism)?;
            let owner = operator_index_for(group, parallelism, max_parallelism)?;
            out[((owner + 1) % parallelism) as usize].push(record.clone());
        }
        Ok(out)
    }
}
graders::impl_stage03!(NextSubtask, next_subtask);

#[rstest]
#[case::next_subtask(drive::<NextSubtask>, "partition", "03-R1")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Parallelism>(drive, check, requirement);
}

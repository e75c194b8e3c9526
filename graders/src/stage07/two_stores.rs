//! The `store` check's two stores alive at once: each `InMemoryCheckpointStore` keeps
//! its own checkpoints (07-R1), so a checkpoint table kept beside the stores (a
//! `static`, a `thread_local!`) that a new store clears or shares is caught.

use super::Implementation;
use super::oracle::Stored;
use crate::harness::Failure;
use crate::stage03::guard::{Answer, caught};

/// The case as a report shows it.
pub const DESCRIPTION: &str = "a = InMemoryCheckpointStore::new(); a.save(1, 10, b\"a1\"); \
     a.complete(1); b = InMemoryCheckpointStore::new(); then b.save(2, 20, b\"b2\"); \
     b.complete(2); a.latest_completed() and b.latest_completed() after b is made and \
     after b's checkpoint completes";

/// What each reading is, in order.
const READINGS: [&str; 4] = [
    "a.latest_completed() once b is made",
    "b.latest_completed() when b is new",
    "a.latest_completed() after b completed checkpoint 2",
    "b.latest_completed() after b completed checkpoint 2",
];

/// Runs the two stores of [`DESCRIPTION`].
pub fn run<I: Implementation>() -> Answer<Vec<Option<Stored>>> {
    caught(|| {
        let mut a = I::store();
        I::save(&mut a, 1, 10, b"a1".to_vec())?;
        I::complete(&mut a, 1)?;
        let mut b = I::store();
        let mut readings = vec![I::latest_completed(&a), I::latest_completed(&b)];
        I::save(&mut b, 2, 20, b"b2".to_vec())?;
        I::complete(&mut b, 2)?;
        readings.extend([I::latest_completed(&a), I::latest_completed(&b)]);
        Ok(readings)
    })
}

/// Each store answers with its own checkpoint, and a new one with none.
pub fn judge(readings: &Answer<Vec<Option<Stored>>>) -> Result<(), Failure> {
    let a: Option<Stored> = Some((1, 10, b"a1".to_vec()));
    let b: Option<Stored> = Some((2, 20, b"b2".to_vec()));
    let want = [a.clone(), None, a, b];
    let readings = match readings {
        Answer::Ok(readings) => readings,
        other => {
            return Err(Failure::new("every call answers Ok", other.show())
                .step("valid calls on two stores, each with its own ids")
                .requirement("07-R1"));
        }
    };
    for (k, (label, want)) in READINGS.iter().zip(&want).enumerate() {
        let got = readings.get(k);
        if got != Some(want) {
            return Err(Failure::new(
                format!("{want:?}"),
                got.map_or_else(|| "no reading".to_owned(), |g| format!("{g:?}")),
            )
            .step(format!(
                "{label}: each store keeps its own checkpoints, whatever another store is made or saves"
            ))
            .requirement("07-R1"));
        }
    }
    Ok(())
}

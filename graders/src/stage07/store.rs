//! The `store` check: `InMemoryCheckpointStore` against the model, operation by
//! operation, each refusal and each `latest_completed()` read after it.

use std::collections::BTreeMap;

use super::StoreOp;
use super::oracle::{ModelStore, Stored};
use crate::harness::Failure;

/// The offset and state of `save(id)` in a store case: `10 * id + n` and `"s{id}.{n}"`,
/// `n` counting the earlier saves of the same id, so that a replaced save is visible.
/// With `falling` offsets the offset is `10 * (3 - id) + n` (the ids are 1 and 2): the
/// higher id at the lower offset, so that a store ranking checkpoints by offset answers
/// another one than the highest id. The offset saturates: `u64::MAX` is an id too.
pub(super) fn saved_payload(
    saves: &mut BTreeMap<u64, u64>,
    id: u64,
    falling: bool,
) -> (u64, Vec<u8>) {
    let n = saves.entry(id).or_default();
    let base = if falling { 3u64.saturating_sub(id) } else { id };
    let payload = (
        base.saturating_mul(10).saturating_add(*n),
        format!("s{id}.{n}").into_bytes(),
    );
    *n += 1;
    payload
}

fn show(latest: &Option<Stored>) -> String {
    match latest {
        Some((id, offset, state)) => format!(
            "Some(checkpoint {id}, offset {offset}, state {:?})",
            String::from_utf8_lossy(state)
        ),
        None => "None".to_owned(),
    }
}

/// Judges the results and the `latest_completed()` after each of `ops` (with `falling`
/// offsets, see [`saved_payload`]), up to the operation that `panicked`, if one did.
pub(super) fn judge_store(
    ops: &[StoreOp],
    falling: bool,
    after_each: &[(Result<(), String>, Option<Stored>)],
    panicked: Option<&str>,
) -> Result<(), Failure> {
    let mut model = ModelStore::default();
    let mut saves = BTreeMap::<u64, u64>::new();
    for (i, op) in ops.iter().enumerate() {
        // What the brief says of this call, given the model's state before it.
        let (want, rule_ok, rule_refused) = match *op {
            StoreOp::Save(id) => {
                let in_flight = model.is_in_flight(id);
                let (offset, state) = saved_payload(&mut saves, id, falling);
                let rule = if in_flight { "07-R2" } else { "07-R1" };
                (model.save(id, offset, state), rule, "07-R3")
            }
            StoreOp::Complete(id) => {
                let rule = if model.is_completed(id) {
                    "07-R4"
                } else {
                    "07-R1"
                };
                (model.complete(id), rule, "07-R5")
            }
        };
        let want_latest = model.latest_completed();
        let label = format!("operation {} ({op:?}) after {:?}", i + 1, &ops[..i]);
        let Some((got, got_latest)) = after_each.get(i) else {
            let Some(message) = panicked else {
                return Err(
                    Failure::new("one observation per operation", "fewer").requirement("07-R1")
                );
            };
            // The panic breaks the rule of the call, the valid one as the refused one.
            let (expected, rule) = match &want {
                Ok(()) => ("Ok(())".to_owned(), rule_ok),
                Err(why) => (format!("Err(..): {why}"), rule_refused),
            };
            return Err(Failure::new(expected, format!("panicked: {message}"))
                .step(format!(
                    "{label}: the call, or latest_completed() right after it, panicked; the \
                     brief asks for errors instead of panics, and any id from 1 to u64::MAX is \
                     valid"
                ))
                .requirement(rule));
        };
        match (&want, got) {
            (Ok(()), Err(e)) => {
                return Err(Failure::new("Ok(())", format!("Err({e})"))
                    .step(format!("{label}: a valid call failed"))
                    .requirement(rule_ok));
            }
            (Err(why), Ok(())) => {
                // What the accepted call did, read right after it: a store that ignores the
                // call and one that carries it out are different mistakes.
                let after = if *got_latest == want_latest {
                    format!("latest_completed() still reads {}", show(got_latest))
                } else {
                    format!(
                        "latest_completed() reads {}, where before it read {}",
                        show(got_latest),
                        show(&want_latest)
                    )
                };
                return Err(Failure::new(format!("Err(..): {why}"), "Ok(())")
                    .step(format!("{label} must be refused; right after it, {after}"))
                    .requirement(rule_refused));
            }
            _ => {}
        }
        if *got_latest != want_latest {
            // A refused call must change nothing; a checkpoint read with the content of an
            // older save of its id missed the replacement; otherwise the wrong one is read.
            let same_id = matches!((got_latest, &want_latest), (Some(g), Some(w)) if g.0 == w.0);
            let rule = if want.is_err() {
                rule_refused
            } else if same_id {
                "07-R2"
            } else {
                "07-R1"
            };
            // An older checkpoint at a higher offset: ranked by offset, not by id.
            let by_offset = match (got_latest, &want_latest) {
                (Some((id, offset, _)), Some((want_id, want_offset, _)))
                    if id < want_id && offset > want_offset =>
                {
                    format!(
                        " (checkpoint {id} has the higher offset, {offset}, but the lower id: \
                         checkpoints are ranked by id, whatever their offsets)"
                    )
                }
                _ => String::new(),
            };
            return Err(Failure::new(show(&want_latest), show(got_latest))
                .step(format!(
                    "{label}, then latest_completed(): the completed checkpoint with the highest id, \
                     never one in flight{by_offset}"
                ))
                .requirement(rule));
        }
    }
    Ok(())
}

//! Keys that are no strings: the operator is generic over its key, and a snapshot that
//! writes a map keyed by `K` (a JSON object) works for `String` keys only. Every other
//! case binds `K = String`; this one, in the `crash` check, binds `K = (String, u64)`.

use super::oracle::Model;
use super::{AssignerSpec, Fired, LateRecord};
use crate::harness::Failure;

/// The size of the case's tumbling windows.
pub const SIZE: u64 = 3;
/// The assigner of the case.
pub const SPEC: AssignerSpec = AssignerSpec::Tumbling(SIZE);
/// The watermark after the restore: it fires both windows of the records.
pub const WATERMARK: u64 = 5;

/// The records, key `(key, ts)`: two windows, three keys in the first. Timestamps of one
/// digit, so that `key/ts` sorts as the pair does.
pub fn records() -> Vec<LateRecord> {
    [("a", 1, 2), ("b", 1, -1), ("a", 2, 3), ("a", 4, 5)]
        .into_iter()
        .map(|(k, ts, v)| (k.to_owned(), ts, v))
        .collect()
}

/// The case as a report shows it.
pub fn describe() -> String {
    let shown: Vec<String> = records()
        .iter()
        .map(|(k, ts, v)| format!("on_record((\"{k}\", {ts}), {ts}, {v})"))
        .collect();
    format!(
        "WindowOperator<(String, u64), _> over {SPEC}: {}, then restore(snapshot()), then \
         on_watermark({WATERMARK})",
        shown.join(", ")
    )
}

/// `Ok` when the restored operator fires what the model does (keys shown `key/ts`).
pub fn judge(result: &Result<Vec<Fired>, String>) -> Result<(), Failure> {
    let want = expected();
    let got = result.as_ref().map_err(|e| {
        Failure::new(format!("{want:?}"), format!("Err({e})"))
            .step(failed_step(e))
            .requirement("05-R15")
    })?;
    if *got != want {
        let (why, requirement) = if same_results(got, &want) {
            // Nothing was lost in the snapshot: the call orders its results wrongly (the
            // seventeenth red team's w05-01 ordered them by key, then window).
            (
                "the right results in the wrong order: by window (start, end), then key",
                "05-R12",
            )
        } else {
            (
                "the snapshot must hold every aggregate, whatever the key type",
                "05-R15",
            )
        };
        return Err(Failure::new(format!("{want:?}"), format!("{got:?}"))
            .step(format!(
                "on_watermark({WATERMARK}) after the restore: {why}"
            ))
            .requirement(requirement));
    }
    Ok(())
}

/// What the model fires after the restore (keys shown `key/ts`).
fn expected() -> Vec<Fired> {
    let mut model = Model::new(SPEC);
    for (k, ts, v) in records() {
        model.record(&format!("{k}/{ts}"), ts, v);
    }
    model.watermark(WATERMARK)
}

/// Whether `got` holds exactly the results of `want`, in some order.
fn same_results(got: &[Fired], want: &[Fired]) -> bool {
    let mut got = got.to_vec();
    let mut want = want.to_vec();
    got.sort();
    want.sort();
    got == want
}

/// The step of a snapshot or restore that failed with pair keys: serde_json's "key must be
/// a string" is a map written as a JSON object; any other error is the learner's own format
/// meeting a key it cannot hold, and naming JSON objects would point away from it.
fn failed_step(error: &str) -> String {
    let why = if error.contains("key must be a string") {
        "the operator is generic over its key, and JSON object keys must be strings"
    } else {
        "the operator is generic over its key, and its snapshot must give back every key it holds, whatever the key's type and text"
    };
    format!("snapshot() or restore(..) failed with keys that are pairs: {why}")
}

#[cfg(test)]
mod tests {
    use super::{expected as fired, failed_step, judge};

    #[test]
    fn the_right_results_in_another_order_are_blamed_on_the_order_not_the_snapshot() {
        let mut by_key = fired();
        by_key.sort_by(|a, b| (&a.key, a.start).cmp(&(&b.key, b.start)));
        assert_ne!(by_key, fired(), "the case must have an order to break");
        let failure = judge(&Ok(by_key)).expect_err("another order fails");
        assert_eq!(failure.requirement, Some("05-R12"));
        let lost = fired()[1..].to_vec();
        let failure = judge(&Ok(lost)).expect_err("a lost aggregate fails");
        assert_eq!(failure.requirement, Some("05-R15"));
        assert!(judge(&Ok(fired())).is_ok());
    }

    #[test]
    fn only_serde_json_s_refusal_is_blamed_on_json_object_keys() {
        assert!(failed_step("key must be a string").contains("JSON object keys must be strings"));
        let own_format = failed_step(r#"not a snapshot (bad line "0,3,2,1,[\"a\",1]")"#);
        assert!(!own_format.contains("JSON"), "{own_format}");
        assert!(own_format.contains("every key it holds"), "{own_format}");
    }
}

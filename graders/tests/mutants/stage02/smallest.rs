//! Stage 02's `isolation` reports its smallest failing stream: a mistake first seen on a
//! key's third record is shown on a three-record stream, never on a longer one.

use graders::stage02::{KeyedStateStage, drive};

use crate::{fail, rejects};

/// **Mistake:** the operator stores a key's state when the key first appears and
/// afterwards only lends the slot ("the map holds it now; the function updates it
/// there"), so every later change of a live key is lost.
/// **Verdict:** `isolation` fails first on a key's third record, which sees the state its
/// first record left instead of its second's: no stream of two records shows it.
pub mod stored_only_when_new {
    keyed_operator! {
        fn process(self, key, input, out) {
            let mut slot = self.state.get(&key).cloned();
            let new = slot.is_none();
            self.function.process_element(&key, input, &mut slot, out);
            match slot {
                Some(value) if new => self.state.put(key, value),
                Some(_) => {}
                None => {
                    self.state.remove(&key);
                }
            }
        }
    }
}
graders::impl_stage02!(
    StoredOnlyWhenNew,
    StoredOnlyWhenNewSpy,
    stored_only_when_new
);

/// The brief's "smallest first": the first failing `isolation` case of a mistake that
/// needs three records of one key is the three-record stream of that key, not the
/// four-record stream after it that also shows it.
#[test]
fn isolation_reports_the_three_record_stream() {
    let report = rejects::<KeyedStateStage>(drive::<StoredOnlyWhenNew>, "isolation");
    let failure = report
        .checks
        .iter()
        .find(|c| c.name == "isolation")
        .and_then(|c| c.first_failure.as_ref())
        .unwrap_or_else(|| fail("`isolation` has no failure"));
    let want = "keyed stream (key, value) = [(\"a\", 1), (\"a\", 2), (\"a\", 3)]";
    if failure.case != want {
        fail(&format!(
            "`isolation` reports the case\n{}\nnot the smallest\n{want}",
            failure.case
        ));
    }
}

//! One state of an operator of [`SPEC`], written by the grader in the layouts a snapshot
//! of it commonly takes (the reference's flat list of `(window, key, sum, count)`, a flat
//! list of named aggregates, aggregates grouped by window, grouped by key), each handed to
//! `restore` but the one that is the implementation's own snapshot of it. `restore` of
//! bytes `snapshot` never writes is an error (05-R16); what a derived `Deserialize` of
//! its own type also reads may restore, into what those bytes say. So each restore must
//! be refused, or give an operator whose own snapshot the bytes are a derived reading of
//! (`harness::derivable`): a restore that also reads an older layout of its own by a path
//! of its own (the sixteenth red team's w05-04 read the flat list beside its aggregates
//! grouped by window) fails here, where every other probe hands it its own layout,
//! damaged.

use serde::{Deserialize, Serialize};

use super::Implementation;
use super::forged::SPEC;
use crate::harness::derivable::{derived_beside, explain, same_tree};

/// The state: `W(1)`, then `a@3=4`, `a@5=3`, `b@4=-2`, `a@13=5`: two keys in one window,
/// one key in two, a count of 2, a negative sum and a watermark.
pub const WATERMARK: u64 = 1;
/// The records of the state, each a (key, timestamp, value), after [`WATERMARK`].
pub const RECORDS: [(&str, u64, i64); 4] = [("a", 3, 4), ("a", 5, 3), ("b", 4, -2), ("a", 13, 5)];

/// The layouts of the state, each with what a report calls it.
pub const LAYOUTS: [(&str, &str); 4] = [
    (
        "the reference's layout, a flat list of (window, key, sum, count)",
        r#"{"watermark":1,"open":[[{"start":0,"end":10},"a",7,2],[{"start":0,"end":10},"b",-2,1],[{"start":10,"end":20},"a",5,1]]}"#,
    ),
    (
        "a flat list of named aggregates",
        r#"{"watermark":1,"aggregates":[{"window":{"start":0,"end":10},"key":"a","sum":7,"count":2},{"window":{"start":0,"end":10},"key":"b","sum":-2,"count":1},{"window":{"start":10,"end":20},"key":"a","sum":5,"count":1}]}"#,
    ),
    (
        "the aggregates grouped by window",
        r#"{"watermark":1,"windows":[{"window":{"start":0,"end":10},"keys":[["a",7,2],["b",-2,1]]},{"window":{"start":10,"end":20},"keys":[["a",5,1]]}]}"#,
    ),
    (
        "the aggregates grouped by key",
        r#"{"watermark":1,"keys":[{"key":"a","windows":[[{"start":0,"end":10},7,2],[{"start":10,"end":20},5,1]]},{"key":"b","windows":[[{"start":0,"end":10},-2,1]]}]}"#,
    ),
];

/// A restore of the state in another layout that no derived reading of the
/// implementation's own type makes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relaid {
    /// What the report says of it (`harness::derivable::explain`).
    pub why: String,
}

impl Relaid {
    /// What the report says was restored.
    pub fn describe(&self) -> String {
        format!(
            "the state of W(1), a@3=4, a@5=3, b@4=-2, a@13=5 written as {}",
            self.why
        )
    }
}

/// The first layout (in the order of [`LAYOUTS`]) that restored otherwise than a derived
/// reading does, if any.
pub fn first_relaid<I: Implementation>() -> Option<Relaid> {
    let own = {
        let mut operator = I::operator(SPEC).ok()?;
        I::on_watermark(&mut operator, WATERMARK);
        for (key, ts, value) in RECORDS {
            I::on_record(&mut operator, key, ts, value);
        }
        I::snapshot(&operator).ok()?
    };
    let fresh = I::operator(SPEC)
        .ok()
        .and_then(|operator| I::snapshot(&operator).ok());
    LAYOUTS.into_iter().find_map(|(layout, bytes)| {
        let bytes = bytes.as_bytes();
        if same_tree(bytes, &own) {
            return None;
        }
        let restored = I::restore(SPEC, bytes).ok()?;
        // A restored operator whose snapshot fails is no state `snapshot` writes.
        let again = I::snapshot(&restored).unwrap_or_else(|e| format!("Err({e:#})").into_bytes());
        (!derived_beside(bytes, &again, fresh.as_deref())).then(|| Relaid {
            why: explain(layout, bytes, &own, &again),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::derivable::Tree;

    #[test]
    fn every_layout_is_json_and_another_tree() {
        for (i, (_, a)) in LAYOUTS.iter().enumerate() {
            assert!(Tree::read(a.as_bytes()).is_some(), "{a}");
            for (_, b) in &LAYOUTS[i + 1..] {
                assert!(!same_tree(a.as_bytes(), b.as_bytes()), "{a} and {b}");
            }
        }
    }
}

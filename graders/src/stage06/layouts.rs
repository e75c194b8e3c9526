//! One state, an aligner of 2 inputs that completed checkpoint 1, written by the grader
//! in the layouts a snapshot of it commonly takes (the reference's `{"completed":1}`,
//! the next checkpoint, the last one under another name, a bare number), each handed to
//! `restore` but the one that is the implementation's own snapshot of it. `restore` of
//! bytes `snapshot` never writes is an error (06-R14); what a derived `Deserialize` of
//! its own type also reads may restore, into what those bytes say. So each restore must
//! be refused, or give an aligner whose own snapshot the bytes are a derived reading of
//! (`harness::derivable`): a restore that also reads an
//! older layout of its own by a path of its own (the sixteenth red team's w06-04 read
//! `{"completed": n}` beside its `{"next": n}`) fails here, where every other probe
//! hands it its own layout, damaged.

use super::binding::Implementation;
use super::case::Elem;
use crate::harness::derivable::{derived_beside, explain, same_tree};

/// The layouts, each with what a report calls it: the state after checkpoint 1.
pub const LAYOUTS: [(&str, &str); 5] = [
    ("the reference's layout", r#"{"completed":1}"#),
    ("the next checkpoint", r#"{"next":2}"#),
    (
        "the last completed, by another name",
        r#"{"last_completed":1}"#,
    ),
    ("a bare count of completed checkpoints", "1"),
    ("a bare next checkpoint", "2"),
];

/// What the first layout restored otherwise than a derived reading does: `Ok` with the
/// report of it, or an error when every layout was refused or read as its own type reads
/// it (the call passes).
pub fn restored_otherwise<I: Implementation>() -> anyhow::Result<String> {
    let own = {
        let mut aligner = I::aligner(2)?;
        I::on_element(&mut aligner, 0, Elem::Barrier(1))?;
        I::on_element(&mut aligner, 1, Elem::Barrier(1))?;
        I::snapshot(&aligner)?
    };
    let fresh = I::aligner(2).and_then(|aligner| I::snapshot(&aligner)).ok();
    for (layout, bytes) in LAYOUTS {
        let bytes = bytes.as_bytes();
        if same_tree(bytes, &own) {
            continue;
        }
        let Ok(restored) = I::restore(2, bytes) else {
            continue;
        };
        // A restored aligner whose snapshot fails is no state `snapshot` writes.
        let again = I::snapshot(&restored).unwrap_or_else(|e| format!("Err({e:#})").into_bytes());
        if !derived_beside(bytes, &again, fresh.as_deref()) {
            return Ok(format!(
                "Ok(an aligner) of {}",
                explain(layout, bytes, &own, &again)
            ));
        }
    }
    anyhow::bail!("every other layout is refused or read as a derive of its own type reads it")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stage06::BadCall;

    #[test]
    fn the_report_lists_every_layout_and_none_is_the_reference_s_other_than_its_own() {
        let described = BadCall::RestoreOtherLayout.describe();
        for (_, bytes) in LAYOUTS {
            assert!(described.contains(bytes), "{bytes} in {described}");
        }
        // Each layout is another: no two are one tree.
        for (i, (_, a)) in LAYOUTS.iter().enumerate() {
            for (_, b) in &LAYOUTS[i + 1..] {
                assert!(!same_tree(a.as_bytes(), b.as_bytes()), "{a} and {b}");
            }
        }
    }
}

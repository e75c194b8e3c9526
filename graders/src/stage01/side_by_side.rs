//! Two sources read side by side, in the `contract` check: each keeps its own position,
//! so polling or seeking one never moves the other. A position kept anywhere but in the
//! source (a `static`, a `thread_local!` that `new` resets) is one position for both,
//! which no case reading a single source at a time shows.

use serde::{Deserialize, Serialize};

use super::Implementation;
use super::contract::{Call, Returned};
use super::driver::{caught, seek_caught};
use crate::harness::Failure;

/// The records of the first source, read from before the second exists.
pub const FIRST: [u32; 3] = [10, 11, 12];
/// The records of the second source: other values than the first's, so that a record
/// read from the wrong source shows it.
pub const SECOND: [u32; 4] = [20, 21, 22, 23];

/// The calls once both sources exist (after `first.poll()` and `VecSource::new` of the
/// second): `(source, call)`, 0 for the first, 1 for the second. Polls in turn until the
/// first is drained, then the second sought back, and one poll of each.
pub const TURNS: [(usize, Call); 9] = [
    (0, Call::Poll),
    (1, Call::Poll),
    (0, Call::Poll),
    (1, Call::Poll),
    (0, Call::Poll),
    (1, Call::Poll),
    (1, Call::Seek(1)),
    (0, Call::Poll),
    (1, Call::Poll),
];

/// One call on one of the sources: what it returned, and `position()` of both sources
/// after it (`None` after a panic, where the run stops).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// What the call returned.
    pub returned: Returned,
    /// `position()` of the first and of the second source after it.
    pub positions: Option<[u64; 2]>,
}

/// The case, as a report shows it.
pub fn describe() -> String {
    let turns: Vec<String> = TURNS
        .iter()
        .map(|(source, call)| format!("{}.{}", name(*source), call.describe()))
        .collect();
    format!(
        "let mut a = VecSource::new(vec!{FIRST:?}); a.poll(); let mut b = VecSource::new(vec!{SECOND:?}); \
         then {}, position() of both after each",
        turns.join(", ")
    )
}

fn name(source: usize) -> &'static str {
    ["a", "b"][source]
}

/// The requirements the case can find broken.
pub fn requirements() -> Vec<&'static str> {
    vec!["01-R3", "01-R11"]
}

/// Runs the case against `I`: the first poll of `a` (before `b` exists), then every turn.
pub fn drive<I: Implementation>() -> Vec<Turn> {
    let mut turns = Vec::new();
    let mut a = I::source(FIRST.to_vec());
    let first = caught(|| Returned::Polled(I::poll(&mut a)));
    if let Returned::Panicked(_) = first {
        turns.push(Turn {
            returned: first,
            positions: None,
        });
        return turns;
    }
    let mut b = I::source(SECOND.to_vec());
    turns.push(Turn {
        returned: first,
        positions: Some([I::position(&a), I::position(&b)]),
    });
    for (source, call) in TURNS {
        let called = if source == 0 { &mut a } else { &mut b };
        let returned = match call {
            Call::Poll => caught(|| Returned::Polled(I::poll(called))),
            Call::Seek(offset) => seek_caught::<I>(called, offset),
        };
        let panicked = matches!(returned, Returned::Panicked(_));
        turns.push(Turn {
            returned,
            positions: (!panicked).then(|| [I::position(&a), I::position(&b)]),
        });
        if panicked {
            break;
        }
    }
    turns
}

/// Judges the turns against two sources that each keep their own position.
pub fn judge(turns: &[Turn]) -> Result<(), Failure> {
    let records: [&[u32]; 2] = [&FIRST, &SECOND];
    // The first source has polled once when the second is made.
    let mut positions = [1, 0];
    let calls = std::iter::once((0, Call::Poll)).chain(TURNS);
    for (i, (source, call)) in calls.enumerate() {
        let at = if i == 0 {
            "a.poll(), then b = VecSource::new(..)".to_owned()
        } else {
            format!("turn {i}: {}.{}", name(source), call.describe())
        };
        let want = match call {
            Call::Poll => {
                let position = if i == 0 { 0 } else { positions[source] };
                let record = records[source].get(position as usize).copied();
                if record.is_some() && i > 0 {
                    positions[source] += 1;
                }
                Returned::Polled(record)
            }
            Call::Seek(offset) => {
                positions[source] = offset;
                Returned::Sought(Ok(()))
            }
        };
        let Some(turn) = turns.get(i) else {
            return Err(Failure::new(format!("{want:?}"), "no result")
                .step(format!("{at}: the driver saw no result"))
                .requirement("01-R11"));
        };
        let rule = if matches!(call, Call::Seek(_)) {
            "01-R3"
        } else {
            "01-R11"
        };
        let each_its_own = "each source keeps its own position: reading or seeking one \
                            never moves the other";
        if turn.returned != want {
            return Err(
                Failure::new(format!("{want:?}"), format!("{:?}", turn.returned))
                    .step(format!("{at}: {each_its_own}"))
                    .requirement(rule),
            );
        }
        if turn.positions != Some(positions) {
            let shown = |p: [u64; 2]| format!("a.position() = {}, b.position() = {}", p[0], p[1]);
            return Err(Failure::new(
                shown(positions),
                turn.positions
                    .map_or_else(|| "no position".to_owned(), shown),
            )
            .step(format!("after {at}: {each_its_own}"))
            .requirement(rule));
        }
    }
    Ok(())
}

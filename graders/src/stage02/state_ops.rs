//! The `keyed-state` check: every short sequence of `put`, `update` and `remove` on a
//! `KeyedState<String, u32>`, each call's return value and the readings after it
//! compared with a sorted map.
//!
//! The model is the brief's five sentences and nothing more: `get` reads the map, `put`
//! inserts or replaces, `update` hands its closure the current value and stores what it
//! returns (`None`: no value afterwards, whether there was one or not), `remove` takes
//! the value out and returns it. The closures break convenient assumptions: one returns
//! `None` for a missing key (so `update` of a missing key must leave it missing), one
//! inserts a missing key (so `update` must call its closure even then), one returns
//! `None` always, one returns `Some(0)` always; and one `put` stores a 0: a value equal to
//! its type's default is a value, not a deletion. A failure is blamed on the rule the readings show broken: `snapshot()`
//! right but a `get` wrong is `get`'s rule; `get`s right but `snapshot()` wrong is
//! `snapshot`'s; anything else is the rule of the call just made.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::harness::Failure;
use crate::harness::enumerate::call_sequences;

/// The longest sequence of `KeyedState` operations; all of them are enumerated.
pub const MAX_OPS: usize = 3;

/// A closure handed to `update`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Closure {
    /// `|v| v.map(|v| v + 1)`: bumps a value, leaves a missing one missing.
    Bump,
    /// `|v| Some(v.map_or(10, |v| v * 2))`: inserts 10, or doubles.
    InsertOrDouble,
    /// `|_| None`: deletes.
    Clear,
    /// `|_| Some(0)`: stores a zero, which is a value like any other.
    Zero,
}

impl Closure {
    /// What the closure returns for `v`.
    pub fn apply(self, v: Option<u32>) -> Option<u32> {
        match self {
            Closure::Bump => v.map(|v| v + 1),
            Closure::InsertOrDouble => Some(v.map_or(10, |v| v * 2)),
            Closure::Clear => None,
            Closure::Zero => Some(0),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Closure::Bump => "|v| v.map(|v| v + 1)",
            Closure::InsertOrDouble => "|v| Some(v.map_or(10, |v| v * 2))",
            Closure::Clear => "|_| None",
            Closure::Zero => "|_| Some(0)",
        }
    }
}

/// One operation on a `KeyedState<String, u32>`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum StateOp {
    /// `put(key, value)`
    Put(String, u32),
    /// `update(key, closure)`
    Update(String, Closure),
    /// `remove(&key)`
    Remove(String),
}

impl StateOp {
    /// The operation as the brief's API writes it: `put("a", 1)`, `update("a", |_| None)`.
    pub fn describe(&self) -> String {
        match self {
            StateOp::Put(key, value) => format!("put({key:?}, {value})"),
            StateOp::Update(key, closure) => format!("update({key:?}, {})", closure.describe()),
            StateOp::Remove(key) => format!("remove({key:?})"),
        }
    }
}

/// What one operation returned, as the driver saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum StateReturned {
    /// `put` returned.
    Put,
    /// `update` returned.
    Updated {
        /// Whether it called its closure.
        called: bool,
        /// What it handed its closure (if it called it).
        handed: Option<u32>,
    },
    /// `remove` returned this.
    Removed(Option<u32>),
    /// The operation (or a reading after it) panicked with this message.
    Panicked(String),
}

/// `get("a")`, `get("b")` and `snapshot()` after one operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Readings {
    /// `get("a")`.
    pub a: Option<u32>,
    /// `get("b")`.
    pub b: Option<u32>,
    /// `snapshot()`.
    pub snapshot: BTreeMap<String, u32>,
}

/// One step: what the operation returned and the readings right after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateStep {
    /// The operation's return value.
    pub returned: StateReturned,
    /// The readings after it (`None` after a panic).
    pub readings: Option<Readings>,
}

/// Every sequence of up to [`MAX_OPS`] operations, shortest first.
pub fn sequences() -> Vec<Vec<StateOp>> {
    let a = || "a".to_owned();
    let alphabet = [
        StateOp::Put(a(), 1),
        StateOp::Put(a(), 2),
        StateOp::Put("b".into(), 3),
        StateOp::Update(a(), Closure::Bump),
        StateOp::Update("b".into(), Closure::InsertOrDouble),
        StateOp::Update(a(), Closure::Clear),
        StateOp::Remove(a()),
        // Last, so that the sequences of the others keep their order.
        StateOp::Put("b".into(), 0),
        StateOp::Update(a(), Closure::Zero),
    ];
    call_sequences(&alphabet, MAX_OPS, |_| true)
}

/// The rule an operation is judged by, given what its closure returns in the model.
fn rule(op: &StateOp, model: &BTreeMap<String, u32>) -> &'static str {
    match op {
        StateOp::Put(..) => "02-R2",
        StateOp::Update(key, closure) if closure.apply(model.get(key).copied()).is_some() => {
            "02-R3"
        }
        StateOp::Update(..) => "02-R4",
        StateOp::Remove(_) => "02-R5",
    }
}

/// The ids a sequence of `ops` can find broken.
pub fn requirements(ops: &[StateOp]) -> Vec<&'static str> {
    let mut model = BTreeMap::new();
    let mut ids = vec!["02-R1", "02-R6"];
    for op in ops {
        if let StateOp::Update(..) = op {
            ids.push("02-R3");
        }
        ids.push(rule(op, &model));
        apply(&mut model, op);
    }
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// What `op` returns on `model`, and the model after it.
fn apply(model: &mut BTreeMap<String, u32>, op: &StateOp) -> StateReturned {
    match op {
        StateOp::Put(key, value) => {
            model.insert(key.clone(), *value);
            StateReturned::Put
        }
        StateOp::Update(key, closure) => {
            let current = model.remove(key);
            if let Some(next) = closure.apply(current) {
                model.insert(key.clone(), next);
            }
            StateReturned::Updated {
                called: true,
                handed: current,
            }
        }
        StateOp::Remove(key) => StateReturned::Removed(model.remove(key)),
    }
}

/// Judges the steps of `ops` against the model.
pub fn judge(ops: &[StateOp], steps: &[StateStep]) -> Result<(), Failure> {
    let mut model: BTreeMap<String, u32> = BTreeMap::new();
    for (i, op) in ops.iter().enumerate() {
        let at = |what: &str| format!("call {} ({}): {what}", i + 1, op.describe());
        let rule = rule(op, &model);
        let want = apply(&mut model, op);
        let Some(step) = steps.get(i) else {
            return Err(Failure::new(format!("a result for call {}", i + 1), "none")
                .step(at("the driver saw no result"))
                .requirement(rule));
        };
        if step.returned != want {
            let what = match (&want, &step.returned) {
                (_, StateReturned::Panicked(_)) => "it panicked",
                (StateReturned::Updated { .. }, _) => {
                    "update did not hand its closure the current value once"
                }
                (StateReturned::Removed(_), _) => "remove did not return the value the key had",
                _ => "it returned something else",
            };
            // How `update` calls its closure is its first rule's, whatever the closure returns.
            let rule = match op {
                StateOp::Update(..) if !matches!(step.returned, StateReturned::Panicked(_)) => {
                    "02-R3"
                }
                _ => rule,
            };
            return Err(
                Failure::new(format!("{want:?}"), format!("{:?}", step.returned))
                    .step(at(what))
                    .requirement(rule),
            );
        }
        let want = Readings {
            a: model.get("a").copied(),
            b: model.get("b").copied(),
            snapshot: model.clone(),
        };
        let got = step.readings.as_ref();
        if got == Some(&want) {
            continue;
        }
        let (rule, what) = match got {
            Some(got) if got.snapshot == want.snapshot => {
                ("02-R1", "snapshot() is right, but get(..) is not")
            }
            Some(got) if (got.a, got.b) == (want.a, want.b) => {
                ("02-R6", "get(..) is right, but snapshot() is not")
            }
            _ => (rule, "get(..) and snapshot() after it"),
        };
        return Err(Failure::new(
            format!(
                "get(a), get(b), snapshot = {:?}",
                (want.a, want.b, &want.snapshot)
            ),
            got.map_or_else(
                || "no readings".to_owned(),
                |g| format!("get(a), get(b), snapshot = {:?}", (g.a, g.b, &g.snapshot)),
            ),
        )
        .step(at(what))
        .requirement(rule));
    }
    Ok(())
}

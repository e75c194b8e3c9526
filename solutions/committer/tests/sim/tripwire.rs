//! The simulator's tripwire: counts the steps of an attempt and crashes at the planned
//! one (by count, for exhaustive enumeration, or by name, for the scenario tests).

use std::cell::RefCell;
use std::rc::Rc;

use anyhow::Result;
use committer::{Crash, Step, Tripwire};

/// Counts steps; trips at the planned one.
#[derive(Debug, Default)]
pub struct Counter {
    pub reached: usize,
    pub crash_after: Option<usize>,
    pub crash_on: Option<Step>,
}

#[derive(Debug, Clone, Default)]
pub struct SharedTripwire(pub Rc<RefCell<Counter>>);

impl Tripwire for SharedTripwire {
    fn reached(&mut self, step: Step) -> Result<()> {
        let mut counter = self.0.borrow_mut();
        counter.reached += 1;
        if counter.crash_after == Some(counter.reached) || counter.crash_on == Some(step) {
            counter.crash_on = None;
            return Err(Crash(step).into());
        }
        Ok(())
    }
}

//! The checks of stage 05, each with the law it judges.

use crate::harness::Check;

pub(super) const ASSIGN: Check = Check {
    name: "assign",
    law: "assign(ts) is every window of the assigner that contains ts",
};
pub(super) const FIRING: Check = Check {
    name: "firing",
    law: "each (key, window) fires once, in the on_watermark call where wm >= end - 1 first holds",
};
pub(super) const LATENESS: Check = Check {
    name: "lateness",
    law: "a record is late exactly when all its windows fired, and then counts nowhere",
};
pub(super) const STATE: Check = Check {
    name: "state",
    law: "state_size() is the number of open (window, key) aggregates, 0 once all fired",
};
pub(super) const CRASH: Check = Check {
    name: "crash",
    law: "restoring the operator from bytes after any element fires exactly what the uninterrupted run fires",
};
pub(super) const WINDOW_SUMS: Check = Check {
    name: "window-sums",
    law: "window_sums returns the results in firing order and the late records",
};
pub(super) const ERRORS: Check = Check {
    name: "errors",
    law: "a size of 0 or a slide outside 1..=size is an error that names the argument, and the nearest valid assigners assign as the brief says",
};
pub(super) const CONTRACT: Check = Check {
    name: "contract",
    law: "every sequence of up to 3 calls answers, and leaves the state, as the brief fixes",
};

//! The invalid arguments of the `errors` check, each with the nearest valid ones.

use serde::{Deserialize, Serialize};

use super::AssignerSpec;

/// An assigner with an invalid argument, and the argument its error must name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorCall {
    /// `Tumbling::new(0)`
    TumblingZero,
    /// `Sliding::new(0, 1)`: a size of 0 (05-R19); with it every slide is outside
    /// `1..=size` (05-R20), so that its error may name either.
    SlidingSizeZero,
    /// `Sliding::new(0, 0)`: the same, with a slide of 0 besides.
    BothZero,
    /// `Sliding::new(4, 0)`
    SlideZero,
    /// `Sliding::new(4, 5)`
    SlideAboveSize,
}

impl ErrorCall {
    /// The assigner the call builds.
    pub fn spec(self) -> AssignerSpec {
        match self {
            ErrorCall::TumblingZero => AssignerSpec::Tumbling(0),
            ErrorCall::SlidingSizeZero => AssignerSpec::Sliding(0, 1),
            ErrorCall::BothZero => AssignerSpec::Sliding(0, 0),
            ErrorCall::SlideZero => AssignerSpec::Sliding(4, 0),
            ErrorCall::SlideAboveSize => AssignerSpec::Sliding(4, 5),
        }
    }

    /// The nearest valid assigner, which must be accepted and assign right: an extreme
    /// the plan's own assigners never reach (a size of 1, a slide equal to the size).
    pub fn boundary(self) -> AssignerSpec {
        match self {
            ErrorCall::TumblingZero => AssignerSpec::Tumbling(1),
            ErrorCall::SlidingSizeZero | ErrorCall::BothZero => AssignerSpec::Sliding(1, 1),
            ErrorCall::SlideZero => AssignerSpec::Sliding(4, 1),
            ErrorCall::SlideAboveSize => AssignerSpec::Sliding(4, 4),
        }
    }

    /// The words of which the error message must contain one: the argument it names.
    pub fn arguments(self) -> &'static [&'static str] {
        match self {
            ErrorCall::TumblingZero => &["size"],
            ErrorCall::SlidingSizeZero | ErrorCall::BothZero => &["size", "slide"],
            ErrorCall::SlideZero | ErrorCall::SlideAboveSize => &["slide"],
        }
    }

    /// The requirement an answer of another kind breaks.
    pub fn requirement(self) -> &'static str {
        match self {
            ErrorCall::TumblingZero | ErrorCall::SlidingSizeZero | ErrorCall::BothZero => "05-R19",
            ErrorCall::SlideZero | ErrorCall::SlideAboveSize => "05-R20",
        }
    }
}

//! Sizes past the caps a learner may put on a count: a check that feeds the learner's code
//! one of these reaches a `u16` counter or a round limit that every smaller case misses.

/// Inputs of one operator (a watermark combiner's, a barrier aligner's): past what a `u16`
/// counts, and past any round cap below it (1,024, 4,096, 65,536).
pub const PAST_U16_INPUTS: usize = (1 << 16) + 1;

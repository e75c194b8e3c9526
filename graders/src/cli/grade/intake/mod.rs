//! Intake: taking a submission in. It takes in the folders named on the command line and
//! the trees of a slot; it hands on, for each folder that is a submission (`names`), a
//! name in `--out` and its stage sources laid over the instructor's trees ([`overlay`]),
//! never a file that reaches outside its stage ([`reach`], read with [`tokens`]), with what
//! happened to its files ([`crate::cli::grade::model::Overlay`]: overlaid, ignored,
//! refused) and the hash of every file graded ([`hashes`]). Each graded stage is
//! compared with its reference and the graders' oracles ([`similarity`]: winnowed
//! fingerprints, [`winnow`], looked for with [`likeness`]). Once a stage is built,
//! [`record`] judges what the compiler actually read for it: the verdict on reach-outs,
//! where [`reach`] is only the early, friendly message. The [`roster`] says whose each
//! folder is, and [`submitted`] when it came in.

pub mod hashes;
pub mod likeness;
pub(crate) mod names;
pub mod overlay;
pub mod reach;
pub mod record;
pub mod roster;
pub mod similarity;
pub mod submitted;
pub mod tokens;
pub mod winnow;

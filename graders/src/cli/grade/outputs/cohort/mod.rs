//! The cohort: what the class as a whole gets right and wrong. It takes in every report
//! of the output folder and gathers once what they say across submissions
//! ([`findings`]: the failing checks and who fails them, failures grouped by misconception
//! and by anomaly, copies (of the reference and the oracles, and between submissions,
//! [`peers`]), and the stage-08 crash point × commit lag [`matrix`] summed);
//! it hands on two pages of the same findings: `cohort.md` to read ([`markdown`]) and
//! `cohort.html` to look at ([`html`], with its heatmap of submissions × checks,
//! `heatmap`, both made of the same small pieces of markup, `markup`). Where a stage
//! that was never judged case by case went wrong is `places`'s to say.

pub mod findings;
mod heatmap;
pub mod html;
pub mod markdown;
mod markup;
pub mod matrix;
pub mod peers;
mod places;

#[cfg(test)]
mod tests;

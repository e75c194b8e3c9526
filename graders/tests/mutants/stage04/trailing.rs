//! Stage 04 mutants whose `restore` finds a snapshot in bytes that hold one and something
//! more: the first JSON value read with nothing asked of the bytes after it, or text
//! trimmed first; where the brief calls bytes that are not a snapshot an error (04-R15).

use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

/// A module around the reference generator that differs in `restore` alone: `$restore`
/// over `bytes`, returning the reference's generator.
macro_rules! generator_restoring {
    ($(#[$doc:meta])* $name:ident |$bytes:ident| $restore:block) => {
        $(#[$doc])*
        mod $name {
            use anyhow::Result;
            pub use solution04::*;

            pub struct BoundedOutOfOrderness(solution04::BoundedOutOfOrderness);

            impl BoundedOutOfOrderness {
                pub fn new(max_delay: Timestamp) -> Self {
                    Self(solution04::BoundedOutOfOrderness::new(max_delay))
                }
                pub fn on_event(&mut self, ts: Timestamp) {
                    self.0.on_event(ts);
                }
                pub fn current_watermark(&self) -> Option<Timestamp> {
                    self.0.current_watermark()
                }
                pub fn snapshot(&self) -> Result<Vec<u8>> {
                    self.0.snapshot()
                }
                pub fn restore($bytes: &[u8]) -> Result<Self> {
                    let restored: solution04::BoundedOutOfOrderness = $restore;
                    Ok(Self(restored))
                }
            }
        }
    };
}

generator_restoring! {
    /// **Mistake:** the generator's `restore` reads its snapshot with a streaming
    /// deserializer and takes the first value it finds.
    /// **Verdict:** `errors`: its own snapshot of `new(2)` with ` trailing` after it
    /// restores.
    generator_ignores_trailing |bytes| {
        serde_json::Deserializer::from_slice(bytes)
            .into_iter::<solution04::BoundedOutOfOrderness>()
            .next()
            .ok_or_else(|| anyhow::anyhow!("no snapshot"))??
    }
}
graders::impl_stage04!(GeneratorIgnoresTrailing, generator_ignores_trailing);

generator_restoring! {
    /// **Mistake:** the generator's `restore` reads the bytes as text and trims it ("a
    /// file may end in a newline"), so whitespace JSON does not read, a form feed or an
    /// ideographic space, is taken for no byte at all.
    /// **Verdict:** `errors`: its own snapshot of `new(2)` after a form feed restores.
    generator_trims_text |bytes| {
        solution04::BoundedOutOfOrderness::restore(std::str::from_utf8(bytes)?.trim().as_bytes())?
    }
}
graders::impl_stage04!(GeneratorTrimsText, generator_trims_text);

generator_restoring! {
    /// **Mistake:** the generator's `restore` trims the end of the bytes with
    /// `trim_ascii_end` ("a file may end in a newline"): JSON reads a trailing space, tab,
    /// line feed or carriage return already, and this strips a form feed too.
    /// **Verdict:** `errors`: its own snapshot of `new(2)` followed by a form feed
    /// restores (the eighth red team's w04-02).
    generator_trims_the_end |bytes| {
        solution04::BoundedOutOfOrderness::restore(bytes.trim_ascii_end())?
    }
}
graders::impl_stage04!(GeneratorTrimsTheEnd, generator_trims_the_end);

/// Each mutant, the check that must reject it and the requirement its failure names.
#[rstest]
#[case::generator_ignores_trailing(drive::<GeneratorIgnoresTrailing>, "errors", "04-R15")]
#[case::generator_trims_text(drive::<GeneratorTrimsText>, "errors", "04-R15")]
#[case::generator_trims_the_end(drive::<GeneratorTrimsTheEnd>, "errors", "04-R15")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    graders::harness::expect_rejected_for::<EventTime>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}

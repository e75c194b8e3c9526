//! Stage 05 mutants written from the brief's sentences alone, each breaking one rule:
//! "no watermark" read as watermark 0, empty bytes restored as a fresh operator, a
//! snapshot keyed by `K` (fine for strings only), and mistakes the grader already
//! rejected when they were written (a zero sum dropped, late records sorted by time,
//! sliding windows newest first, watermark 0 stored as none, state counted by key, late
//! when any window fired, firing only at exactly `end - 1`).

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

/// A mutant: the reference operator behind a wrapper whose methods are `$body`; the
/// helpers `fwd_*` forward to the reference.
macro_rules! wrapped {
    ($(#[$doc:meta])* $name:ident, $binding:ident, $operator:ident { $($body:tt)* }) => {
        $(#[$doc])*
        mod $name {
            #![allow(dead_code, unused_imports)]
            use anyhow::Result;
            use serde::{Serialize, de::DeserializeOwned};
            pub use solution05::*;
            use solution05::WindowOperator as Inner;

            pub struct WindowOperator<K, A> {
                inner: Inner<K, A>,
                assigner: A,
            }

            impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner + Clone>
                WindowOperator<K, A>
            {
                pub fn new(assigner: A) -> Self {
                    Self { inner: Inner::new(assigner.clone()), assigner }
                }
                pub fn current_watermark(&self) -> Option<Timestamp> { self.inner.current_watermark() }
                fn fwd_record(&mut self, key: K, ts: Timestamp, value: i64) -> Option<Late<K>> {
                    self.inner.on_record(key, ts, value)
                }
                fn fwd_watermark(&mut self, wm: Timestamp) -> Vec<WindowResult<K>> {
                    self.inner.on_watermark(wm)
                }
                fn fwd_restore(assigner: A, bytes: &[u8]) -> Result<Self> {
                    Ok(Self { inner: Inner::restore(assigner.clone(), bytes)?, assigner })
                }
                $($body)*
            }
        }
        graders::impl_stage05!($binding, $operator, $name);
    };
}

/// The methods a mutant does not change, forwarded: each mutant writes out the ones it
/// changes and takes the rest from here.
macro_rules! forward {
    (record) => {
        pub fn on_record(&mut self, key: K, ts: Timestamp, value: i64) -> Option<Late<K>> {
            self.fwd_record(key, ts, value)
        }
    };
    (watermark) => {
        pub fn on_watermark(&mut self, wm: Timestamp) -> Vec<WindowResult<K>> {
            self.fwd_watermark(wm)
        }
    };
    (size) => {
        pub fn state_size(&self) -> usize {
            self.inner.state_size()
        }
    };
    (snapshot) => {
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            self.inner.snapshot()
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            Self::fwd_restore(assigner, bytes)
        }
    };
}

wrapped! {
    /// **Mistake:** `self.watermark.unwrap_or(0)`: before any watermark the operator
    /// behaves as if watermark 0 had come, so a window of one timestamp, `[0, 1)`, has
    /// "fired" already. **Verdict:** `contract` fails: `Tumbling::new(1)`, `a@0=1` as
    /// the first call is returned as late, though no window of it has fired (05-R7).
    no_watermark_is_zero, NoWatermarkIsZero, NoWatermarkIsZeroOperator {
        pub fn on_record(&mut self, key: K, ts: Timestamp, value: i64) -> Option<Late<K>> {
            let wm = self.inner.current_watermark().unwrap_or(0);
            if self.assigner.assign(ts).iter().all(|w| w.end - 1 <= wm) {
                return Some(Late(Event::new(ts, (key, value))));
            }
            self.fwd_record(key, ts, value)
        }
        forward!(watermark);
        forward!(snapshot);
        forward!(size);
    }
}

wrapped! {
    /// **Mistake:** "nothing saved yet": `restore` of empty bytes builds a fresh
    /// operator. **Verdict:** `contract` fails: `restore(b"")` is `Ok` (05-R16).
    restore_empty_fresh, RestoreEmptyFresh, RestoreEmptyFreshOperator {
        forward!(record);
        forward!(watermark);
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            self.inner.snapshot()
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            if bytes.is_empty() {
                return Ok(Self::new(assigner));
            }
            Self::fwd_restore(assigner, bytes)
        }
        forward!(size);
    }
}

wrapped! {
    /// **Mistake:** the trap of the brief half avoided: windows go into a list, but the
    /// aggregates of each key into a map keyed by `K`, a JSON object, which only string
    /// keys can be. (Its `restore` refuses bytes it would not write back the same, so
    /// that a key written twice, which the map would read as its last, is refused: the
    /// key type is its one mistake.) **Verdict:** `crash` fails: an operator keyed by
    /// `(String, u64)` cannot snapshot (05-R15).
    keyed_by_k, KeyedByK, KeyedByKOperator {
        forward!(record);
        forward!(watermark);
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            let plain: super::Plain<K> = serde_json::from_slice(&self.inner.snapshot()?)?;
            let mut by_key = std::collections::BTreeMap::<K, Vec<(Window, i64, u64)>>::new();
            for (w, k, sum, count) in plain.open {
                by_key.entry(k).or_default().push((w, sum, count));
            }
            Ok(serde_json::to_vec(&super::ByKey { watermark: plain.watermark, by_key })?)
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            let keyed: super::ByKey<K> = serde_json::from_slice(bytes)?;
            anyhow::ensure!(
                serde_json::to_vec(&keyed)? == bytes,
                "not a snapshot (a key written twice, or bytes it does not write)"
            );
            let open = keyed
                .by_key
                .into_iter()
                .flat_map(|(k, v)| v.into_iter().map(move |(w, s, c)| (w, k.clone(), s, c)))
                .collect();
            let plain = super::Plain { watermark: keyed.watermark, open };
            Self::fwd_restore(assigner, &serde_json::to_vec(&plain)?)
        }
        forward!(size);
    }
}

/// The reference's snapshot layout.
#[derive(serde::Serialize, serde::Deserialize)]
struct Plain<K> {
    watermark: Option<u64>,
    open: Vec<(solution05::Window, K, i64, u64)>,
}

/// A snapshot with one map entry per key.
#[derive(serde::Serialize, serde::Deserialize)]
struct ByKey<K: Ord> {
    watermark: Option<u64>,
    by_key: std::collections::BTreeMap<K, Vec<(solution05::Window, i64, u64)>>,
}

wrapped! {
    /// **Mistake:** a result whose sum is 0 says nothing, so it is left out.
    /// **Verdict:** `contract` fails: `a@3=0, W(5)` fires no result for `a`: the window
    /// of a key with records did not fire (05-R2).
    zero_sum_dropped, ZeroSumDropped, ZeroSumDroppedOperator {
        forward!(record);
        pub fn on_watermark(&mut self, wm: Timestamp) -> Vec<WindowResult<K>> {
            self.fwd_watermark(wm).into_iter().filter(|r| r.sum != 0).collect()
        }
        forward!(snapshot);
        forward!(size);
    }
}

wrapped! {
    /// **Mistake:** the watermark is kept in the snapshot as a plain number, 0 standing
    /// for "none". **Verdict:** `contract` fails: after `W(0)` and a restore,
    /// `current_watermark()` is `None` (05-R15).
    zero_watermark_is_none, ZeroWatermarkIsNone, ZeroWatermarkIsNoneOperator {
        forward!(record);
        forward!(watermark);
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            let mut plain: super::Plain<K> = serde_json::from_slice(&self.inner.snapshot()?)?;
            plain.watermark = plain.watermark.filter(|wm| *wm != 0);
            Ok(serde_json::to_vec(&plain)?)
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            Self::fwd_restore(assigner, bytes)
        }
        forward!(size);
    }
}

wrapped! {
    /// **Mistake:** `state_size()` counts the keys that hold something, not the
    /// `(window, key)` aggregates. **Verdict:** `state` fails: a sliding record in three
    /// windows counts once (05-R5).
    counts_keys, CountsKeys, CountsKeysOperator {
        forward!(record);
        forward!(watermark);
        forward!(snapshot);
        pub fn state_size(&self) -> usize {
            let plain: super::Plain<K> =
                serde_json::from_slice(&self.inner.snapshot().unwrap_or_default()).unwrap();
            let keys: std::collections::BTreeSet<K> = plain.open.into_iter().map(|e| e.1).collect();
            keys.len()
        }
    }
}

wrapped! {
    /// **Mistake:** a record is late as soon as one of its windows has fired.
    /// **Verdict:** `lateness` fails: a sliding record behind the watermark with windows
    /// still open is returned as late (05-R7).
    late_if_any_fired, LateIfAnyFired, LateIfAnyFiredOperator {
        pub fn on_record(&mut self, key: K, ts: Timestamp, value: i64) -> Option<Late<K>> {
            let wm = self.inner.current_watermark();
            if self.assigner.assign(ts).iter().any(|w| wm.is_some_and(|wm| w.end - 1 <= wm)) {
                return Some(Late(Event::new(ts, (key, value))));
            }
            self.fwd_record(key, ts, value)
        }
        forward!(watermark);
        forward!(snapshot);
        forward!(size);
    }
}

/// **Mistake:** the late records of `window_sums` sorted by timestamp, as the results
/// are ordered. **Verdict:** `window-sums` fails: two late records that arrived out of
/// time order come back in time order (05-R17).
mod late_sorted_by_time {
    pub use solution05::*;
    pub fn window_sums<K: Ord + Clone, A: WindowAssigner>(
        elements: &[StreamElement<KeyedEvent<K>>],
        assigner: A,
    ) -> (Vec<WindowResult<K>>, Vec<KeyedEvent<K>>) {
        let (fired, mut late) = solution05::window_sums(elements, assigner);
        late.sort_by_key(|e| e.ts);
        (fired, late)
    }
}
graders::impl_stage05!(
    LateSortedByTime,
    LateSortedByTimeOperator,
    late_sorted_by_time
);

/// **Mistake:** sliding windows collected walking back from the latest start, and not
/// reversed. **Verdict:** `assign` fails: `Sliding::new(3, 1).assign(2)` starts with
/// `[2, 5)` (05-R8).
mod sliding_newest_first {
    pub use solution05::*;
    #[derive(Clone, Copy)]
    pub struct Sliding(solution05::Sliding);
    impl Sliding {
        pub fn new(size: Timestamp, slide: Timestamp) -> anyhow::Result<Self> {
            Ok(Self(solution05::Sliding::new(size, slide)?))
        }
    }
    impl WindowAssigner for Sliding {
        fn assign(&self, ts: Timestamp) -> Vec<Window> {
            let mut windows = self.0.assign(ts);
            windows.reverse();
            windows
        }
    }
}
graders::impl_stage05!(
    SlidingNewestFirst,
    SlidingNewestFirstOperator,
    sliding_newest_first
);

/// Every mutant of this file, the check that must reject it, the requirement its smallest
/// failing case must name, and the misconception card its report shows. No card where the
/// first failure is another card's (a watermark of 0 lost in the snapshot reads as a
/// snapshot without the watermark; late once one window fired, as late by timestamp), nor
/// for a slip (windows collected newest first).
#[rstest]
#[case::no_watermark_is_zero(drive::<NoWatermarkIsZero>, "contract", "05-R7", Some("05-no-watermark-is-zero"))]
#[case::restore_empty_fresh(drive::<RestoreEmptyFresh>, "contract", "05-R16", Some("05-unreadable-snapshot-is-fresh"))]
#[case::keyed_by_k(drive::<KeyedByK>, "crash", "05-R15", Some("05-json-maps-take-any-key"))]
#[case::zero_sum_dropped(drive::<ZeroSumDropped>, "contract", "05-R2", Some("05-zero-sums-say-nothing"))]
#[case::zero_watermark_is_none(drive::<ZeroWatermarkIsNone>, "contract", "05-R15", None)]
#[case::late_if_any_fired(drive::<LateIfAnyFired>, "lateness", "05-R7", None)]
#[case::counts_keys(drive::<CountsKeys>, "state", "05-R5", Some("05-state-counts-keys"))]
#[case::late_sorted_by_time(drive::<LateSortedByTime>, "window-sums", "05-R17", Some("05-late-records-in-time-order"))]
#[case::sliding_newest_first(drive::<SlidingNewestFirst>, "assign", "05-R8", None)]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report = graders::harness::expect_rejected_for::<Windows>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}

/// Mutants whose smallest cases look like another mistake's card: sliding windows
/// assigned newest first are the right windows in the wrong order, where
/// `05-size-over-slide-windows` and `05-one-window-per-record` get the windows wrong; a
/// record called late once one of its windows fired is called late behind the watermark,
/// as `05-late-by-timestamp`'s is, but only where one of its windows fired; a watermark of
/// 0 lost in the snapshot (kept as a number, 0 for "none") is a restored `None`, as a
/// snapshot without the watermark gives (`05-watermark-is-not-state`). No card may be
/// shown for them.
#[rstest]
#[case::sliding_newest_first(drive::<SlidingNewestFirst>, "assign", "05-R8")]
#[case::late_if_any_fired(drive::<LateIfAnyFired>, "lateness", "05-R7")]
#[case::zero_watermark_is_none(drive::<ZeroWatermarkIsNone>, "contract", "05-R15")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Windows>(drive, check, requirement);
}

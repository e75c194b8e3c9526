//! Stage 05 mutants: windows fired at the wrong watermark, twice or never purged,
//! sliding records in one window, late records counted, the watermark left out of the
//! snapshot, and the batch answer without watermarks.

use graders::stage05::{Windows, drive};

use crate::{accepted, rejected};

/// What a window operator does with a window once it has fired.
#[allow(dead_code)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum OnFire {
    /// Drop its state (right).
    Purge,
    /// Keep its state, marked as fired so that it does not fire again.
    Mark,
    /// Keep its state, unmarked.
    Nothing,
}

/// A `WindowOperator` built from hooks, the reference's behaviour being
/// `window_operator!(|end, wm| end - 1 <= wm, true, |_, _, counted| !counted, OnFire::Purge, true)`:
/// - `$due(end, wm)`: whether the watermark has reached the window;
/// - `$skip_fired`: whether `on_record` leaves out windows that are due;
/// - `$late(ts, watermark, counted)`: whether the record is returned as late (a late
///   record is then counted nowhere);
/// - `$on_fire`: what happens to a fired window's state;
/// - `$keep_watermark`: whether the snapshot holds the current watermark.
macro_rules! window_operator {
    ($due:expr, $skip_fired:expr, $late:expr, $on_fire:expr, $keep_watermark:expr) => {
        use std::collections::{BTreeMap, BTreeSet};

        #[derive(serde::Serialize, serde::Deserialize)]
        struct Snapshot<K> {
            watermark: Option<u64>,
            open: Vec<(Window, K, i64, u64)>,
            fired: Vec<Window>,
        }

        pub struct WindowOperator<K, A> {
            assigner: A,
            open: BTreeMap<Window, BTreeMap<K, (i64, u64)>>,
            fired: BTreeSet<Window>,
            watermark: Option<u64>,
        }

        impl<K, A> WindowOperator<K, A>
        where
            K: Ord + Clone + serde::Serialize + serde::de::DeserializeOwned,
            A: WindowAssigner,
        {
            fn due(&self, window: Window) -> bool {
                let due: fn(u64, u64) -> bool = $due;
                self.watermark.is_some_and(|wm| due(window.end, wm))
            }
            pub fn new(assigner: A) -> Self {
                Self {
                    assigner,
                    open: BTreeMap::new(),
                    fired: BTreeSet::new(),
                    watermark: None,
                }
            }
            pub fn on_record(&mut self, key: K, ts: u64, value: i64) -> Option<Late<K>> {
                let windows: Vec<Window> = self
                    .assigner
                    .assign(ts)
                    .into_iter()
                    .filter(|w| !($skip_fired && self.due(*w)))
                    .collect();
                let late: fn(u64, Option<u64>, bool) -> bool = $late;
                if late(ts, self.watermark, !windows.is_empty()) {
                    return Some(Late(Event::new(ts, (key, value))));
                }
                for window in windows {
                    let a = self
                        .open
                        .entry(window)
                        .or_default()
                        .entry(key.clone())
                        .or_default();
                    a.0 += value;
                    a.1 += 1;
                }
                None
            }
            pub fn on_watermark(&mut self, wm: u64) -> Vec<WindowResult<K>> {
                if self.watermark.is_some_and(|current| wm <= current) {
                    return Vec::new();
                }
                self.watermark = Some(wm);
                let due: Vec<Window> = self
                    .open
                    .keys()
                    .copied()
                    .filter(|w| self.due(*w) && !self.fired.contains(w))
                    .collect();
                let mut out = Vec::new();
                for window in due {
                    let per_key = match $on_fire {
                        OnFire::Purge => self.open.remove(&window).unwrap_or_default(),
                        OnFire::Mark => {
                            self.fired.insert(window);
                            self.open[&window].clone()
                        }
                        OnFire::Nothing => self.open[&window].clone(),
                    };
                    out.extend(per_key.into_iter().map(|(key, (sum, count))| WindowResult {
                        key,
                        window,
                        sum,
                        count,
                    }));
                }
                out
            }
            pub fn state_size(&self) -> usize {
                self.open.values().map(BTreeMap::len).sum()
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                let open = self
                    .open
                    .iter()
                    .flat_map(|(w, m)| m.iter().map(|(k, a)| (*w, k.clone(), a.0, a.1)))
                    .collect();
                let watermark = if $keep_watermark {
                    self.watermark
                } else {
                    None
                };
                let fired = self.fired.iter().copied().collect();
                Ok(serde_json::to_vec(&Snapshot {
                    watermark,
                    open,
                    fired,
                })?)
            }
            pub fn restore(assigner: A, bytes: &[u8]) -> anyhow::Result<Self> {
                let snapshot: Snapshot<K> = serde_json::from_slice(bytes)?;
                let mut op = Self::new(assigner);
                op.watermark = snapshot.watermark;
                op.fired = snapshot.fired.into_iter().collect();
                for (w, k, sum, count) in snapshot.open {
                    op.open.entry(w).or_default().insert(k, (sum, count));
                }
                Ok(op)
            }
        }

        pub fn window_sums<K, A>(
            elements: &[StreamElement<KeyedEvent<K>>],
            assigner: A,
        ) -> (Vec<WindowResult<K>>, Vec<KeyedEvent<K>>)
        where
            K: Ord + Clone + serde::Serialize + serde::de::DeserializeOwned,
            A: WindowAssigner,
        {
            let mut operator = WindowOperator::new(assigner);
            let (mut fired, mut late) = (Vec::new(), Vec::new());
            for element in elements {
                match element {
                    StreamElement::Record(e) => late.extend(
                        operator
                            .on_record(e.value.0.clone(), e.ts, e.value.1)
                            .map(|l| l.0),
                    ),
                    StreamElement::Watermark(wm) => fired.extend(operator.on_watermark(*wm)),
                }
            }
            (fired, late)
        }
    };
}

/// The reference's hooks, to check that the scaffolding itself passes.
mod hooks_as_reference {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end - 1 <= wm,
        true,
        |_, _, counted| !counted,
        OnFire::Purge,
        true
    );
}
graders::impl_stage05!(
    HooksAsReference,
    HooksAsReferenceOperator,
    hooks_as_reference
);

accepted!(the_mutant_scaffolding_passes_with_the_reference_hooks: Windows, drive::<HooksAsReference>);

/// **Mistake:** a window fires when the watermark reaches its `end` rather than its last
/// timestamp `end - 1` (`end <= wm`): one watermark too late.
/// **Verdict:** `firing` fails: with `Sliding::new(3, 1)`, window `[1, 4)` does not fire
/// at `W(3)`, the call where `3 >= end - 1` first holds.
mod fires_at_end {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end <= wm,
        true,
        |_, _, counted| !counted,
        OnFire::Purge,
        true
    );
}
graders::impl_stage05!(FiresAtEnd, FiresAtEndOperator, fires_at_end);
rejected!(fires_at_end_is_rejected: Windows, drive::<FiresAtEnd> => "firing");

/// **Mistake:** firing emits a window's results but neither drops nor marks the window, so
/// every later watermark fires it again.
/// **Verdict:** `firing` fails: the final `W(MAX)` fires a window that already fired.
mod fires_twice {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end - 1 <= wm,
        true,
        |_, _, counted| !counted,
        OnFire::Nothing,
        true
    );
}
graders::impl_stage05!(FiresTwice, FiresTwiceOperator, fires_twice);
rejected!(fires_twice_is_rejected: Windows, drive::<FiresTwice> => "firing");

/// **Mistake:** a fired window is only marked as fired, its aggregates are never dropped:
/// results are right, but state grows forever.
/// **Verdict:** `state` fails: after the final watermark `state_size()` is not 0.
mod never_purges {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end - 1 <= wm,
        true,
        |_, _, counted| !counted,
        OnFire::Mark,
        true
    );
}
graders::impl_stage05!(NeverPurges, NeverPurgesOperator, never_purges);
rejected!(never_purges_is_rejected: Windows, drive::<NeverPurges> => "state");

/// **Mistake:** `on_record` ignores the watermark: a record whose windows all fired
/// recreates them (counted, never reported late), and they fire again.
/// **Verdict:** `lateness` fails: a record behind every fired window is not returned as
/// `Late`.
mod counts_late_records {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end - 1 <= wm,
        false,
        |_, _, _| false,
        OnFire::Purge,
        true
    );
}
graders::impl_stage05!(
    CountsLateRecords,
    CountsLateRecordsOperator,
    counts_late_records
);
rejected!(counts_late_records_is_rejected: Windows, drive::<CountsLateRecords> => "lateness");

/// **Mistake:** stage 04's rule used for windows: a record is late as soon as
/// `ts <= watermark`, even when one of its (sliding or longer) windows is still open.
/// **Verdict:** `lateness` fails: a record behind the watermark whose window has not
/// fired is returned as `Late` instead of counted.
mod late_by_timestamp {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end - 1 <= wm,
        true,
        |ts, wm, counted| !counted || wm.is_some_and(|wm| ts <= wm),
        OnFire::Purge,
        true
    );
}
graders::impl_stage05!(LateByTimestamp, LateByTimestampOperator, late_by_timestamp);
rejected!(late_by_timestamp_is_rejected: Windows, drive::<LateByTimestamp> => "lateness");

/// **Mistake:** the snapshot holds the open windows but not the current watermark: a
/// restored operator takes a late record into a window that already fired, and fires it
/// again.
/// **Verdict:** `crash` fails: after the restore, a record the uninterrupted run reports
/// as late is counted.
mod watermark_not_in_snapshot {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end - 1 <= wm,
        true,
        |_, _, counted| !counted,
        OnFire::Purge,
        false
    );
}
graders::impl_stage05!(
    WatermarkNotInSnapshot,
    WatermarkNotInSnapshotOperator,
    watermark_not_in_snapshot
);
rejected!(watermark_not_in_snapshot_is_rejected: Windows, drive::<WatermarkNotInSnapshot> => "crash");

/// **Mistake:** a sliding record goes to one window only, the latest one that contains
/// it, as if sliding windows were tumbling windows shifted by the slide.
/// **Verdict:** `assign` fails: `Sliding::new(3, 1).assign(1)` is `[[1, 4)]` instead of
/// `[[0, 3), [1, 4)]`.
mod sliding_one_window {
    pub use solution05::*;

    #[derive(Debug, Clone, Copy)]
    pub struct Sliding(solution05::Sliding);
    impl Sliding {
        pub fn new(size: u64, slide: u64) -> anyhow::Result<Self> {
            Ok(Self(solution05::Sliding::new(size, slide)?))
        }
    }
    impl WindowAssigner for Sliding {
        fn assign(&self, ts: u64) -> Vec<Window> {
            self.0.assign(ts).pop().into_iter().collect()
        }
    }
}
graders::impl_stage05!(
    SlidingOneWindow,
    SlidingOneWindowOperator,
    sliding_one_window
);
rejected!(sliding_one_window_is_rejected: Windows, drive::<SlidingOneWindow> => "assign");

/// **Mistake (the shortcut):** `window_sums` groups every record by key and window, the
/// batch answer, without running the operator: no watermark fires anything, and no
/// record is ever late.
/// **Verdict:** `window-sums` fails: a late record is counted in a window result.
mod batch_window_sums {
    pub use solution05::*;

    pub fn window_sums<K: Ord + Clone, A: WindowAssigner>(
        elements: &[StreamElement<KeyedEvent<K>>],
        assigner: A,
    ) -> (Vec<WindowResult<K>>, Vec<KeyedEvent<K>>) {
        let mut groups: std::collections::BTreeMap<(Window, K), (i64, u64)> = Default::default();
        for element in elements {
            if let StreamElement::Record(e) = element {
                for window in assigner.assign(e.ts) {
                    let g = groups.entry((window, e.value.0.clone())).or_default();
                    g.0 += e.value.1;
                    g.1 += 1;
                }
            }
        }
        let fired = groups
            .into_iter()
            .map(|((window, key), (sum, count))| WindowResult {
                key,
                window,
                sum,
                count,
            })
            .collect();
        (fired, Vec::new())
    }
}
graders::impl_stage05!(BatchWindowSums, BatchWindowSumsOperator, batch_window_sums);
rejected!(batch_window_sums_is_rejected: Windows, drive::<BatchWindowSums> => "window-sums");

/// **Mistake:** `Sliding::new` only refuses a slide of 0, so a slide larger than the size
/// (gaps between windows) is accepted: a record in a gap belongs to no window and is
/// silently never counted nor reported late.
/// **Verdict:** `errors` fails: `Sliding::new(2, 3)` returns `Ok`.
mod slide_beyond_size_accepted {
    pub use solution05::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Sliding {
        size: Timestamp,
        slide: Timestamp,
    }

    impl Sliding {
        pub fn new(size: Timestamp, slide: Timestamp) -> anyhow::Result<Self> {
            anyhow::ensure!(size > 0, "size must be at least 1, got 0");
            anyhow::ensure!(slide > 0, "slide must be at least 1, got 0");
            Ok(Self { size, slide })
        }
    }

    impl WindowAssigner for Sliding {
        fn assign(&self, ts: Timestamp) -> Vec<Window> {
            let last_start = ts - ts % self.slide;
            let mut starts: Vec<Timestamp> =
                std::iter::successors(Some(last_start), |s| s.checked_sub(self.slide))
                    .take_while(|s| s + self.size > ts)
                    .collect();
            starts.reverse();
            starts
                .into_iter()
                .map(|start| Window {
                    start,
                    end: start + self.size,
                })
                .collect()
        }
    }
}
graders::impl_stage05!(
    SlideBeyondSize,
    SlideBeyondSizeOperator,
    slide_beyond_size_accepted
);
rejected!(slide_beyond_size_accepted_is_rejected: Windows, drive::<SlideBeyondSize> => "errors");

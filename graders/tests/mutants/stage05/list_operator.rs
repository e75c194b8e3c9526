//! A correct but unusual stage-05 operator the grader must accept: no map at all, the
//! aggregates in one unsorted list, sorted only when a watermark fires them; its snapshot
//! a list with the watermark last, and error messages of its own.

use graders::stage05::{Windows, drive};

use crate::accepted;

mod list_based {
    use anyhow::{Context, Result};
    use serde::{Serialize, de::DeserializeOwned};
    pub use solution05::{
        Event, KeyedEvent, Late, Sliding, StreamElement, Timestamp, Tumbling, Window,
        WindowAssigner, WindowResult,
    };

    /// `(window, key, sum, count)` in arrival order; sorted on firing.
    pub struct WindowOperator<K, A> {
        assigner: A,
        open: Vec<(Window, K, i64, u64)>,
        watermark: Option<Timestamp>,
    }

    impl<K: Ord + Clone, A: WindowAssigner> WindowOperator<K, A> {
        pub fn new(assigner: A) -> Self {
            Self {
                assigner,
                open: Vec::new(),
                watermark: None,
            }
        }
        fn fired(&self, w: &Window) -> bool {
            matches!(self.watermark, Some(wm) if w.end.saturating_sub(1) <= wm)
        }
        pub fn on_record(&mut self, key: K, ts: Timestamp, value: i64) -> Option<Late<K>> {
            let windows: Vec<Window> = self
                .assigner
                .assign(ts)
                .into_iter()
                .filter(|w| !self.fired(w))
                .collect();
            if windows.is_empty() {
                return Some(Late(Event::new(ts, (key, value))));
            }
            for w in windows {
                match self.open.iter_mut().find(|e| e.0 == w && e.1 == key) {
                    Some(e) => {
                        e.2 += value;
                        e.3 += 1;
                    }
                    None => self.open.push((w, key.clone(), value, 1)),
                }
            }
            None
        }
        pub fn on_watermark(&mut self, wm: Timestamp) -> Vec<WindowResult<K>> {
            if self.watermark.is_some_and(|current| current >= wm) {
                return Vec::new();
            }
            self.watermark = Some(wm);
            let (mut due, open): (Vec<_>, Vec<_>) = std::mem::take(&mut self.open)
                .into_iter()
                .partition(|e| e.0.end.saturating_sub(1) <= wm);
            self.open = open;
            due.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
            due.into_iter()
                .map(|(window, key, sum, count)| WindowResult {
                    key,
                    window,
                    sum,
                    count,
                })
                .collect()
        }
        pub fn state_size(&self) -> usize {
            self.open.len()
        }
        pub fn current_watermark(&self) -> Option<Timestamp> {
            self.watermark
        }
    }

    impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner> WindowOperator<K, A> {
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            Ok(serde_json::to_vec(&(&self.open, self.watermark))?)
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            let (open, watermark): (Vec<(Window, K, i64, u64)>, _) = serde_json::from_slice(bytes)
                .context("these bytes were not written by WindowOperator::snapshot")?;
            let operator = Self {
                assigner,
                open: Vec::new(),
                watermark,
            };
            for (i, (window, key, _, count)) in open.iter().enumerate() {
                let repeated = open[..i].iter().any(|e| e.0 == *window && e.1 == *key);
                anyhow::ensure!(
                    *count > 0 && !operator.fired(window) && !repeated,
                    "these bytes hold an aggregate no operator holds"
                );
            }
            Ok(Self { open, ..operator })
        }
    }

    pub fn window_sums<K: Ord + Clone, A: WindowAssigner>(
        elements: &[StreamElement<KeyedEvent<K>>],
        assigner: A,
    ) -> (Vec<WindowResult<K>>, Vec<KeyedEvent<K>>) {
        let mut operator = WindowOperator::new(assigner);
        let (mut fired, mut late) = (Vec::new(), Vec::new());
        for element in elements {
            match element {
                StreamElement::Record(e) => {
                    let (key, value) = e.value.clone();
                    late.extend(operator.on_record(key, e.ts, value).map(|l| l.0));
                }
                StreamElement::Watermark(wm) => fired.extend(operator.on_watermark(*wm)),
            }
        }
        (fired, late)
    }
}
graders::impl_stage05!(ListOperator, ListOperatorOperator, list_based);
accepted!(an_operator_over_one_unsorted_list_passes: Windows, drive::<ListOperator>);

//! The window operator of the stage-05 mutants, built from hooks, so that each mutant
//! differs from the reference in exactly one hook.

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
            pub fn current_watermark(&self) -> Option<u64> {
                self.watermark
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
                // A purged window is never open once due: only then is one so forged.
                let purges = $skip_fired && matches!($on_fire, OnFire::Purge);
                for (w, k, sum, count) in snapshot.open {
                    anyhow::ensure!(count > 0, "an aggregate of no record");
                    anyhow::ensure!(!(purges && op.due(w)), "an open window that fired");
                    let twice = op.open.entry(w).or_default().insert(k, (sum, count));
                    anyhow::ensure!(twice.is_none(), "an aggregate listed twice");
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

//! A window operator written from the brief, with one [`Flaw`] switched on per mutant:
//! the contract-edge mistakes of stage 05 (how an aggregate adds up, what "fired" means,
//! what `Late` carries, which watermark counts, what a bad snapshot gives, when
//! `window_sums` stops), each differing from the right operator in exactly one place.

/// The one mistake an operator of [`flawed_operator!`] makes.
#[allow(dead_code)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flaw {
    /// None: the control.
    None,
    /// A record of a key replaces the key's aggregate instead of adding to it.
    ReplacesAggregate,
    /// "Fired" is a fact about the state: only windows that emitted results have fired.
    FiredOnlyWithState,
    /// A late record is returned as late, and counted all the same.
    LateAndCounted,
    /// `state_size()` counts windows, not `(window, key)` aggregates.
    CountsWindows,
    /// `Late` carries the current watermark as the record's timestamp.
    LateAtWatermark,
    /// The first watermark counts only if it is above 0 (`wm > current.unwrap_or(0)`).
    FirstZeroIgnored,
    /// The results of one call are ordered by key, then window.
    ByKeyThenWindow,
    /// A watermark that does not advance still becomes the current one.
    StaleRegresses,
    /// `restore` of bytes it cannot read gives an empty operator.
    GarbageIsEmpty,
    /// `window_sums` fires every open window once the elements are done.
    FlushesAtEnd,
    /// `window_sums` drops a late record equal to the one before it.
    LateDeduplicated,
    /// The sum is added up in an `i32`.
    SumInI32,
    /// A record with one window still open is counted in every window it has, the fired
    /// ones too.
    PartlyLateCountsAll,
    /// The keys of a window come out in the order they first arrived, not by key.
    KeysInArrivalOrder,
    /// "Fired", for lateness, is read as `end <= wm`, one timestamp after the firing.
    LateFromTheEnd,
    /// A late record is dropped: counted nowhere, and `None` returned.
    DropsLate,
    /// The count of an aggregate is kept in a `u8` (a panic at its 256th record).
    CountInU8,
    /// The due windows are gathered newest first, then put in order by an unstable sort
    /// on the window alone, which may reorder the keys of a window.
    SortedUnstableByWindow,
    /// The count of an aggregate is kept in a `u16` (a panic at its 65,536th record).
    CountInU16,
    /// The sum is added up in an `f64`, which holds no integer past 2^53 exactly.
    SumInF64,
    /// `restore` reads each count as an `i64`, refuses 0, and casts it `as u64`: -1
    /// becomes `u64::MAX`.
    CountReadSigned,
    /// `restore` reads each count as a `u128`, refuses 0, and casts it `as u64`: 2^64
    /// becomes 0, 2^64 + 1 becomes 1.
    CountReadWide,
    /// The number of aggregates is a counter kept beside them, written into the snapshot
    /// and taken from it by `restore`.
    SizeCounterTrusted,
    /// `restore` refuses an aggregate of count 0 only when its sum is not 0: (0, 0) is
    /// taken for an empty aggregate, and kept.
    CountZeroRefusedOnlyWithASum,
    /// The count of an aggregate is kept in a `u32`: `restore` reads it as one, and
    /// `on_record` adds one to it as one (a panic past 2^32 - 1).
    CountInU32,
    /// `restore` reads each count as an `i64` and refuses one below 1: a count past
    /// `i64::MAX` does not restore.
    CountInI64,
    /// `restore` asks whether a window fired with `end - 1`, unchecked: a window ending
    /// at 0 panics.
    FiredByEndUnchecked,
    /// The snapshot is text: a line for the watermark, then one per aggregate of its
    /// fields and the key's JSON, split on spaces: a key with a space does not come back.
    LinesSplitOnSpaces,
    /// `restore` refuses a window that holds no timestamp (`start >= end`), though
    /// `[u64::MAX, u64::MAX)` is the operator's own window of a record at `u64::MAX`
    /// under a size that divides `u64::MAX`.
    EmptyWindowRefused,
}

macro_rules! flawed_operator {
    ($flaw:expr) => {
        use std::collections::{BTreeMap, BTreeSet};

        const FLAW: Flaw = $flaw;

        #[derive(serde::Serialize, serde::Deserialize)]
        struct Snapshot<K> {
            watermark: Option<u64>,
            open: Vec<(Window, K, i64, u64)>,
            emitted: Vec<Window>,
            /// The counter of aggregates (written by `SizeCounterTrusted` only).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            size: Option<usize>,
        }

        /// The snapshot as `CountReadSigned` and `CountReadWide` read it: each count of
        /// type `C`, cast `as u64` after it.
        #[derive(serde::Deserialize)]
        struct WideSnapshot<K, C> {
            watermark: Option<u64>,
            open: Vec<(Window, K, i64, C)>,
            emitted: Vec<Window>,
        }

        impl<K> Snapshot<K> {
            /// `bytes` read with every count of type `C`, refused at 0 and cast to a `u64`
            /// (refused where the cast says `None`).
            fn read_counts_as<C>(bytes: &[u8], cast: fn(C) -> Option<u64>) -> anyhow::Result<Self>
            where
                K: serde::de::DeserializeOwned,
                C: serde::de::DeserializeOwned + Default + PartialEq,
            {
                let wide: WideSnapshot<K, C> = serde_json::from_slice(bytes)?;
                let mut open = Vec::new();
                for (w, k, sum, count) in wide.open {
                    anyhow::ensure!(
                        count != C::default(),
                        "not a snapshot: an aggregate of no record"
                    );
                    let count = cast(count)
                        .ok_or_else(|| anyhow::anyhow!("not a snapshot: a count out of range"))?;
                    open.push((w, k, sum, count));
                }
                Ok(Snapshot {
                    watermark: wide.watermark,
                    open,
                    emitted: wide.emitted,
                    size: None,
                })
            }
        }

        pub struct WindowOperator<K, A> {
            assigner: A,
            open: BTreeMap<Window, BTreeMap<K, (i64, u64)>>,
            watermark: Option<u64>,
            /// The windows that emitted results (read by `FiredOnlyWithState` only).
            emitted: BTreeSet<Window>,
            /// Each window's keys in the order they arrived (read by `KeysInArrivalOrder`
            /// only; not snapshotted, so a restored operator falls back to key order).
            arrivals: BTreeMap<Window, Vec<K>>,
            /// The aggregates counted as they open and fire (read by `SizeCounterTrusted`
            /// only).
            size: usize,
        }

        impl<K, A> WindowOperator<K, A>
        where
            K: Ord + Clone + serde::Serialize + serde::de::DeserializeOwned,
            A: WindowAssigner,
        {
            fn fired(&self, window: &Window) -> bool {
                if FLAW == Flaw::FiredOnlyWithState {
                    return self.emitted.contains(window);
                }
                if FLAW == Flaw::LateFromTheEnd {
                    return self.watermark.is_some_and(|wm| window.end <= wm);
                }
                self.watermark
                    .is_some_and(|wm| window.end.saturating_sub(1) <= wm)
            }
            pub fn new(assigner: A) -> Self {
                Self {
                    assigner,
                    open: BTreeMap::new(),
                    watermark: None,
                    emitted: BTreeSet::new(),
                    arrivals: BTreeMap::new(),
                    size: 0,
                }
            }
            pub fn on_record(&mut self, key: K, ts: u64, value: i64) -> Option<Late<K>> {
                let all = self.assigner.assign(ts);
                let open: Vec<Window> = all.iter().copied().filter(|w| !self.fired(w)).collect();
                let late = open.is_empty();
                let into = match FLAW {
                    Flaw::LateAndCounted => all,
                    Flaw::PartlyLateCountsAll if !late => all,
                    _ => open,
                };
                for window in into {
                    let per_key = self.open.entry(window).or_default();
                    if !per_key.contains_key(&key) {
                        self.size += 1;
                    }
                    let a = per_key.entry(key.clone()).or_default();
                    let arrived = self.arrivals.entry(window).or_default();
                    if !arrived.contains(&key) {
                        arrived.push(key.clone());
                    }
                    if FLAW == Flaw::ReplacesAggregate {
                        *a = (value, 1);
                    } else if FLAW == Flaw::SumInI32 {
                        a.0 = i64::from((a.0 as i32).wrapping_add(value as i32));
                        a.1 += 1;
                    } else if FLAW == Flaw::CountInU8 {
                        let count = a.1 as u8;
                        a.0 += value;
                        a.1 = u64::from(count + 1);
                    } else if FLAW == Flaw::CountInU16 {
                        let count = a.1 as u16;
                        a.0 += value;
                        a.1 = u64::from(count + 1);
                    } else if FLAW == Flaw::CountInU32 {
                        let count = a.1 as u32;
                        a.0 += value;
                        a.1 = u64::from(count + 1);
                    } else if FLAW == Flaw::SumInF64 {
                        a.0 = (a.0 as f64 + value as f64) as i64;
                        a.1 += 1;
                    } else {
                        a.0 += value;
                        a.1 += 1;
                    }
                }
                let at = match (FLAW, self.watermark) {
                    (Flaw::LateAtWatermark, Some(wm)) => wm,
                    _ => ts,
                };
                (late && FLAW != Flaw::DropsLate).then(|| Late(Event::new(at, (key, value))))
            }
            pub fn on_watermark(&mut self, wm: u64) -> Vec<WindowResult<K>> {
                let advances = if FLAW == Flaw::FirstZeroIgnored {
                    wm > self.watermark.unwrap_or(0)
                } else {
                    self.watermark.is_none_or(|current| wm > current)
                };
                if !advances {
                    if FLAW == Flaw::StaleRegresses {
                        self.watermark = Some(wm);
                    }
                    return Vec::new();
                }
                self.watermark = Some(wm);
                let due: Vec<Window> = self
                    .open
                    .keys()
                    .copied()
                    .filter(|w| w.end.saturating_sub(1) <= wm)
                    .collect();
                let mut out = Vec::new();
                let due: Vec<Window> = if FLAW == Flaw::SortedUnstableByWindow {
                    due.into_iter().rev().collect()
                } else {
                    due
                };
                for window in due {
                    let mut per_key: Vec<(K, (i64, u64))> = self
                        .open
                        .remove(&window)
                        .unwrap_or_default()
                        .into_iter()
                        .collect();
                    self.size -= per_key.len();
                    let arrived = self.arrivals.remove(&window).unwrap_or_default();
                    if FLAW == Flaw::KeysInArrivalOrder {
                        per_key.sort_by_key(|(k, _)| arrived.iter().position(|a| a == k));
                    }
                    self.emitted.insert(window);
                    out.extend(per_key.into_iter().map(|(key, (sum, count))| WindowResult {
                        key,
                        window,
                        sum,
                        count,
                    }));
                }
                if FLAW == Flaw::ByKeyThenWindow {
                    out.sort_by(|a, b| a.key.cmp(&b.key).then(a.window.cmp(&b.window)));
                }
                if FLAW == Flaw::SortedUnstableByWindow {
                    out.sort_unstable_by_key(|r| r.window);
                }
                out
            }
            pub fn current_watermark(&self) -> Option<u64> {
                self.watermark
            }
            pub fn state_size(&self) -> usize {
                if FLAW == Flaw::CountsWindows {
                    return self.open.len();
                }
                if FLAW == Flaw::SizeCounterTrusted {
                    return self.size;
                }
                self.open.values().map(BTreeMap::len).sum()
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                if FLAW == Flaw::LinesSplitOnSpaces {
                    return lines::write(self.watermark, &self.open);
                }
                let open = self
                    .open
                    .iter()
                    .flat_map(|(w, m)| m.iter().map(|(k, a)| (*w, k.clone(), a.0, a.1)))
                    .collect();
                Ok(serde_json::to_vec(&Snapshot {
                    watermark: self.watermark,
                    open,
                    emitted: self.emitted.iter().copied().collect(),
                    size: (FLAW == Flaw::SizeCounterTrusted).then_some(self.size),
                })?)
            }
            pub fn restore(assigner: A, bytes: &[u8]) -> anyhow::Result<Self> {
                let read = match FLAW {
                    Flaw::CountReadSigned => {
                        Snapshot::read_counts_as(bytes, |c: i64| Some(c as u64))
                    }
                    Flaw::CountReadWide => {
                        Snapshot::read_counts_as(bytes, |c: u128| Some(c as u64))
                    }
                    Flaw::CountInU32 => {
                        Snapshot::read_counts_as(bytes, |c: u32| Some(u64::from(c)))
                    }
                    Flaw::CountInI64 => {
                        Snapshot::read_counts_as(bytes, |c: i64| u64::try_from(c).ok())
                    }
                    Flaw::LinesSplitOnSpaces => {
                        lines::read(bytes).map(|(watermark, open)| Snapshot {
                            watermark,
                            open,
                            emitted: Vec::new(),
                            size: None,
                        })
                    }
                    _ => serde_json::from_slice(bytes).map_err(anyhow::Error::from),
                };
                let snapshot: Snapshot<K> = match read {
                    Ok(snapshot) => snapshot,
                    Err(_) if FLAW == Flaw::GarbageIsEmpty => Snapshot {
                        watermark: None,
                        open: Vec::new(),
                        emitted: Vec::new(),
                        size: None,
                    },
                    Err(e) => anyhow::bail!("not a window-operator snapshot: {e}"),
                };
                let mut op = Self::new(assigner);
                op.watermark = snapshot.watermark;
                op.emitted = snapshot.emitted.into_iter().collect();
                for (w, k, sum, count) in snapshot.open {
                    anyhow::ensure!(
                        FLAW != Flaw::EmptyWindowRefused || w.start < w.end,
                        "not a snapshot: window {w:?} holds no timestamp"
                    );
                    let empty = FLAW == Flaw::CountZeroRefusedOnlyWithASum && sum == 0;
                    anyhow::ensure!(
                        count > 0 || empty,
                        "not a snapshot: an aggregate of no record"
                    );
                    let open = if FLAW == Flaw::FiredByEndUnchecked {
                        op.watermark.is_none_or(|wm| w.end - 1 > wm)
                    } else {
                        op.watermark
                            .is_none_or(|wm| w.end.checked_sub(1).is_some_and(|last| last > wm))
                    };
                    anyhow::ensure!(
                        open,
                        "not a snapshot: window {w:?} is open but its watermark fired it"
                    );
                    let twice = op.open.entry(w).or_default().insert(k, (sum, count));
                    anyhow::ensure!(twice.is_none(), "not a snapshot: an aggregate listed twice");
                }
                op.size = match (FLAW, snapshot.size) {
                    (Flaw::SizeCounterTrusted, Some(size)) => size,
                    _ => op.open.values().map(BTreeMap::len).sum(),
                };
                Ok(op)
            }
        }

        /// The text format of `LinesSplitOnSpaces`: `wm <n|none>`, then a line per
        /// aggregate, `start end sum count key-as-JSON`, split on spaces when read.
        #[allow(dead_code)]
        mod lines {
            use super::Window;
            use std::collections::BTreeMap;

            pub fn write<K: serde::Serialize>(
                watermark: Option<u64>,
                open: &BTreeMap<Window, BTreeMap<K, (i64, u64)>>,
            ) -> anyhow::Result<Vec<u8>> {
                let mut text = match watermark {
                    Some(wm) => format!("wm {wm}"),
                    None => "wm none".to_owned(),
                };
                for (w, per_key) in open {
                    for (key, (sum, count)) in per_key {
                        let key = serde_json::to_string(key)?;
                        text.push_str(&format!("\n{} {} {sum} {count} {key}", w.start, w.end));
                    }
                }
                Ok(text.into_bytes())
            }

            pub fn read<K: serde::de::DeserializeOwned>(
                bytes: &[u8],
            ) -> anyhow::Result<(Option<u64>, Vec<(Window, K, i64, u64)>)> {
                let text = std::str::from_utf8(bytes)?;
                let mut lines = text.split('\n');
                let watermark = match lines.next().unwrap_or_default() {
                    "wm none" => None,
                    head => Some(
                        head.strip_prefix("wm ")
                            .ok_or_else(|| anyhow::anyhow!("not a snapshot: {head:?}"))?
                            .parse()?,
                    ),
                };
                let mut open = Vec::new();
                for line in lines {
                    let fields: Vec<&str> = line.split(' ').collect();
                    let [start, end, sum, count, key] = fields[..] else {
                        anyhow::bail!("not a snapshot: {line:?}");
                    };
                    let window = Window {
                        start: start.parse()?,
                        end: end.parse()?,
                    };
                    open.push((
                        window,
                        serde_json::from_str(key)?,
                        sum.parse()?,
                        count.parse()?,
                    ));
                }
                Ok((watermark, open))
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
            if FLAW == Flaw::FlushesAtEnd {
                fired.extend(operator.on_watermark(u64::MAX));
            }
            if FLAW == Flaw::LateDeduplicated {
                late.dedup();
            }
            (fired, late)
        }
    };
}

/// A mutant module `$module` whose operator has the one flaw `$flaw`, bound as
/// `$binding` (the module that invokes it has `Flaw` in scope).
macro_rules! flawed {
    ($(#[$doc:meta])* $module:ident, $binding:ident, $operator:ident, $flaw:expr) => {
        $(#[$doc])*
        mod $module {
            use super::Flaw;
            pub use solution05::*;
            flawed_operator!($flaw);
        }
        graders::impl_stage05!($binding, $operator, $module);
    };
}

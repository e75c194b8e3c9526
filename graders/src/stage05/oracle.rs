//! What stage 05 must produce, computed from the definitions over the element sequence:
//! a model of the operator that encodes only what the brief fixes.

use std::collections::{BTreeMap, BTreeSet};

use super::{AssignerSpec, Element, Fired, LateRecord};

/// `(size, slide)` of an assigner (a tumbling window's slide is its size).
pub fn size_and_slide(spec: AssignerSpec) -> (u64, u64) {
    match spec {
        AssignerSpec::Tumbling(size) => (size, size),
        AssignerSpec::Sliding(size, slide) => (size, slide),
    }
}

/// Every window `[k slide, k slide + size)`, `k >= 0`, that contains `ts`, by start.
///
/// Computed in `u128`, so the top of `u64` is no edge: a window that would end past
/// `u64::MAX` ends there (05-R21).
pub fn windows(spec: AssignerSpec, ts: u64) -> Vec<(u64, u64)> {
    let (size, slide) = size_and_slide(spec);
    let (ts, size, slide) = (u128::from(ts), u128::from(size), u128::from(slide));
    // The first start with `start + size > ts`, up to the last with `start <= ts`.
    let first = (ts + 1).saturating_sub(size).div_ceil(slide);
    (first..=ts / slide)
        .map(|k| {
            let start = k * slide;
            (saturated(start), saturated(start + size))
        })
        .collect()
}

fn saturated(t: u128) -> u64 {
    u64::try_from(t).unwrap_or(u64::MAX)
}

/// Whether `window` is one of the assigner's, `[k slide, k slide + size)` (its end
/// saturated at `u64::MAX`).
pub fn on_grid(spec: AssignerSpec, (start, end): (u64, u64)) -> bool {
    let (size, slide) = size_and_slide(spec);
    start % slide == 0 && end == start.saturating_add(size)
}

/// What one call of the operator returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// `on_record`: the late record, if it is late.
    Late(Option<LateRecord>),
    /// `on_watermark`: the results, by window then key.
    Fired(Vec<Fired>),
}

/// The open `(window, key)` aggregates after one element.
pub type Open = BTreeSet<((u64, u64), String)>;

/// A record the model took, and whether it was late.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    /// `(key, ts, value)`.
    pub record: LateRecord,
    /// Its windows that had fired when it came.
    pub fired: Vec<(u64, u64)>,
    /// Whether all of them had.
    pub late: bool,
}

/// The operator as the brief defines it.
#[derive(Debug, Clone)]
pub struct Model {
    spec: AssignerSpec,
    /// Every (window, key, value) a record contributed and that has not fired yet.
    pending: Vec<((u64, u64), String, i64)>,
    watermark: Option<u64>,
    /// The windows that fired holding at least one aggregate.
    fired_with_records: BTreeSet<(u64, u64)>,
    /// Every record taken, in order.
    pub taken: Vec<Taken>,
    /// Every watermark that advanced, in order.
    pub advances: Vec<u64>,
}

impl Model {
    /// A fresh operator over `spec`.
    pub fn new(spec: AssignerSpec) -> Self {
        Self {
            spec,
            pending: Vec::new(),
            watermark: None,
            fired_with_records: BTreeSet::new(),
            taken: Vec::new(),
            advances: Vec::new(),
        }
    }

    /// The assigner.
    pub fn spec(&self) -> AssignerSpec {
        self.spec
    }

    /// The current watermark.
    pub fn current(&self) -> Option<u64> {
        self.watermark
    }

    /// Whether `window` has fired: the watermark has reached its `end - 1`.
    pub fn has_fired(&self, (_, end): (u64, u64)) -> bool {
        self.watermark.is_some_and(|wm| end.saturating_sub(1) <= wm)
    }

    /// The watermark `window` fired at, if it has.
    pub fn fired_at(&self, (_, end): (u64, u64)) -> Option<u64> {
        self.advances
            .iter()
            .copied()
            .find(|wm| end.saturating_sub(1) <= *wm)
    }

    /// Whether `window` fired holding no aggregate of any key.
    pub fn fired_empty(&self, window: (u64, u64)) -> bool {
        self.has_fired(window) && !self.fired_with_records.contains(&window)
    }

    /// `on_record(key, ts, value)`.
    pub fn record(&mut self, key: &str, ts: u64, value: i64) -> Option<LateRecord> {
        let (fired, open): (Vec<_>, Vec<_>) = windows(self.spec, ts)
            .into_iter()
            .partition(|w| self.has_fired(*w));
        let late = open.is_empty();
        self.pending
            .extend(open.into_iter().map(|w| (w, key.to_owned(), value)));
        let record = (key.to_owned(), ts, value);
        self.taken.push(Taken {
            record: record.clone(),
            fired,
            late,
        });
        late.then_some(record)
    }

    /// Whether `on_watermark(wm)` advances the watermark.
    pub fn advances(&self, wm: u64) -> bool {
        self.watermark.is_none_or(|current| wm > current)
    }

    /// `on_watermark(wm)`.
    pub fn watermark(&mut self, wm: u64) -> Vec<Fired> {
        if !self.advances(wm) {
            return Vec::new();
        }
        self.watermark = Some(wm);
        self.advances.push(wm);
        let (due, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|((_, end), _, _)| end.saturating_sub(1) <= wm);
        self.pending = rest;
        let mut groups: BTreeMap<(u64, u64, String), (i64, u64)> = BTreeMap::new();
        for ((start, end), key, value) in due {
            self.fired_with_records.insert((start, end));
            let group = groups.entry((start, end, key)).or_default();
            group.0 += value;
            group.1 += 1;
        }
        groups
            .into_iter()
            .map(|((start, end, key), (sum, count))| Fired {
                start,
                end,
                key,
                sum,
                count,
            })
            .collect()
    }

    /// The open `(window, key)` aggregates.
    pub fn open(&self) -> Open {
        self.pending
            .iter()
            .map(|(w, k, _)| (*w, k.clone()))
            .collect()
    }

    /// One element.
    pub fn element(&mut self, element: &Element) -> Expected {
        match element {
            Element::Record(key, ts, value) => Expected::Late(self.record(key, *ts, *value)),
            Element::Watermark(wm) => Expected::Fired(self.watermark(*wm)),
        }
    }
}

/// The operator's expected output and open aggregates after each element.
pub fn run(spec: AssignerSpec, elements: &[Element]) -> (Vec<Expected>, Vec<Open>) {
    let mut model = Model::new(spec);
    let mut outputs = Vec::new();
    let mut open = Vec::new();
    for element in elements {
        outputs.push(model.element(element));
        open.push(model.open());
    }
    (outputs, open)
}

/// The model after each prefix of `elements`: `models[i]` is the state before element `i`.
pub fn models(spec: AssignerSpec, elements: &[Element]) -> Vec<Model> {
    let mut model = Model::new(spec);
    let mut all = vec![model.clone()];
    for element in elements {
        model.element(element);
        all.push(model.clone());
    }
    all
}

/// What `window_sums` returns: every result in firing order, and the late records.
pub fn window_sums(spec: AssignerSpec, elements: &[Element]) -> (Vec<Fired>, Vec<LateRecord>) {
    let (outputs, _) = run(spec, elements);
    let (mut fired, mut late) = (Vec::new(), Vec::new());
    for output in outputs {
        match output {
            Expected::Late(record) => late.extend(record),
            Expected::Fired(results) => fired.extend(results),
        }
    }
    (fired, late)
}

/// The stream the bounded-out-of-orderness generator makes of `records` (stage 04),
/// followed by the end-of-input watermark `u64::MAX`.
pub fn with_watermarks(records: &[LateRecord], max_delay: u64) -> Vec<Element> {
    let mut out = Vec::new();
    let mut max_ts: Option<u64> = None;
    let mut last: Option<u64> = None;
    for (key, ts, value) in records {
        out.push(Element::Record(key.clone(), *ts, *value));
        max_ts = max_ts.max(Some(*ts));
        let wm = max_ts.and_then(|m| m.checked_sub(max_delay)?.checked_sub(1));
        if wm > last {
            out.extend(wm.map(Element::Watermark));
            last = wm;
        }
    }
    out.push(Element::Watermark(u64::MAX));
    out
}

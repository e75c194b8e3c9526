//! What stage 05 must produce, computed from the definitions over the element sequence.

use std::collections::{BTreeMap, BTreeSet};

use super::{AssignerSpec, Element, Fired, LateRecord};

/// Every window `[k slide, k slide + size)`, `k >= 0`, that contains `ts`, by start.
pub fn windows(spec: AssignerSpec, ts: u64) -> Vec<(u64, u64)> {
    let (size, slide) = match spec {
        AssignerSpec::Tumbling(size) => (size, size),
        AssignerSpec::Sliding(size, slide) => (size, slide),
    };
    (0..=ts / slide)
        .map(|k| (k * slide, k * slide + size))
        .filter(|&(start, end)| start <= ts && ts < end)
        .collect()
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

/// The operator's expected output and open aggregates after each element.
pub fn run(spec: AssignerSpec, elements: &[Element]) -> (Vec<Expected>, Vec<Open>) {
    // Every (window, key, value) a record contributed and that has not fired yet.
    let mut pending: Vec<((u64, u64), String, i64)> = Vec::new();
    let mut watermark: Option<u64> = None;
    let mut outputs = Vec::new();
    let mut sizes = Vec::new();
    for element in elements {
        match element {
            Element::Record(key, ts, value) => {
                let open: Vec<(u64, u64)> = windows(spec, *ts)
                    .into_iter()
                    .filter(|&(_, end)| watermark.is_none_or(|wm| end - 1 > wm))
                    .collect();
                if open.is_empty() {
                    outputs.push(Expected::Late(Some((key.clone(), *ts, *value))));
                } else {
                    outputs.push(Expected::Late(None));
                }
                pending.extend(open.into_iter().map(|w| (w, key.clone(), *value)));
            }
            Element::Watermark(wm) => {
                if watermark.is_some_and(|current| *wm <= current) {
                    outputs.push(Expected::Fired(Vec::new()));
                } else {
                    watermark = Some(*wm);
                    let (due, rest): (Vec<_>, Vec<_>) = pending
                        .into_iter()
                        .partition(|((_, end), _, _)| end - 1 <= *wm);
                    pending = rest;
                    let mut groups: BTreeMap<(u64, u64, String), (i64, u64)> = BTreeMap::new();
                    for ((start, end), key, value) in due {
                        let group = groups.entry((start, end, key)).or_default();
                        group.0 += value;
                        group.1 += 1;
                    }
                    outputs.push(Expected::Fired(
                        groups
                            .into_iter()
                            .map(|((start, end, key), (sum, count))| Fired {
                                start,
                                end,
                                key,
                                sum,
                                count,
                            })
                            .collect(),
                    ));
                }
            }
        }
        sizes.push(pending.iter().map(|(w, k, _)| (*w, k.clone())).collect());
    }
    (outputs, sizes)
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

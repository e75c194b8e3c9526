//! What stage 04 must produce, computed directly from the definitions.

use super::{Element, Split};

/// `max_ts - max_delay - 1`, or `None` while that would be below 0.
pub fn watermark(max_ts: Option<u64>, max_delay: u64) -> Option<u64> {
    let max_ts = max_ts?;
    (max_ts > max_delay).then(|| max_ts - max_delay - 1)
}

/// The generator's watermark after each arrival.
pub fn watermarks(arrivals: &[(u64, u32)], max_delay: u64) -> Vec<Option<u64>> {
    let mut max_ts: Option<u64> = None;
    arrivals
        .iter()
        .map(|&(ts, _)| {
            max_ts = Some(max_ts.map_or(ts, |m| m.max(ts)));
            watermark(max_ts, max_delay)
        })
        .collect()
}

/// The records, each followed by its watermark when that is above every earlier one.
pub fn with_watermarks(arrivals: &[(u64, u32)], max_delay: u64) -> Vec<Element> {
    let mut out = Vec::new();
    let mut last: Option<u64> = None;
    for (&(ts, id), wm) in arrivals.iter().zip(watermarks(arrivals, max_delay)) {
        out.push(Element::Record(ts, id));
        if wm > last {
            out.extend(wm.map(Element::Watermark));
            last = wm;
        }
    }
    out
}

/// On-time and late records: late when `ts <=` the largest earlier watermark.
pub fn split_late(elements: &[Element]) -> Split {
    let mut seen: Option<u64> = None;
    let (mut on_time, mut late) = (Vec::new(), Vec::new());
    for element in elements {
        match *element {
            Element::Watermark(wm) => seen = seen.max(Some(wm)),
            Element::Record(ts, id) => {
                if seen.is_some_and(|wm| ts <= wm) {
                    late.push((ts, id));
                } else {
                    on_time.push((ts, id));
                }
            }
        }
    }
    (on_time, late)
}

/// Whether no record arrives more than `max_delay` behind the largest timestamp before it.
pub fn within_bound(arrivals: &[(u64, u32)], max_delay: u64) -> bool {
    let mut max_ts = 0;
    arrivals.iter().all(|&(ts, _)| {
        max_ts = max_ts.max(ts);
        max_ts - ts <= max_delay
    })
}

/// What `on_watermark` returns at each step of `interleaving` (`(input, ts)` pairs).
pub fn combined(inputs: usize, interleaving: &[(usize, u64)]) -> Vec<Option<u64>> {
    let mut marks: Vec<Option<u64>> = vec![None; inputs];
    let mut reported: Option<u64> = None;
    interleaving
        .iter()
        .map(|&(input, ts)| {
            marks[input] = marks[input].max(Some(ts));
            let minimum = if marks.iter().all(Option::is_some) {
                marks.iter().flatten().min().copied()
            } else {
                None
            };
            if minimum > reported {
                reported = minimum;
                minimum
            } else {
                None
            }
        })
        .collect()
}

//! Interleaving a record stream with the watermarks of its generator.

use crate::{BoundedOutOfOrderness, Event, StreamElement, Timestamp};

/// The records of `events`, in arrival order, each followed by a watermark element when
/// the generator's watermark advanced past the last one emitted.
///
/// Emitting only advances keeps the stream monotone and small: a repeated watermark
/// promises nothing new.
pub fn with_watermarks<T: Clone>(
    events: &[Event<T>],
    max_delay: Timestamp,
) -> Vec<StreamElement<Event<T>>> {
    let mut generator = BoundedOutOfOrderness::new(max_delay);
    let mut last = None;
    let mut out = Vec::with_capacity(events.len() * 2);
    for event in events {
        generator.on_event(event.ts);
        out.push(StreamElement::Record(event.clone()));
        let advanced = generator
            .current_watermark()
            .filter(|&wm| last.is_none_or(|last| wm > last));
        if let Some(wm) = advanced {
            out.push(StreamElement::Watermark(wm));
            last = Some(wm);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watermark_after_each_advance_only() {
        let events: Vec<Event<()>> = [5, 3, 7, 7, 6].map(|ts| Event::new(ts, ())).to_vec();
        let marks: Vec<Timestamp> = with_watermarks(&events, 2)
            .into_iter()
            .filter_map(|e| match e {
                StreamElement::Watermark(w) => Some(w),
                StreamElement::Record(_) => None,
            })
            .collect();
        assert_eq!(marks, [2, 4]);
    }
}

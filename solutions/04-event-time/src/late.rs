//! Separating late records from on-time ones.

use crate::{Event, StreamElement};

/// The records of `elements`, split into `(on_time, late)`, each in stream order.
///
/// A record is late when its timestamp is `<=` the largest watermark before it: that
/// watermark promised no such record would come. Equality is late, since the promise
/// covers the watermark's own timestamp.
pub fn split_late<T: Clone>(
    elements: &[StreamElement<Event<T>>],
) -> (Vec<Event<T>>, Vec<Event<T>>) {
    let mut watermark = None;
    let (mut on_time, mut late) = (Vec::new(), Vec::new());
    for element in elements {
        match element {
            StreamElement::Watermark(wm) => {
                watermark = Some(watermark.map_or(*wm, |seen: u64| seen.max(*wm)));
            }
            StreamElement::Record(event) if watermark.is_some_and(|wm| event.ts <= wm) => {
                late.push(event.clone());
            }
            StreamElement::Record(event) => on_time.push(event.clone()),
        }
    }
    (on_time, late)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StreamElement::{Record, Watermark};

    #[test]
    fn equal_to_the_watermark_is_late() {
        let elements = [
            Record(Event::new(4, 'a')),
            Watermark(2),
            Record(Event::new(2, 'b')),
            Record(Event::new(3, 'c')),
        ];
        let (on_time, late) = split_late(&elements);
        assert_eq!(on_time, [Event::new(4, 'a'), Event::new(3, 'c')]);
        assert_eq!(late, [Event::new(2, 'b')]);
    }
}

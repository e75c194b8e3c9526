//! Windowed sums over a stream of records and watermarks.

use stage04::{Event, StreamElement};

use crate::{KeyedEvent, WindowAssigner, WindowOperator, WindowResult};

/// Runs a [`WindowOperator`] over `elements`: the results in the order they fired, and
/// the late records in stream order.
///
/// Only the stream's watermarks fire windows. To flush every window at the end of a
/// bounded input, end it with `Watermark(Timestamp::MAX)`, as Flink does.
pub fn window_sums<K: Ord + Clone, A: WindowAssigner>(
    elements: &[StreamElement<KeyedEvent<K>>],
    assigner: A,
) -> (Vec<WindowResult<K>>, Vec<KeyedEvent<K>>) {
    let mut operator = WindowOperator::new(assigner);
    let (mut fired, mut late) = (Vec::new(), Vec::new());
    for element in elements {
        match element {
            StreamElement::Record(Event {
                ts,
                value: (key, value),
            }) => late.extend(operator.on_record(key.clone(), *ts, *value).map(|l| l.0)),
            StreamElement::Watermark(wm) => fired.extend(operator.on_watermark(*wm)),
        }
    }
    (fired, late)
}

#[cfg(test)]
mod tests {
    use stage04::StreamElement::{Record, Watermark};

    use super::*;
    use crate::{Sliding, Tumbling, Window};

    fn rec(ts: u64, key: char, value: i64) -> StreamElement<Event<(char, i64)>> {
        Record(Event::new(ts, (key, value)))
    }

    #[test]
    fn tumbling_fires_at_end_minus_one_and_turns_late_records_away() {
        let elements = [
            rec(1, 'a', 10),
            rec(3, 'b', 1),
            Watermark(3),
            rec(4, 'a', 5),
            Watermark(4),
            rec(2, 'a', 100),
            rec(6, 'a', 7),
            Watermark(u64::MAX),
        ];
        let (fired, late) = window_sums(&elements, Tumbling::new(5).unwrap());
        let w0 = Window { start: 0, end: 5 };
        let w1 = Window { start: 5, end: 10 };
        assert_eq!(
            fired,
            [
                WindowResult {
                    key: 'a',
                    window: w0,
                    sum: 15,
                    count: 2
                },
                WindowResult {
                    key: 'b',
                    window: w0,
                    sum: 1,
                    count: 1
                },
                WindowResult {
                    key: 'a',
                    window: w1,
                    sum: 7,
                    count: 1
                },
            ]
        );
        assert_eq!(late, [Event::new(2, ('a', 100))]);
    }

    #[test]
    fn behind_the_watermark_but_with_an_open_window_is_not_late() {
        let mut operator = WindowOperator::new(Sliding::new(4, 2).unwrap());
        assert!(operator.on_record('k', 3, 1).is_none());
        assert_eq!(operator.on_watermark(3).len(), 1, "[0, 4) fires at 3");
        // ts 3 is <= the watermark, yet [2, 6) is still open: counted there, not late.
        assert!(operator.on_record('k', 3, 1).is_none());
        let restored =
            WindowOperator::restore(Sliding::new(4, 2).unwrap(), &operator.snapshot().unwrap())
                .unwrap();
        let mut restored: WindowOperator<char, Sliding> = restored;
        assert!(
            restored.on_record('k', 1, 1).is_some(),
            "only [0, 4): fired"
        );
        let fired = restored.on_watermark(5);
        assert_eq!(fired[0].count, 2);
        assert_eq!(restored.state_size(), 0);
    }
}

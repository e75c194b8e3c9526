//! Cards are recognised from the failure, not the code: implementations written unlike
//! any mutant of the catalogues, each making a catalogued mistake its own way, get the
//! mistake's card.

use graders::report::{Replay, Style, render};

use crate::cards::shows;
use crate::rejects;

/// **Mistake:** the source keeps the index of the *last* record read, and `seek(o)`
/// sets it to `o`: "an offset names the last record read". Unlike `seek_one_late`, the
/// source agrees with itself (`position()` is the last index too), but `seek(0)` skips
/// the first record.
mod last_read_index {
    pub use solution01::*;

    pub struct VecSource<T> {
        records: Vec<T>,
        last: Option<usize>,
    }
    impl<T> VecSource<T> {
        pub fn new(records: Vec<T>) -> Self {
            Self {
                records,
                last: None,
            }
        }
    }
    impl<T: Clone> Source for VecSource<T> {
        type Item = T;
        fn poll(&mut self) -> Option<T> {
            let next = self.last.map_or(0, |last| last + 1);
            let record = self.records.get(next)?.clone();
            self.last = Some(next);
            Some(record)
        }
        fn position(&self) -> Offset {
            self.last.map_or(0, |last| last as Offset)
        }
        fn seek(&mut self, offset: Offset) -> anyhow::Result<()> {
            anyhow::ensure!(
                offset <= self.records.len() as Offset,
                "offset {offset} past the end"
            );
            self.last = Some(offset as usize);
            Ok(())
        }
    }
}
graders::impl_stage01!(LastReadIndex, last_read_index);

/// **Mistake:** the operator writes the function's state back with `update(key, |old|
/// slot.or(old))`: a `None` the function left keeps the old state ("None means no
/// change"), unlike `cleared_state_kept`, which skips the write.
mod or_old_state {
    pub use solution02::*;
    use std::marker::PhantomData;

    pub struct KeyedProcessOperator<K, KeyFn, F: KeyedProcessFunction<K, In>, In> {
        key_fn: KeyFn,
        function: F,
        state: KeyedState<K, F::State>,
        input: PhantomData<fn(In)>,
    }
    impl<K, KeyFn, F, In> KeyedProcessOperator<K, KeyFn, F, In>
    where
        K: Ord + Clone + serde::Serialize + serde::de::DeserializeOwned,
        F: KeyedProcessFunction<K, In>,
        F::State: Clone + serde::Serialize + serde::de::DeserializeOwned,
    {
        pub fn new(key_fn: KeyFn, function: F) -> Self {
            Self {
                key_fn,
                function,
                state: KeyedState::new(),
                input: PhantomData,
            }
        }
        pub fn state(&self) -> &KeyedState<K, F::State> {
            &self.state
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.state.to_bytes()
        }
        pub fn restore(key_fn: KeyFn, function: F, bytes: &[u8]) -> anyhow::Result<Self> {
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(bytes)?;
            Ok(op)
        }
    }
    impl<K, KeyFn, F, In> Operator<In> for KeyedProcessOperator<K, KeyFn, F, In>
    where
        K: Ord + Clone,
        KeyFn: FnMut(&In) -> K,
        F: KeyedProcessFunction<K, In>,
        F::State: Clone,
    {
        type Out = F::Out;
        fn process(&mut self, input: In, out: &mut Vec<F::Out>) {
            let key = (self.key_fn)(&input);
            let mut slot = self.state.get(&key).cloned();
            self.function.process_element(&key, input, &mut slot, out);
            self.state.update(key, |old| slot.or(old));
        }
    }
}
graders::impl_stage02!(OrOldState, OrOldStateSpy, or_old_state);

/// **Mistake:** records are routed by `key_group % parallelism`: key groups are used,
/// but dealt out modulo the parallelism instead of through the ranges (`modulo_routing`
/// hashes the key modulo the parallelism instead).
mod key_group_modulo {
    pub use solution03::*;

    pub fn partition<T: Clone>(
        records: &[T],
        key: impl Fn(&T) -> &[u8],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<Vec<T>>> {
        key_group_range(0, parallelism, max_parallelism)?;
        let mut out = vec![Vec::new(); parallelism as usize];
        for record in records {
            let group = key_group_for(key(record), max_parallelism)?;
            out[(group % parallelism) as usize].push(record.clone());
        }
        Ok(out)
    }
}
graders::impl_stage03!(KeyGroupModulo, key_group_modulo);

/// **Mistake:** the generator keeps its watermark in a field, raised to
/// `ts.saturating_sub(max_delay + 1)` by each newer record: the same belief as
/// `saturating_watermark` ("0 at the start"), held in state rather than computed.
mod stored_watermark {
    pub use solution04::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct BoundedOutOfOrderness {
        max_delay: u64,
        watermark: Option<u64>,
    }
    impl BoundedOutOfOrderness {
        pub fn new(max_delay: u64) -> Self {
            Self {
                max_delay,
                watermark: None,
            }
        }
        pub fn on_event(&mut self, ts: u64) {
            let candidate = ts.saturating_sub(self.max_delay.saturating_add(1));
            self.watermark = self.watermark.max(Some(candidate));
        }
        pub fn current_watermark(&self) -> Option<u64> {
            self.watermark
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            Ok(serde_json::to_vec(self)?)
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            Ok(serde_json::from_slice(bytes)?)
        }
    }
}
graders::impl_stage04!(StoredWatermark, stored_watermark);

#[test]
fn stage01_last_read_index() {
    use graders::stage01::{Dataflow, drive};
    let report = rejects::<Dataflow>(drive::<LastReadIndex>, "seek");
    shows(&report, "01-offset-is-the-last-read");
    // The card as a learner reads it, under the check it explains (pinned exactly).
    let text = render(&report, &Style::plain(), &Replay::default());
    let seek = text
        .split("  ✗ ")
        .nth(1)
        .unwrap_or_else(|| crate::fail(&text));
    assert_eq!(
        seek,
        "\
seek: after seek(o), draining yields exactly records[o..] and position() counts along
    smallest case: VecSource::new(vec![4]), seek(0), then poll until None
    breaks:   01-R11 · **Replay.** After `seek(o)`, draining a source yields exactly `records[o..]`, and `position()` grows by one per record polled
    expected: records = [4]
    actual:   records = []
    missing:  4
    extra:    none
    first wrong step: records stops after 0 items; item 0 should be 4
    replay: cargo byo test 01 --case 1
    likely misconception: An offset names the last record read, so seek(o) resumes after it
      An offset is the position of the next record to read: seek(o) then poll() yields
      records[o], and position() after reading k records is k. Landing one further on
      loses a record at every restart.
      reread: \"The invariant\" in stages/01-dataflow/README.md
"
    );
}

#[test]
fn stage02_or_old_state() {
    use graders::stage02::{KeyedStateStage, drive};
    let report = rejects::<KeyedStateStage>(drive::<OrOldState>, "final-state");
    shows(&report, "02-none-means-no-change");
}

#[test]
fn stage03_key_group_modulo() {
    use graders::stage03::{Parallelism, drive};
    let report = rejects::<Parallelism>(drive::<KeyGroupModulo>, "partition");
    shows(&report, "03-hash-modulo-parallelism");
}

#[test]
fn stage04_stored_watermark() {
    use graders::stage04::{EventTime, drive};
    let report = rejects::<EventTime>(drive::<StoredWatermark>, "generator");
    shows(&report, "04-watermark-from-max-minus-delay");
}

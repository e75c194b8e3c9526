//! Stage 02 mutants of the fourth and seventh red teams, which show only with more than
//! one operator alive, on a second snapshot after a restore, or on a state too large for
//! a name: a snapshot that is a handle to bytes kept in a `static` (one per snapshot, or
//! one per distinct state) or that carries a counter, a snapshot cached through a clear,
//! and a `WordCount` that counts beside the state it is lent. Each passes every case where
//! one small operator is snapshotted once after its last restore.

use graders::stage02::{Case, KeyedStateStage, Observation, drive};
use rstest::rstest;

/// **Mistake:** `snapshot` keeps the real bytes in a process-wide store and returns a
/// handle to them (`checkpoint-N`); `restore` looks the handle up. Every restore in the
/// same process works; no other process could read the bytes.
/// **Verdict:** `contract`: the same operator asked twice writes `checkpoint-0`, then
/// `checkpoint-1`: one state, two snapshots (02-R15).
pub mod snapshot_is_a_handle {
    static STORE: std::sync::Mutex<Vec<Vec<u8>>> = std::sync::Mutex::new(Vec::new());

    keyed_operator! {
        fn process(self, key, input, out) {
            lend!(self, key, input, out);
        }
        fn snapshot(this) {
            let bytes = this.state.to_bytes()?;
            let mut store = STORE.lock().map_err(|_| anyhow::anyhow!("store poisoned"))?;
            store.push(bytes);
            Ok(format!("checkpoint-{}", store.len() - 1).into_bytes())
        }
        fn restore(key_fn, function, bytes) {
            let handle = std::str::from_utf8(bytes)?;
            let id: usize = handle
                .strip_prefix("checkpoint-")
                .ok_or_else(|| anyhow::anyhow!("not a checkpoint handle"))?
                .parse()?;
            let stored = STORE
                .lock()
                .map_err(|_| anyhow::anyhow!("store poisoned"))?
                .get(id)
                .cloned()
                .ok_or_else(|| anyhow::anyhow!("no checkpoint {id}"))?;
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(&stored)?;
            Ok(op)
        }
    }
}

/// **Mistake:** `snapshot` keeps each distinct state's bytes once in a process-wide
/// registry and returns the entry's name (`snapshot#N`): one state, one name, so the
/// same operator asked twice and two operators holding one state write the same bytes,
/// and every restore in the same process works; no other process could read them.
/// **Verdict:** `contract`: a state of 256 keys of random symbols snapshots to
/// `snapshot#N`, far fewer bytes than the keys carry (02-R15).
pub mod snapshot_is_a_registry_entry {
    keyed_operator! {
        fn process(self, key, input, out) {
            lend!(self, key, input, out);
        }
        fn snapshot(this) {
            crate::registry::enter(this.state.to_bytes()?)
        }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(&crate::registry::look_up(bytes)?)?;
            Ok(op)
        }
    }
}

/// **Mistake:** every snapshot starts with a checkpoint number from a process-wide
/// counter, then a new line and the state ("checkpoints are numbered"); `restore` checks
/// the number is one and reads the state after it.
/// **Verdict:** `contract`: two operators holding one state write `0` and `1` before it
/// (02-R15).
pub mod snapshot_numbers_checkpoints {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

    keyed_operator! {
        fn process(self, key, input, out) {
            lend!(self, key, input, out);
        }
        fn snapshot(this) {
            let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let mut bytes = format!("{n}\n").into_bytes();
            bytes.extend(this.state.to_bytes()?);
            Ok(bytes)
        }
        fn restore(key_fn, function, bytes) {
            let at = bytes
                .iter()
                .position(|b| *b == b'\n')
                .ok_or_else(|| anyhow::anyhow!("no checkpoint number"))?;
            let number = std::str::from_utf8(&bytes[..at])?;
            anyhow::ensure!(
                !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()),
                "not a checkpoint number: {number:?}"
            );
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(&bytes[at + 1..])?;
            Ok(op)
        }
    }
}

/// **Mistake:** `restore` keeps the bytes it read as the snapshot of an unchanged state,
/// and `process` drops them only when the function stores a value, not when it leaves
/// `None` (the red team's `w02-05`).
/// **Verdict:** `contract`: `process(("a", 1))`, restore, `process(("a", 0))` (which
/// clears `a`), restore: `a` is back (02-R15).
pub mod restore_caches_its_bytes {
    keyed_operator! {
        fn process(self, key, input, out) {
            let mut slot = self.state.remove(&key);
            self.function.process_element(&key, input, &mut slot, out);
            if let Some(value) = slot {
                self.state.put(key, value);
                *self.cache.borrow_mut() = None;
            }
        }
        fn snapshot(this) {
            if let Some((_, bytes)) = this.cache.borrow().as_ref() {
                return Ok(bytes.clone());
            }
            this.state.to_bytes()
        }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(bytes)?;
            *op.cache.borrow_mut() = Some((op.state.len(), bytes.to_vec()));
            Ok(op)
        }
    }
}

/// **Mistake:** `snapshot` keeps the bytes it wrote for the next call, and `process`
/// drops them only when the function stores a value.
/// **Verdict:** `contract`: `process(("a", 1))`, a snapshot, `process(("a", 0))`,
/// restore: `a` is back (02-R15).
pub mod snapshot_memo_kept_on_clear {
    keyed_operator! {
        fn process(self, key, input, out) {
            let mut slot = self.state.remove(&key);
            self.function.process_element(&key, input, &mut slot, out);
            if let Some(value) = slot {
                self.state.put(key, value);
                *self.cache.borrow_mut() = None;
            }
        }
        fn snapshot(this) {
            if let Some((_, bytes)) = this.cache.borrow().as_ref() {
                return Ok(bytes.clone());
            }
            let bytes = this.state.to_bytes()?;
            *this.cache.borrow_mut() = Some((0, bytes.clone()));
            Ok(bytes)
        }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(bytes)?;
            Ok(op)
        }
    }
}

/// **Mistake:** `WordCount` ignores the state it is lent and counts in a `thread_local!`
/// map that `word_count` clears at its start (the red team's `w02-02`): `word_count` is
/// right, the operator's state is empty.
/// **Verdict:** `word-count`: an operator running `WordCount` fed `a` emits `("a", 1)`
/// and its `state()` is `{}` (02-R17).
pub mod word_count_thread_local {
    use solution01::{FlatMap, VecSource, run};
    pub use solution02::{KeyedProcessFunction, KeyedProcessOperator, KeyedState, Operator};

    thread_local! {
        static COUNTS: std::cell::RefCell<std::collections::BTreeMap<String, u64>> =
            const { std::cell::RefCell::new(std::collections::BTreeMap::new()) };
    }

    #[derive(Debug, Clone, Copy, Default)]
    pub struct WordCount;

    impl KeyedProcessFunction<String, String> for WordCount {
        type Out = (String, u64);
        type State = u64;
        fn process_element(
            &mut self,
            key: &String,
            _word: String,
            _state: &mut Option<u64>,
            out: &mut Vec<(String, u64)>,
        ) {
            let count = COUNTS.with(|counts| {
                let mut counts = counts.borrow_mut();
                let count = counts.entry(key.clone()).or_insert(0);
                *count += 1;
                *count
            });
            out.push((key.clone(), count));
        }
    }

    pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
        COUNTS.with(|counts| counts.borrow_mut().clear());
        let mut source = VecSource::new(lines.to_vec());
        let split = FlatMap(|line: String| {
            line.split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        });
        let count = KeyedProcessOperator::new(|word: &String| word.clone(), WordCount);
        run(&mut source, &mut split.then(count))
    }
}

/// **Mistake:** `WordCount` keeps a tally of every word in a `static` that `word_count`
/// clears, and stores the tally in the state it is lent too: `state()` looks right, but
/// two operators count each other's words.
/// **Verdict:** `word-count`: the second operator's first `a` emits `("a", 2)` (02-R17).
pub mod word_count_global_tally {
    use solution01::{FlatMap, VecSource, run};
    pub use solution02::{KeyedProcessFunction, KeyedProcessOperator, KeyedState, Operator};

    static TALLY: std::sync::Mutex<std::collections::BTreeMap<String, u64>> =
        std::sync::Mutex::new(std::collections::BTreeMap::new());

    #[derive(Debug, Clone, Copy, Default)]
    pub struct WordCount;

    impl KeyedProcessFunction<String, String> for WordCount {
        type Out = (String, u64);
        type State = u64;
        fn process_element(
            &mut self,
            key: &String,
            _word: String,
            state: &mut Option<u64>,
            out: &mut Vec<(String, u64)>,
        ) {
            let mut tally = TALLY.lock().unwrap_or_else(|e| e.into_inner());
            let count = tally.entry(key.clone()).or_insert(0);
            *count += 1;
            *state = Some(*count);
            out.push((key.clone(), *count));
        }
    }

    pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
        TALLY.lock().unwrap_or_else(|e| e.into_inner()).clear();
        let mut source = VecSource::new(lines.to_vec());
        let split = FlatMap(|line: String| {
            line.split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        });
        let count = KeyedProcessOperator::new(|word: &String| word.clone(), WordCount);
        run(&mut source, &mut split.then(count))
    }
}

graders::impl_stage02!(
    SnapshotIsAHandle,
    SnapshotIsAHandleSpy,
    snapshot_is_a_handle
);
graders::impl_stage02!(
    SnapshotIsARegistryEntry,
    SnapshotIsARegistryEntrySpy,
    snapshot_is_a_registry_entry
);
graders::impl_stage02!(
    SnapshotNumbersCheckpoints,
    SnapshotNumbersCheckpointsSpy,
    snapshot_numbers_checkpoints
);
graders::impl_stage02!(
    RestoreCachesItsBytes,
    RestoreCachesItsBytesSpy,
    restore_caches_its_bytes
);
graders::impl_stage02!(
    SnapshotMemoKeptOnClear,
    SnapshotMemoKeptOnClearSpy,
    snapshot_memo_kept_on_clear
);
graders::impl_stage02!(
    WordCountThreadLocal,
    WordCountThreadLocalSpy,
    word_count_thread_local
);
graders::impl_stage02!(
    WordCountGlobalTally,
    WordCountGlobalTallySpy,
    word_count_global_tally
);

/// Each mutant, the check that must reject it and the one requirement its smallest
/// failing case must name (no card: new mistakes, which no card's test shows yet).
#[rstest]
#[case::snapshot_is_a_handle(drive::<SnapshotIsAHandle>, "contract", "02-R15")]
#[case::snapshot_is_a_registry_entry(drive::<SnapshotIsARegistryEntry>, "contract", "02-R15")]
#[case::snapshot_numbers_checkpoints(drive::<SnapshotNumbersCheckpoints>, "contract", "02-R15")]
#[case::restore_caches_its_bytes(drive::<RestoreCachesItsBytes>, "contract", "02-R15")]
#[case::snapshot_memo_kept_on_clear(drive::<SnapshotMemoKeptOnClear>, "contract", "02-R15")]
#[case::word_count_thread_local(drive::<WordCountThreadLocal>, "word-count", "02-R17")]
#[case::word_count_global_tally(drive::<WordCountGlobalTally>, "word-count", "02-R17")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<KeyedStateStage>(drive, check, requirement);
}

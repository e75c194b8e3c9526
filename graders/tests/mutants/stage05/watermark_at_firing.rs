//! **Mistake:** "the watermark only matters when it fires something": the operator
//! remembers a watermark only when it fires a window, so `current_watermark()` lags
//! behind every watermark that fires nothing.
//! **Verdict:** `firing` fails: after a watermark that fires nothing,
//! `current_watermark()` is `None`.

pub use solution05::*;

pub struct WindowOperator<K, A> {
    inner: solution05::WindowOperator<K, A>,
    fired_at: Option<u64>,
}

impl<K, A> WindowOperator<K, A>
where
    K: Ord + Clone + serde::Serialize + serde::de::DeserializeOwned,
    A: WindowAssigner,
{
    pub fn new(assigner: A) -> Self {
        Self {
            inner: solution05::WindowOperator::new(assigner),
            fired_at: None,
        }
    }
    pub fn on_record(&mut self, key: K, ts: u64, value: i64) -> Option<Late<K>> {
        self.inner.on_record(key, ts, value)
    }
    pub fn on_watermark(&mut self, wm: u64) -> Vec<WindowResult<K>> {
        let fired = self.inner.on_watermark(wm);
        if !fired.is_empty() {
            self.fired_at = self.fired_at.max(Some(wm));
        }
        fired
    }
    pub fn state_size(&self) -> usize {
        self.inner.state_size()
    }
    pub fn current_watermark(&self) -> Option<u64> {
        self.fired_at
    }
    pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
        self.inner.snapshot()
    }
    pub fn restore(assigner: A, bytes: &[u8]) -> anyhow::Result<Self> {
        let inner = solution05::WindowOperator::restore(assigner, bytes)?;
        let fired_at = inner.current_watermark();
        Ok(Self { inner, fired_at })
    }
}

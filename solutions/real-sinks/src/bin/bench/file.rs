//! The file sink against one buffered file with an fsync per checkpoint.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use committer::{CommitterOperator, CommittingSink, NoTripwire, OpenContext, RunToken};
use real_sinks::file::{FileSink, Layout};
use real_sinks::job::InputRecord;

use super::drive::{drive_alone, drive_operator, me, run_context, state};
use super::timed;

/// The baseline: the lines into one file, flushed and fsynced at every checkpoint.
pub fn raw_file(dir: &Path, records: &[InputRecord], every: u64) -> Result<Duration> {
    fs::create_dir_all(dir)?;
    let file = File::create(dir.join("out"))?;
    let mut writer = BufWriter::with_capacity(1 << 16, file);
    timed(|| {
        for (i, record) in records.iter().enumerate() {
            writeln!(writer, "{}", record.line())?;
            if (i as u64 + 1).is_multiple_of(every) || i + 1 == records.len() {
                writer.flush()?;
                writer.get_ref().sync_all()?;
            }
        }
        Ok(())
    })
}

/// The sink's own verbs: write, prepare (fsync, stage), commit (rename) per checkpoint.
pub fn file_sink_alone(dir: &Path, records: &[InputRecord], every: u64) -> Result<Duration> {
    let mut sink = FileSink::new(Layout::new(dir, "bench")?);
    let context = OpenContext {
        job: "bench",
        generation: 1,
        run_token: RunToken(1),
        succession: me()?,
        pending: &[],
    };
    sink.on_open(&context)?;
    timed(|| drive_alone(&mut sink, records, every, InputRecord::line))
}

/// The file sink as the pipeline runs it: through the base, handles in the durable backend.
pub fn file_sink_operator(dir: &Path, records: &[InputRecord], every: u64) -> Result<Duration> {
    let sink = FileSink::new(Layout::new(dir, "bench")?);
    let operator = CommitterOperator::open(
        sink,
        state(dir)?,
        &run_context("bench")?,
        Box::new(NoTripwire),
    )?;
    timed(|| drive_operator(operator, records, every, InputRecord::line))
}

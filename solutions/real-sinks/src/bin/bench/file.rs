//! The file sink against one buffered file with an fsync per checkpoint.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use committer::{CommitterOperator, CommittingSink, NoTripwire, OpenContext, RunToken};
use real_sinks::durable::sync_dir;
use real_sinks::file::{FileSink, Layout, trailer};
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

/// The minimal durable protocol: the same bytes (records and trailer) in one file per
/// checkpoint, with exactly the durability points the protocol needs: fsync the file,
/// rename it into staging and fsync staging (the pre-commit), rename it into the output
/// and fsync the output (the commit).
pub fn minimal_protocol(dir: &Path, records: &[InputRecord], every: u64) -> Result<Duration> {
    let (staging, output) = (dir.join("staging"), dir.join("output"));
    fs::create_dir_all(&staging)?;
    fs::create_dir_all(&output)?;
    timed(|| {
        let mut open: Option<(BufWriter<File>, u64)> = None;
        let mut checkpoint = 0;
        for (i, record) in records.iter().enumerate() {
            let (writer, count) = match &mut open {
                Some(open) => open,
                None => open.insert((
                    BufWriter::with_capacity(1 << 16, File::create(staging.join("open"))?),
                    0,
                )),
            };
            writeln!(writer, "{}", record.line())?;
            *count += 1;
            if (i as u64 + 1).is_multiple_of(every) || i + 1 == records.len() {
                checkpoint += 1;
                let (mut writer, count) = open.take().expect("a record was just written");
                writer.write_all(trailer(count).as_bytes())?;
                writer.into_inner()?.sync_all()?;
                let name = format!("c{checkpoint}");
                fs::rename(staging.join("open"), staging.join(&name))?;
                sync_dir(&staging)?;
                fs::rename(staging.join(&name), output.join(&name))?;
                sync_dir(&output)?;
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

/// The file sink as the pipeline runs it: through the base, handles in operator state in
/// memory (the checkpoint carries them).
pub fn file_sink_operator(dir: &Path, records: &[InputRecord], every: u64) -> Result<Duration> {
    let sink = FileSink::new(Layout::new(dir, "bench")?);
    let operator =
        CommitterOperator::open(sink, state(), &run_context("bench")?, Box::new(NoTripwire))?;
    timed(|| drive_operator(operator, records, every, InputRecord::line))
}

//! The file sink against one buffered file with an fsync per checkpoint.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use committer::{CommitterOperator, NoTripwire};
use real_sinks::durable::sync_dir;
use real_sinks::file::{FileSink, Layout, trailer};
use real_sinks::job::InputRecord;

use super::drive::{drive_alone, drive_operator, epochs, open_fresh, run_context, state};
use super::timed;

/// One record's line, as the sink writes it: the line made by the pipeline's
/// conversion (an allocation every path pays), then its bytes and a newline.
fn write_line(writer: &mut impl Write, record: &InputRecord) -> std::io::Result<()> {
    let line = record.line();
    writer.write_all(line.as_bytes())?;
    writer.write_all(b"\n")
}

/// The baseline: the lines into one file, flushed and fsynced at every checkpoint.
pub fn raw_file(dir: &Path, records: &[InputRecord], every: u64) -> Result<Duration> {
    fs::create_dir_all(dir)?;
    let file = File::create(dir.join("out"))?;
    let mut writer = BufWriter::with_capacity(1 << 16, file);
    timed(|| {
        for (_, epoch) in epochs(records, every) {
            for record in epoch {
                write_line(&mut writer, record)?;
            }
            writer.flush()?;
            writer.get_ref().sync_all()?;
        }
        Ok(())
    })
}

/// The minimal durable protocol: the same bytes (records and trailer) in one file per
/// checkpoint, with exactly the durability points the protocol needs: fsync the file,
/// rename it into staging and fsync staging (the pre-commit: the prepared name must be
/// durable before its handle is), rename it into the output and fsync the output (the
/// commit).
pub fn minimal_protocol(dir: &Path, records: &[InputRecord], every: u64) -> Result<Duration> {
    let (staging, output) = (dir.join("staging"), dir.join("output"));
    fs::create_dir_all(&staging)?;
    fs::create_dir_all(&output)?;
    timed(|| {
        for (checkpoint, epoch) in epochs(records, every) {
            let open = staging.join("open");
            let mut writer = BufWriter::with_capacity(1 << 16, File::create(&open)?);
            for record in epoch {
                write_line(&mut writer, record)?;
            }
            writer.write_all(trailer(epoch.len() as u64).as_bytes())?;
            writer.into_inner()?.sync_all()?;
            let name = format!("c{checkpoint}");
            fs::rename(&open, staging.join(&name))?;
            sync_dir(&staging)?;
            fs::rename(staging.join(&name), output.join(&name))?;
            sync_dir(&output)?;
        }
        Ok(())
    })
}

/// The sink's own verbs: write, prepare (fsync, stage), commit (rename) per checkpoint.
pub fn file_sink_alone(dir: &Path, records: &[InputRecord], every: u64) -> Result<Duration> {
    let mut sink = FileSink::new(Layout::new(dir, "bench")?);
    open_fresh(&mut sink, "bench")?;
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

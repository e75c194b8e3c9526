//! `byo trace 08 ...`: one schedule of stage 08 drawn as a timeline; with `--mine`, the
//! learner's run of it (through the [pipeline](super::pipeline)) beside the reference's.
//! The flags are read here; [`crate::stage08::trace`] only draws.

use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;

use super::build::Built;
use super::pipeline::Pipeline;
use super::workspace::Root;
use crate::harness::driver::DEFAULT_SEED;
use crate::harness::printed::{PrintedLine, grouped};
use crate::harness::supervisor::Limits;
use crate::report::Style;
use crate::stage08::run_label;
use crate::stage08::trace::{Mark, Trace, Unfit, render, render_html};
use crate::stages;

/// The schedule drawn when no schedule flag is given.
const EXAMPLE: Trace = Trace {
    records: 4,
    barrier_every: 2,
    crash_after: Some(3),
    lag: 1,
    seed: DEFAULT_SEED,
};

/// The options of `byo trace`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
#[command(
    after_help = "Without --records, --barrier-every, --crash-after or --lag, an example \
    schedule is drawn: --records 4 --barrier-every 2 --crash-after 3 --lag 1."
)]
pub struct TraceOptions {
    /// The stage whose schedule to draw (only 08 has a trace).
    #[arg(value_name = "NN", value_parser = traced_stage)]
    pub stage: u8,
    /// The graded input of length N [default: 0].
    #[arg(long, value_name = "N")]
    pub records: Option<usize>,
    /// A barrier after every B records [default: 1].
    #[arg(long, value_name = "B")]
    pub barrier_every: Option<usize>,
    /// Crash after K records [default: no crash].
    #[arg(long, value_name = "K")]
    pub crash_after: Option<usize>,
    /// Notifications L barriers late [default: 0].
    #[arg(long, value_name = "L")]
    pub lag: Option<usize>,
    /// Run your code beside the reference, the first divergence marked.
    #[arg(long)]
    pub mine: bool,
    /// Plan seed (default: the fixed learner seed).
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = super::values::seed)]
    pub seed: Option<u64>,
    /// Also draw the trace as SVG swimlanes in a self-contained HTML page (a new file).
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
}

impl TraceOptions {
    /// The schedule asked for, and whether it is the example (no schedule flag given).
    pub fn trace(&self) -> (Trace, bool) {
        let seed = self.seed.unwrap_or(DEFAULT_SEED);
        if self.records.is_none()
            && self.barrier_every.is_none()
            && self.crash_after.is_none()
            && self.lag.is_none()
        {
            return (Trace { seed, ..EXAMPLE }, true);
        }
        let trace = Trace {
            records: self.records.unwrap_or(0),
            barrier_every: self.barrier_every.unwrap_or(1),
            crash_after: self.crash_after,
            lag: self.lag.unwrap_or(0),
            seed,
        };
        (trace, false)
    }

    /// Whether the schedule can be drawn (and, with `--mine`, is one the grader runs).
    ///
    /// # Errors
    /// The reason, naming the flag to change.
    pub fn check(&self) -> Result<(), String> {
        let (trace, _) = self.trace();
        let checked = if self.mine {
            trace.check_graded()
        } else {
            trace.check()
        };
        checked.map_err(|unfit| match unfit {
            Unfit::NoBarrierInterval => "'--barrier-every <B>' must be at least 1".to_owned(),
            Unfit::CrashPastEnd { records, .. } => {
                format!("'--crash-after <K>' must be at most --records ({records}): {unfit}")
            }
            Unfit::TooLongToDraw { .. } => format!("'--records <N>': {unfit}"),
            Unfit::LongerThanGraded { .. } => format!("'--records <N>' with --mine: {unfit}"),
            Unfit::BarrierPastGraded { .. } => {
                format!("'--barrier-every <B>' with --mine: {unfit}")
            }
            Unfit::LagPastGraded { .. } => format!("'--lag <L>' with --mine: {unfit}"),
        })
    }
}

/// What the learner's code printed while the case was replayed: first what the drawn
/// run printed (under the sink it was printing for), then the other runs of the input,
/// each under its crash point and lag.
fn printed_by_run(trace: &Trace, printed: &[PrintedLine], style: &Style) -> String {
    use std::fmt::Write as _;
    if printed.is_empty() {
        return String::new();
    }
    let drawn = run_label(trace.crash_after, trace.lag);
    let in_drawn = |line: &PrintedLine| {
        line.run
            .as_deref()
            .is_some_and(|run| run == drawn || run.starts_with(&format!("{drawn}, ")))
    };
    let (mine, others): (Vec<PrintedLine>, Vec<PrintedLine>) =
        printed.iter().cloned().partition(|line| in_drawn(line));
    let mut out = String::new();
    let sections = [
        (format!("your code printed in this run ({drawn}):"), mine),
        ("and in the other runs of this input:".to_owned(), others),
    ];
    for (heading, lines) in sections.iter().filter(|(_, lines)| !lines.is_empty()) {
        let _ = writeln!(out, "\n{}", style.dim(heading));
        for (place, lines) in grouped(lines) {
            if let Some(place) = place {
                let _ = writeln!(out, "  {}", style.dim(&format!("in {place}:")));
            }
            for line in lines {
                let _ = writeln!(out, "    {line}");
            }
        }
    }
    out
}

/// Stage 08, the only stage with a trace so far.
fn traced_stage(text: &str) -> Result<u8, String> {
    match super::values::stage_number(text)? {
        8 => Ok(8),
        other => Err(format!(
            "stage {other:02} has no trace yet; `just trace 08 ...` (or `cargo byo trace 08 ...`) draws a stage-08 schedule"
        )),
    }
}

pub(super) fn run(root: &Root, options: &TraceOptions) -> Result<ExitCode> {
    let (trace, example) = options.trace();
    if example {
        println!(
            "no schedule given, so here is an example: --records 4 --barrier-every 2 --crash-after 3 --lag 1 (see `cargo byo trace --help`)"
        );
    }
    let mine = if options.mine {
        let index = trace
            .protocol_case()
            .context("trace: this schedule is not in the graded plan")?;
        let info = stages::get(8).context("stage 08 is on the ladder")?;
        let pipeline = Pipeline::new(root.path()).speaking();
        let binary = match pipeline.build(&[info])?.remove(&8) {
            Some(Built::Binary(binary)) => binary,
            Some(Built::Failed(errors)) => bail!("trace: stage 08 does not compile:\n{errors}"),
            None => bail!("trace: no grade binary was built for stage 08"),
        };
        let run = pipeline.drive(&binary, 8, trace.seed, Some(index), Limits::default())?;
        let drawn = trace
            .mine_from(&run, index)
            .map_err(|e| anyhow!("trace: {e:#}"))?;
        Some((drawn, run.printed.lines()))
    } else {
        None
    };
    let (mine, printed) = mine.map_or((None, Vec::new()), |(drawn, printed)| {
        (Some(drawn), printed)
    });
    let style = Style::detect();
    let paint = |mark: Mark, text: &str| match mark {
        Mark::Heading => style.bold(text),
        Mark::Detail => style.dim(text),
        Mark::Good => style.good(text),
        Mark::Bad => style.bad(text),
        Mark::Warn => style.warn(text),
    };
    print!("{}", render(&trace, mine.as_ref(), &paint));
    print!("{}", printed_by_run(&trace, &printed, &style));
    if let Some(path) = &options.html {
        let page = render_html(&trace, mine.as_ref()).map_err(|unfit| anyhow!("trace: {unfit}"))?;
        // A new file only: nothing the learner keeps is overwritten.
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .with_context(|| format!("trace: --html {} (it must not exist yet)", path.display()))?;
        std::io::Write::write_all(&mut file, page.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        println!("drawn as a picture in {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

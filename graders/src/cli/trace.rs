//! `byo trace NN ...`: one schedule of a stage drawn as a timeline (stage 08 for now).

use std::process::{Command, ExitCode};

use anyhow::{Context, Result, anyhow, bail};

use super::build::{self, Built, Side};
use super::workspace::Root;
use crate::harness::protocol::Request;
use crate::harness::supervisor::{self, Limits};
use crate::report::Style;
use crate::stage08::trace::{TraceArgs, render};
use crate::stages;

pub(super) fn run(root: &Root, stage: u8, args: &[String]) -> Result<ExitCode> {
    if stage != 8 {
        bail!(
            "trace: stage {stage:02} has no trace yet; `byo trace 08 ...` draws a stage-08 schedule"
        );
    }
    let args = TraceArgs::parse(args).map_err(|e| anyhow!("trace: {e}"))?;
    let mine = if args.mine {
        let index = args
            .protocol_case()
            .context("trace: this schedule is not in the graded plan")?;
        let info = stages::get(8).context("stage 08 is on the ladder")?;
        let built = build::build(root.path(), None, &[info], Side::Learner, &[])?;
        let binary = match built.get(&8) {
            Some(Built::Binary(binary)) => binary.clone(),
            Some(Built::Failed(errors)) => bail!("trace: stage 08 does not compile:\n{errors}"),
            None => bail!("trace: no grade binary was built for stage 08"),
        };
        let mut command = Command::new(binary);
        command.current_dir(root.path());
        let plan = stages::plan_fingerprint(8, args.seed).context("stage 08 has a grader")?;
        let request = Request::new(8, args.seed, Some(index), plan);
        let run = supervisor::supervise(command, request, Limits::default())?;
        Some(
            args.mine_from(&run, index)
                .map_err(|e| anyhow!("trace: {e:#}"))?,
        )
    } else {
        None
    };
    print!("{}", render(&args, mine.as_ref(), &Style::detect()));
    Ok(ExitCode::SUCCESS)
}

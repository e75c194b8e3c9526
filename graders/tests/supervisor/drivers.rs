//! The drivers this binary can be, besides the misbehaving stage 01: every stage's
//! reference, and a stage-08 job that prints in every run and loses its output in one
//! cell of each grid. `DRIVER` names the one to be.

use graders::harness::driver;

graders::impl_stage01!(Reference01, solution01);
graders::impl_stage02!(Reference02, Reference02Spy, solution02);
graders::impl_stage03!(Reference03, solution03);
graders::impl_stage04!(Reference04, solution04);
graders::impl_stage05!(Reference05, Reference05Operator, solution05);
graders::impl_stage06!(Reference06, solution06);
graders::impl_stage07!(Reference07, Reference07Spy, solution07);
graders::impl_stage08!(Reference08, Reference08Spy, solution08);
graders::impl_stage08!(Printing08, Printing08Spy, printing08);

/// The reference's job, except that every run prints its crash point and lag (with a
/// forged run mark, which must decide nothing; on standard error too when
/// `MISBEHAVIOUR` is `stderr`: the two streams keep no order between them), and the run that crashes after record 2
/// with lag 1 returns nothing.
mod printing08 {
    pub use solution08::{CheckpointId, TransactionalSink, TwoPhaseCommitSink};

    pub fn run_exactly_once_sink_with<T: Clone, S: TwoPhaseCommitSink<T>>(
        records: &[T],
        barrier_every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
        new_sink: impl FnMut() -> S,
    ) -> anyhow::Result<Vec<T>> {
        println!("\u{1e}byo:0000000000000000:{{\"Run\":\"forged\"}}");
        println!("run: crash_after={crash_after:?} lag={commit_lag}");
        if std::env::var("MISBEHAVIOUR").as_deref() == Ok("stderr") {
            eprintln!("err: crash_after={crash_after:?} lag={commit_lag}");
        }
        let output = solution08::run_exactly_once_sink_with(
            records,
            barrier_every,
            crash_after,
            commit_lag,
            new_sink,
        )?;
        if crash_after == Some(2) && commit_lag == 1 {
            return Ok(Vec::new());
        }
        Ok(output)
    }

    pub fn run_exactly_once_sink<T: Clone>(
        records: &[T],
        barrier_every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
    ) -> anyhow::Result<Vec<T>> {
        run_exactly_once_sink_with(
            records,
            barrier_every,
            crash_after,
            commit_lag,
            TransactionalSink::new,
        )
    }
}

/// Serves as the driver `name` names; `false` when there is no such driver.
pub fn serve(name: &str) -> bool {
    use graders::{stage01, stage02, stage03, stage04, stage05, stage06, stage07, stage08};
    match name {
        "reference-01" => {
            driver::main::<stage01::Dataflow>(stage01::drive::<Reference01>);
        }
        "reference-02" => {
            driver::main::<stage02::KeyedStateStage>(stage02::drive::<Reference02>);
        }
        "reference-03" => {
            driver::main::<stage03::Parallelism>(stage03::drive::<Reference03>);
        }
        "reference-04" => driver::main::<stage04::EventTime>(stage04::drive::<Reference04>),
        "reference-05" => driver::main::<stage05::Windows>(stage05::drive::<Reference05>),
        "reference-06" => driver::main::<stage06::Barriers>(stage06::drive::<Reference06>),
        "reference-07" => {
            driver::main::<stage07::ExactlyOnceState>(stage07::drive::<Reference07>);
        }
        "reference-08" => {
            driver::main::<stage08::TransactionalSinkStage>(stage08::drive::<Reference08>);
        }
        "printing-08" => {
            driver::main::<stage08::TransactionalSinkStage>(stage08::drive::<Printing08>);
        }
        _ => return false,
    }
    true
}

//! `byo`: the learner's and instructor's command (start, test, hint, status, trace,
//! grade); `byo --help` lists them, generated from [`graders::cli::args`].

fn main() -> std::process::ExitCode {
    graders::cli::main()
}

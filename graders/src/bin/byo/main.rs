//! `byo`: the learner's and instructor's command (start, test, hint, status).

fn main() -> std::process::ExitCode {
    graders::cli::main()
}

//! `byo autograder`: grading where instructors already are. `classroom` writes GitHub
//! Classroom's autograding configuration and workflow for this kata; `gradescope`
//! writes Gradescope's `autograder.zip`.

pub mod classroom;
pub mod gradescope;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Subcommand};

use super::workspace::Root;
use gradescope::GradescopeOptions;

/// The platforms `byo autograder` writes configuration for.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum Platform {
    /// GitHub Classroom: `.github/classroom/autograding.json` and a workflow that runs
    /// one `byo test NN` per stage, each worth its points.
    Classroom(ClassroomOptions),
    /// Gradescope: `autograder.zip` (setup.sh, run_autograder, the kata and its vendored
    /// crates), grading each submission with `byo grade` in the sandbox.
    Gradescope(GradescopeOptions),
}

/// The options of `byo autograder classroom`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct ClassroomOptions {
    /// The repository to write `.github/` into (the student template's root).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The points of the whole kata, split evenly over the stages.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(8..=10_000))]
    pub points: u32,
}

pub(super) fn run(root: &Root, platform: &Platform) -> Result<ExitCode> {
    match platform {
        Platform::Classroom(options) => {
            let written = classroom::write(&options.out, options.points)?;
            for path in written {
                println!("wrote {}", path.display());
            }
        }
        Platform::Gradescope(options) => {
            let (zip, size) = gradescope::write(root.path(), options)?;
            println!(
                "wrote {} ({:.1} MB{}); upload it as the assignment's autograder",
                zip.display(),
                size as f64 / 1e6,
                if options.no_vendor {
                    ", crates not vendored: setup fetches them"
                } else {
                    ""
                }
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

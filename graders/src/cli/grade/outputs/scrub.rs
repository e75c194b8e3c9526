//! The instructor's folders kept out of what a student reads: cut from compiler errors
//! failure details and printed lines before a report is written.

use std::path::Path;

use crate::cli::grade::model::StageGrade;

/// Cuts the instructor's folders out of compiler errors, failure details and printing.
pub fn scrub_paths(stages: &mut [StageGrade], folders: &[&Path]) {
    for stage in stages {
        if let Some(errors) = &mut stage.errors {
            *errors = scrub(errors, folders);
        }
        for line in &mut stage.printed {
            line.text = scrub(&line.text, folders);
        }
        for check in &mut stage.checks {
            if let Some(failure) = &mut check.failure {
                failure.detail = scrub(&failure.detail, folders);
            }
        }
    }
}

/// `text` with each of `folders` (and what follows it up to the next `/`) cut, so that
/// `/home/teacher/kata/target/byo-grade/workspace/stages/..` reads `stages/..`.
pub fn scrub(text: &str, folders: &[&Path]) -> String {
    let mut text = text.to_owned();
    for folder in folders {
        let prefix = folder.display().to_string();
        if prefix.len() > 1 {
            text = text
                .replace(&format!("{prefix}/"), "")
                .replace(&prefix, ".");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instructors_folders_do_not_show() {
        let workspace = Path::new("/home/t/kata/target/byo-grade/workspace");
        let text = "error: --> /home/t/kata/target/byo-grade/workspace/stages/03-p/src/lib.rs:3\n\
                    Compiling stage03 (/home/t/kata/target/byo-grade/workspace)";
        assert_eq!(
            scrub(text, &[workspace]),
            "error: --> stages/03-p/src/lib.rs:3\nCompiling stage03 (.)"
        );
    }
}

//! The submission folder Gradescope hands `run_autograder`, made from this repository:
//! the skeletons, the references' sources over them or not, and a fixture's files.

use std::fs;
use std::path::Path;

use super::repo;

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &dest);
        } else {
            fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// The submission folder Gradescope would make: the skeletons, optionally with every
/// reference's `src/` over them, then `fixture`'s files.
pub fn submission(into: &Path, references: bool, fixture: Option<&str>) {
    copy_tree(&repo().join("stages"), &into.join("stages"));
    if references {
        for entry in fs::read_dir(repo().join("solutions")).unwrap() {
            let name = entry.unwrap().file_name();
            let stage = into.join("stages").join(&name);
            if stage.is_dir() {
                copy_tree(
                    &repo().join("solutions").join(&name).join("src"),
                    &stage.join("src"),
                );
            }
        }
    }
    if let Some(fixture) = fixture {
        copy_tree(&repo().join("graders/tests/fixtures").join(fixture), into);
    }
}

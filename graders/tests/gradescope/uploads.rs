//! Uploads `run_autograder` cannot grade, each told why in `results.json`: a symbolic
//! link where the sources should be, two kata folders, nothing gradable. Run after
//! `setup.sh`, through the script's own path, as Gradescope runs it.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use serde_json::Value;

use super::schema::check_schema;
use super::script;
use super::submission::submission;

/// An upload: its name, how it is made in the submission folder, and what its results
/// must say.
type Upload<'a> = (&'a str, &'a dyn Fn(&Path), &'a [&'a str]);

/// Each upload, made in the submission folder, and what its results must say.
pub fn uploads_that_cannot_be_graded_say_why(root: &Path) {
    let upload = root.join("submission");
    let cases: [Upload<'_>; 4] = [
        (
            "src is a symbolic link",
            &|into: &Path| {
                submission(into, true, None);
                let src = into.join("stages/01-dataflow/src");
                fs::rename(&src, into.join("elsewhere")).unwrap();
                symlink("../../elsewhere", &src).unwrap();
            },
            &["symbolic link", "stages/01-dataflow/src"],
        ),
        (
            "stages is a symbolic link",
            &|into: &Path| {
                submission(&into.join("real"), true, None);
                symlink("real/stages", into.join("stages")).unwrap();
            },
            &["symbolic link", "(stages)"],
        ),
        (
            "two kata folders",
            &|into: &Path| {
                submission(&into.join("kata-one"), true, None);
                submission(&into.join("kata-two"), false, None);
            },
            &["2 kata folders", "kata-one, kata-two", "only one"],
        ),
        (
            "nothing gradable",
            &|into: &Path| {
                fs::create_dir_all(into.join("stages/01-dataflow")).unwrap();
                fs::write(into.join("stages/01-dataflow/notes.txt"), "hello").unwrap();
            },
            &["no stage sources", "nothing to grade"],
        ),
    ];
    for (name, make, says) in cases {
        for dir in ["submission", "results"] {
            let _ = fs::remove_dir_all(root.join(dir));
        }
        fs::create_dir_all(&upload).unwrap();
        make(&upload);
        let run = script(root, "run_autograder");
        let log = format!(
            "{name}:\n{}\n{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(run.status.success(), "{log}");
        let text = fs::read_to_string(root.join("results/results.json"))
            .unwrap_or_else(|e| panic!("no results.json ({e}): {log}"));
        let results: Value = serde_json::from_str(&text).unwrap();
        check_schema(&results);
        assert_eq!(results["score"].as_f64(), Some(0.0), "{name}: {text}");
        assert_eq!(results["tests"], Value::Array(Vec::new()), "{name}: {text}");
        let output = results["output"].as_str().unwrap();
        for phrase in says {
            assert!(output.contains(phrase), "{name}: {phrase:?} in {output}");
        }
        assert!(!output.contains("0 file"), "{name}: said plainly: {output}");
    }
}

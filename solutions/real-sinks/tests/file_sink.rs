//! The file sink's verbs on a real filesystem: publish, idempotent commit, orphan sweep.

mod common;

use std::fs;

use committer::{
    AbortOutcome, CommitOutcome, CommittingSink, OpenContext, RunToken, SubtaskId, Succession,
};
use real_sinks::file::{FileSink, Layout, StagedFile, read_complete};

fn open(sink: &mut FileSink, run: u64, pending: &[(u64, StagedFile)]) {
    let me = SubtaskId::new(0, 1).unwrap();
    let names = ["files".to_owned()];
    let context = OpenContext {
        job: "files",
        names: &names,
        generation: run,
        run_token: RunToken(run),
        succession: Succession::new(me, 128).unwrap(),
        // These tests restore the checkpoint of the newest handle they hand over.
        restored: pending.iter().map(|(checkpoint, _)| *checkpoint).max(),
        pending,
    };
    sink.on_open(&context).unwrap();
}

#[test]
fn a_checkpoint_is_invisible_until_committed_and_committing_twice_changes_nothing() {
    let root = common::scratch("publish");
    let layout = Layout::new(&root, "files").unwrap();
    let mut sink = FileSink::new(layout.clone());
    open(&mut sink, 1, &[]);
    sink.write("0\ta".into()).unwrap();
    sink.write("1\tb".into()).unwrap();
    let name = sink.prepare_commit(1).unwrap().unwrap();
    assert_eq!(
        fs::read_dir(layout.output()).unwrap().count(),
        0,
        "prepared is invisible"
    );
    assert_eq!(sink.commit(&name).unwrap(), CommitOutcome::Committed);
    assert_eq!(sink.commit(&name).unwrap(), CommitOutcome::AlreadyCommitted);
    assert_eq!(
        read_complete(&layout.published(&name.name)).unwrap(),
        ["0\ta", "1\tb"]
    );
    assert!(
        sink.abort(&name).is_err(),
        "a published file cannot be aborted"
    );
    assert_eq!(
        sink.prepare_commit(2).unwrap(),
        None,
        "an empty epoch stages nothing"
    );
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn open_sweeps_orphans_and_in_progress_files_but_keeps_restored_handles() {
    let root = common::scratch("sweep");
    let layout = Layout::new(&root, "files").unwrap();
    let mut crashed = FileSink::new(layout.clone());
    open(&mut crashed, 1, &[]);
    crashed.write("0\ta".into()).unwrap();
    let kept = crashed.prepare_commit(1).unwrap().unwrap();
    crashed.write("1\tb".into()).unwrap();
    let orphan = crashed.prepare_commit(2).unwrap().unwrap();
    crashed.write("2\tc".into()).unwrap(); // left in progress by the "crash"
    drop(crashed);

    let mut next = FileSink::new(layout.clone());
    open(&mut next, 2, &[(1, kept.clone())]);
    let left: Vec<String> = fs::read_dir(layout.staging())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, [real_sinks::file::file_name(&kept.name)]);
    assert_eq!(next.abort(&orphan).unwrap(), AbortOutcome::AlreadyAborted);
    assert_eq!(next.recover(&kept).unwrap(), CommitOutcome::Committed);
    assert!(
        next.commit(&orphan)
            .unwrap_err()
            .to_string()
            .contains("records are lost"),
        "committing a discarded handle is data loss, not a success"
    );
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn bad_records_and_job_names_are_refused_by_name() {
    assert!(Layout::new(std::path::Path::new("/tmp"), "Bad/Job").is_err());
    let root = common::scratch("refuse");
    let mut sink = FileSink::new(Layout::new(&root, "files").unwrap());
    assert!(
        sink.write("x".into())
            .unwrap_err()
            .to_string()
            .contains("before on_open")
    );
    open(&mut sink, 1, &[]);
    assert!(sink.write("#end 3".into()).is_err());
    assert!(sink.write("a\nb".into()).is_err());
    fs::remove_dir_all(&root).unwrap();
}

/// A staged file damaged while the job was down (truncated to half, or one digit
/// changed) is refused at its commit, naming the file, instead of published as it is.
#[test]
fn a_staged_file_damaged_while_it_waited_is_refused_by_name() {
    let root = common::scratch("damaged");
    let layout = Layout::new(&root, "files").unwrap();
    let mut sink = FileSink::new(layout.clone());
    open(&mut sink, 1, &[]);
    let mut stage = |checkpoint, records: &[&str]| {
        for record in records {
            sink.write((*record).into()).unwrap();
        }
        sink.prepare_commit(checkpoint).unwrap().unwrap()
    };
    let truncated = stage(1, &["0\ta", "1\tb", "2\tc"]);
    let changed = stage(2, &["3\td"]);
    let path = layout.prepared(&truncated.name);
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let text = fs::read_to_string(layout.prepared(&changed.name)).unwrap();
    fs::write(layout.prepared(&changed.name), text.replace('3', "4")).unwrap();

    let mut next = FileSink::new(layout.clone());
    for handle in [&truncated, &changed] {
        let refused = next.recover(handle).unwrap_err().to_string();
        assert!(refused.contains("refusing to publish"), "{refused}");
        assert!(refused.contains(&layout.prepared(&handle.name).display().to_string()));
        assert!(
            !layout.published(&handle.name).exists(),
            "a damaged file was published"
        );
    }
    fs::remove_dir_all(&root).unwrap();
}

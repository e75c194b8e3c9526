//! Checkpoint integrity: each way of tampering with `checkpoint.json` next to existing
//! output is refused loudly, before the run writes anything, on every sink.

mod common;

use std::fs;
use std::path::Path;

use committer::{InMemoryOperatorState, OperatorStateBackend};
use real_sinks::crash::Verifier;
use real_sinks::job::{Checkpoint, CheckpointStore, JobConfig, SinkKind, run_with};
use rstest::rstest;

#[derive(Debug, Clone, Copy)]
enum Tampering {
    Deleted,
    OffsetEdited,
    OlderValidCopy,
}

impl Tampering {
    /// Does it to the job in `dir`, and says what the refusal must mention.
    fn apply(self, dir: &Path, parallelism: u32) -> &'static str {
        let path = dir.join("checkpoint.json");
        match self {
            Tampering::Deleted => {
                fs::remove_file(&path).unwrap();
                "has no checkpoint.json"
            }
            Tampering::OffsetEdited => {
                let text = fs::read_to_string(&path).unwrap();
                let edited = text.replace("\"offset\":3000", "\"offset\":1000");
                assert_ne!(text, edited, "no offset to edit in {text}");
                fs::write(&path, edited).unwrap();
                "checksum mismatch"
            }
            Tampering::OlderValidCopy => {
                let empty = InMemoryOperatorState::new().snapshot().unwrap();
                CheckpointStore::new(dir)
                    .complete(&Checkpoint {
                        id: 2,
                        offset: 100,
                        snapshots: vec![empty; parallelism as usize],
                    })
                    .unwrap();
                "older than checkpoint 60"
            }
        }
    }
}

#[rstest]
fn a_tampered_checkpoint_is_refused(
    #[values(SinkKind::File, SinkKind::Xa, SinkKind::Upsert)] sink: SinkKind,
    #[values(Tampering::Deleted, Tampering::OffsetEdited, Tampering::OlderValidCopy)]
    tampering: Tampering,
) {
    let name = format!("integrity-{sink}-{tampering:?}").to_lowercase();
    let pg = if sink.needs_postgres() {
        match common::postgres(&name) {
            Some(pg) => Some(pg),
            None => return,
        }
    } else {
        None
    };
    let dir = common::scratch(&name);
    let config = JobConfig {
        job: format!("{name}-{}", std::process::id()),
        sink,
        records: 3000,
        parallelism: 2,
        barrier_every: 50,
        commit_lag: 1,
        seed: 5,
    };
    let mut verifier = Verifier::new(&dir, &config, pg.as_deref()).unwrap();
    verifier.purge().unwrap();
    run_with(&dir, &config, pg.as_deref(), &mut std::io::sink()).unwrap();
    verifier.at_end().unwrap();

    // As if the run had been killed before it marked the input done.
    fs::remove_file(dir.join("done")).unwrap();
    let expected = tampering.apply(&dir, config.parallelism);
    let refused = run_with(&dir, &config, pg.as_deref(), &mut std::io::sink()).unwrap_err();
    let message = format!("{refused:#}");
    assert!(message.contains(expected), "{tampering:?}: {message}");
    verifier.at_end().unwrap();
    let _ = fs::remove_dir_all(&dir);
}

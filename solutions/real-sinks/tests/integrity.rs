//! Checkpoint integrity: each way of tampering with the checkpoint files (or the
//! folder's history) next to existing output is refused loudly, before the run writes
//! anything, on every sink: deleted, an offset edited (with or without its checksum
//! recomputed), the latest removed so an older valid one is left, another history.

mod common;

use std::fs;
use std::path::Path;

use real_sinks::crash::Verifier;
use real_sinks::job::{JobConfig, SinkKind, checkpoint_files, run_with};
use rstest::rstest;

#[derive(Debug, Clone, Copy)]
enum Tampering {
    Deleted,
    OffsetEdited,
    OffsetEditedWithRecomputedChecksum,
    OlderValidCopy,
    ForeignHistory,
}

impl Tampering {
    /// Whether the checkpoint before the latest is left to fall back to.
    fn leaves_the_one_before(self) -> bool {
        matches!(
            self,
            Tampering::OffsetEdited
                | Tampering::OffsetEditedWithRecomputedChecksum
                | Tampering::OlderValidCopy
        )
    }

    /// Does it to the job in `dir`, and says what the refusal must mention.
    fn apply(self, dir: &Path) -> &'static str {
        let files = checkpoint_files(dir).unwrap();
        let latest = &files[0].2;
        let edit = |text: &str| {
            let edited = text.replace("\"offset\":3000", "\"offset\":1000");
            assert_ne!(text, edited, "no offset to edit in {text}");
            edited
        };
        match self {
            Tampering::Deleted => {
                fs::remove_dir_all(dir.join("checkpoints")).unwrap();
                "has no checkpoint"
            }
            Tampering::OffsetEdited => {
                let text = fs::read_to_string(latest).unwrap();
                fs::write(latest, edit(&text)).unwrap();
                "was damaged"
            }
            Tampering::OffsetEditedWithRecomputedChecksum => {
                // The edit an operator who read the format would make: the body changed
                // and its checksum recomputed, without the key only the destination has.
                let text = fs::read_to_string(latest).unwrap();
                let (header, body) = text.split_once('\n').unwrap();
                let body = edit(body);
                let unkeyed = body.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, b| {
                    (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
                });
                let (kept, _) = header.split_once(" seal=").unwrap();
                fs::write(latest, format!("{kept} seal={unkeyed:016x}\n{body}")).unwrap();
                "was damaged"
            }
            Tampering::OlderValidCopy => {
                // Only the checkpoint before the latest is left, whole and sealed.
                fs::remove_file(latest).unwrap();
                "older than checkpoint 60"
            }
            Tampering::ForeignHistory => {
                fs::write(dir.join("lineage"), "0000000000000bad\n").unwrap();
                "belongs to the history"
            }
        }
    }
}

#[rstest]
fn a_tampered_checkpoint_is_refused(
    #[values(SinkKind::File, SinkKind::Xa, SinkKind::Upsert)] sink: SinkKind,
    #[values(
        Tampering::Deleted,
        Tampering::OffsetEdited,
        Tampering::OffsetEditedWithRecomputedChecksum,
        Tampering::OlderValidCopy,
        Tampering::ForeignHistory
    )]
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
    let expected = tampering.apply(&dir);
    let rerun = run_with(&dir, &config, pg.as_deref(), &mut std::io::sink());
    match rerun {
        // The upsert sink may replay the checkpoint before the latest (its statements
        // are keyed, and its mark allows one checkpoint ahead): the table converges.
        Ok(_) if sink == SinkKind::Upsert && tampering.leaves_the_one_before() => {}
        Ok(_) => panic!("{tampering:?} was not refused"),
        Err(refused) => {
            let message = format!("{refused:#}");
            assert!(message.contains(expected), "{tampering:?}: {message}");
        }
    }
    verifier.at_end().unwrap();
    let _ = fs::remove_dir_all(&dir);
}

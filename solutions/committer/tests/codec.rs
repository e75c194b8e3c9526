//! A handle's versioned envelope: its version as four bytes, then the committable as
//! JSON; a handle an older version wrote is upgraded by its sink, and bytes that are no
//! envelope, or of a version nobody knows, are refused with what is wrong.

use committer::connectors::{StagedArtifactSink, StagedName};
use committer::{
    AbortOutcome, CommitOutcome, CommittingSink, Mechanism, OpenContext, OpenTransaction, RunToken,
    SubtaskId, decode, encode,
};

#[test]
fn a_committable_round_trips_through_its_versioned_envelope() {
    let name = StagedName {
        job: "orders".to_owned(),
        author: SubtaskId::new(1, 2).unwrap(),
        run: RunToken(3),
        checkpoint: 4,
    };
    let bytes = encode::<StagedArtifactSink<u32>>(&name).unwrap();
    let (version, json) = bytes.split_at(4);
    assert_eq!(
        version,
        1_u32.to_le_bytes(),
        "the version, first and fixed-size"
    );
    assert!(String::from_utf8_lossy(json).starts_with("{\"job\":\"orders\""));
    assert_eq!(decode::<StagedArtifactSink<u32>>(&bytes).unwrap(), name);
}

#[test]
fn a_committable_of_an_unknown_version_is_refused_by_name() {
    let mut bytes = 9_u32.to_le_bytes().to_vec();
    bytes.extend_from_slice(br#""x""#);
    let error = decode::<StagedArtifactSink<u32>>(&bytes)
        .unwrap_err()
        .to_string();
    assert!(error.contains("committable version 9"), "{error}");
}

/// A sink whose handle changed shape: version 1 named its field `checkpoint`, version 2
/// names it `id`. Only its handle matters here; its verbs are never called.
struct Reshaped;

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct HandleV2 {
    id: u64,
}

impl CommittingSink for Reshaped {
    type Record = u32;
    type Committable = HandleV2;
    const MECHANISM: Mechanism = Mechanism::TwoPhaseTransaction;
    const COMMITTABLE_VERSION: u32 = 2;

    fn on_open(&mut self, _: &OpenContext<'_, HandleV2>) -> anyhow::Result<()> {
        Ok(())
    }
    fn write(&mut self, _: u32) -> anyhow::Result<()> {
        Ok(())
    }
    fn open_transaction(&self) -> OpenTransaction {
        OpenTransaction::Empty
    }
    fn prepare_commit(&mut self, id: u64) -> anyhow::Result<Option<HandleV2>> {
        Ok(Some(HandleV2 { id }))
    }
    fn commit(&mut self, _: &HandleV2) -> anyhow::Result<CommitOutcome> {
        Ok(CommitOutcome::Committed)
    }
    fn abort(&mut self, _: &HandleV2) -> anyhow::Result<AbortOutcome> {
        Ok(AbortOutcome::Aborted)
    }
    fn upgrade_committable(version: u32, raw: serde_json::Value) -> anyhow::Result<HandleV2> {
        anyhow::ensure!(version == 1, "no version {version}");
        let id = raw["checkpoint"]
            .as_u64()
            .ok_or(anyhow::anyhow!("no checkpoint"))?;
        Ok(HandleV2 { id })
    }
}

#[test]
fn a_handle_an_older_version_wrote_is_upgraded_by_its_sink() {
    let mut v1 = 1_u32.to_le_bytes().to_vec();
    v1.extend_from_slice(br#"{"checkpoint":7}"#);
    assert_eq!(decode::<Reshaped>(&v1).unwrap(), HandleV2 { id: 7 });
    let v2 = encode::<Reshaped>(&HandleV2 { id: 8 }).unwrap();
    assert_eq!(v2[..4], 2_u32.to_le_bytes());
    assert_eq!(decode::<Reshaped>(&v2).unwrap(), HandleV2 { id: 8 });
}

#[test]
fn a_handle_that_is_not_an_envelope_is_refused_with_what_is_wrong() {
    let error = |bytes: &[u8]| format!("{:#}", decode::<Reshaped>(bytes).unwrap_err());
    assert!(error(&[2, 0, 0]).contains("shorter than its envelope's version"));
    let current = [&2_u32.to_le_bytes()[..], br#"{"checkpoint":7}"#].concat();
    assert!(error(&current).contains("does not match committable version 2"));
    let older = [&1_u32.to_le_bytes()[..], b"not json"].concat();
    assert!(error(&older).contains("of version 1 is not JSON"));
}

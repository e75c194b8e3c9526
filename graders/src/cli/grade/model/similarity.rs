//! How much of a stage's learner-written code is found elsewhere: its winnowed
//! fingerprints, and, against the reference, the graders' oracles or another submission,
//! the share found there and the regions that match, by file and lines on both sides.
//! Flagged only: the score is the instructor's to decide.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One stage of a submission, compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageSimilarity {
    /// The stage's number.
    pub stage: u8,
    /// The fingerprints of what the learner wrote (given code removed), which the cohort
    /// compares with every other submission's when the gradebook is assembled.
    pub prints: Prints,
    /// The share of them found in the reference, then in the graders' oracles of the
    /// stage (when it has any).
    pub against: Vec<Likeness>,
}

/// One side of a comparison: its files (paths from the repository's root) and their
/// fingerprints, in file order, then in the order they occur.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prints {
    /// The files, which each fingerprint names by index.
    pub files: Vec<String>,
    /// The fingerprints, as `hash:file:first-last` (hex, then decimal) in one string:
    /// thousands of them per submission, which `report.json` would otherwise spread over
    /// a line each.
    #[serde(serialize_with = "packed", deserialize_with = "unpacked")]
    pub prints: Vec<Print>,
}

/// A fingerprint: the hash of one k-gram of normalised tokens, where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Print {
    /// The hash of the k-gram.
    pub hash: u64,
    /// Its file, an index into [`Prints::files`].
    pub file: u32,
    /// The line its first token starts on (from 1).
    pub first: u32,
    /// The line its last token starts on.
    pub last: u32,
}

/// How much of one side is found in another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Likeness {
    /// What was compared with: `the reference`, `the graders' oracles`, or a submission.
    pub other: String,
    /// The share of the learner's fingerprints found in the other side, 0 to 1.
    pub share: f64,
    /// How many of them were found.
    pub shared: usize,
    /// Whether the share and the count reach the flag's threshold.
    pub flagged: bool,
    /// The regions that match, most fingerprints first.
    pub regions: Vec<Region>,
}

/// A run of matching fingerprints: lines of a learner's file and of the other side's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    /// The learner's file.
    pub file: String,
    /// Its first and last lines.
    pub lines: [u32; 2],
    /// The other side's file.
    pub other_file: String,
    /// Its first and last lines.
    pub other_lines: [u32; 2],
    /// How many fingerprints match in it.
    pub prints: usize,
}

impl Likeness {
    /// `97% in the reference (412 fingerprints)`.
    pub fn summary(&self) -> String {
        format!(
            "{:.0}% in {} ({} fingerprint(s))",
            100.0 * self.share,
            self.other,
            self.shared
        )
    }
}

impl Likeness {
    /// The summary, then where the first `regions` regions are: plain text, for a page
    /// to make inert its own way.
    pub fn described(&self, regions: usize) -> String {
        let mut parts = vec![self.summary()];
        parts.extend(self.regions.iter().take(regions).map(Region::shown));
        parts.join("; ")
    }
}

impl Region {
    /// `sink.rs:10-42 ~ solutions/.../sink.rs:12-45`.
    pub fn shown(&self) -> String {
        format!(
            "{}:{}-{} ~ {}:{}-{}",
            self.file,
            self.lines[0],
            self.lines[1],
            self.other_file,
            self.other_lines[0],
            self.other_lines[1]
        )
    }
}

fn packed<S: Serializer>(prints: &[Print], to: S) -> Result<S::Ok, S::Error> {
    let text: Vec<String> = prints
        .iter()
        .map(|p| format!("{:x}:{}:{}-{}", p.hash, p.file, p.first, p.last))
        .collect();
    to.serialize_str(&text.join(" "))
}

fn unpacked<'de, D: Deserializer<'de>>(from: D) -> Result<Vec<Print>, D::Error> {
    let text = String::deserialize(from)?;
    text.split_whitespace()
        .map(|one| {
            let parse = || -> Option<Print> {
                let (hash, rest) = one.split_once(':')?;
                let (file, lines) = rest.split_once(':')?;
                let (first, last) = lines.split_once('-')?;
                Some(Print {
                    hash: u64::from_str_radix(hash, 16).ok()?,
                    file: file.parse().ok()?,
                    first: first.parse().ok()?,
                    last: last.parse().ok()?,
                })
            };
            parse().ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "a fingerprint is `hash:file:first-last`, not {one:?}"
                ))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_survive_report_json_and_a_broken_one_is_named() {
        let prints = Prints {
            files: vec!["stages/01-a/src/lib.rs".to_owned()],
            prints: vec![
                Print {
                    hash: u64::MAX,
                    file: 0,
                    first: 3,
                    last: 4,
                },
                Print {
                    hash: 0x2a,
                    file: 0,
                    first: 9,
                    last: 9,
                },
            ],
        };
        let json = serde_json::to_string(&prints).expect("serialises");
        assert!(
            json.contains("\"ffffffffffffffff:0:3-4 2a:0:9-9\""),
            "{json}"
        );
        let back: Prints = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, prints);
        let broken = json.replace("2a:0:9-9", "2a:0:9");
        let error = serde_json::from_str::<Prints>(&broken).expect_err("refused");
        assert!(error.to_string().contains("not \"2a:0:9\""), "{error}");
    }
}

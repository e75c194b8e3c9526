//! The instructor's roster (`--roster roster.csv`): who each submission folder belongs to,
//! so every output carries the student's id to join with a learning platform's gradebook.
//!
//! The file is CSV with a header row naming at least `student_id`, `name` and `folder`
//! (in any order; other columns are ignored). `folder` is the submission's folder name, as
//! `byo grade` names its report folder.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::cli::grade::model::Student;

/// The roster, by folder name.
#[derive(Debug, Default)]
pub struct Roster {
    by_folder: BTreeMap<String, Student>,
}

impl Roster {
    /// Reads `path`.
    ///
    /// # Errors
    /// When it cannot be read, lacks one of the three columns, or names a folder or a
    /// student id twice (one of the two rows would be silently wrong).
    pub fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read(path)
            .with_context(|| format!("--roster {}: cannot be read", path.display()))?;
        Self::parse(&text).with_context(|| format!("--roster {}", path.display()))
    }

    fn parse(text: &[u8]) -> Result<Self> {
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(text);
        let headers = reader.headers().context("no header row")?.clone();
        let column = |name: &str| {
            headers
                .iter()
                .position(|h| h.trim().eq_ignore_ascii_case(name))
                .with_context(|| format!("the header row has no `{name}` column"))
        };
        let (id, name, folder) = (column("student_id")?, column("name")?, column("folder")?);
        let mut roster = Self::default();
        let mut ids = BTreeMap::new();
        for (line, row) in (2..).zip(reader.records()) {
            let row = row.with_context(|| format!("line {line} is not CSV"))?;
            let cell = |i: usize| row.get(i).unwrap_or("").trim().to_owned();
            let student = Student {
                id: cell(id),
                name: cell(name),
            };
            let folder = cell(folder);
            if student.id.is_empty() || folder.is_empty() {
                bail!("line {line} has no student_id or no folder");
            }
            if let Some(first) = ids.insert(student.id.clone(), line) {
                bail!("student_id {} is on lines {first} and {line}", student.id);
            }
            if roster.by_folder.insert(folder.clone(), student).is_some() {
                bail!("folder {folder} is named twice (again on line {line})");
            }
        }
        Ok(roster)
    }

    /// The student whose folder is `folder`.
    pub fn student(&self, folder: &str) -> Option<&Student> {
        self.by_folder.get(folder)
    }

    /// The roster's folders that are not among `graded`: students with no submission.
    pub fn missing<'a>(&'a self, graded: &[String]) -> Vec<&'a str> {
        self.by_folder
            .keys()
            .filter(|f| !graded.contains(f))
            .map(String::as_str)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roster_maps_folders_to_students_in_any_column_order() {
        let roster = Roster::parse(
            b"folder,name,student_id,email\nada-l,\"Lovelace, Ada\",s001,a@x\nbob,Bob,s002,\n",
        )
        .unwrap();
        let ada = roster.student("ada-l").unwrap();
        assert_eq!(
            (ada.id.as_str(), ada.name.as_str()),
            ("s001", "Lovelace, Ada")
        );
        assert!(roster.student("carol").is_none());
        assert_eq!(roster.missing(&["bob".to_owned()]), ["ada-l"]);
    }

    #[test]
    fn a_roster_that_would_misattribute_a_grade_is_refused_naming_the_line() {
        let err = |text: &str| format!("{:#}", Roster::parse(text.as_bytes()).unwrap_err());
        assert!(err("id,name,folder\n").contains("no `student_id` column"));
        assert!(err("student_id,name,folder\ns1,A,a\ns1,B,b\n").contains("s1 is on lines 2 and 3"));
        assert!(
            err("student_id,name,folder\ns1,A,a\ns2,B,a\n").contains("folder a is named twice")
        );
        assert!(err("student_id,name,folder\n,A,a\n").contains("line 2 has no student_id"));
    }
}

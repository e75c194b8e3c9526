//! The attacker's disguises of the real references and oracles, applied in code: one
//! field renamed and one item added, one `println!` added per file, an oracle copied into
//! its stage, and (past them) a statement added after every fourth line. Each must be
//! flagged on every stage; `--nocapture` prints the figures the module documentation
//! quotes.

use super::measure::{repository, shown};
use super::*;
use crate::cli::grade::intake::tokens::{Token, tokens_by_line};
use crate::cli::grade::model::Likeness;

/// Each file of stage `number`'s reference, as the learner's, through `disguise`.
fn disguised(root: &Path, number: u8, disguise: impl Fn(&str, &str) -> String) -> StageSimilarity {
    let stage = crate::stages::get(number).expect("a stage");
    let folder = stage.folder();
    let work = tempfile::tempdir().expect("temp dir");
    for (path, text) in sources(root, &format!("solutions/{folder}/src")) {
        let rel = path.replacen("solutions/", "stages/", 1);
        let to = work.path().join(&rel);
        fs::create_dir_all(to.parent().expect("in src")).expect("mkdir");
        fs::write(to, disguise(&rel, &text)).expect("write");
    }
    of_stages(root, work.path(), &[stage]).remove(0)
}

/// The first field of the first struct with named fields in `files`.
fn first_field(files: &BTreeMap<String, String>) -> Option<String> {
    files.values().find_map(|text| {
        let tokens: Vec<Token> = tokens_by_line(text).into_iter().map(|(t, _)| t).collect();
        let structs = tokens
            .iter()
            .enumerate()
            .filter(|(_, t)| **t == Token::Ident("struct".to_owned()));
        structs.into_iter().find_map(|(at, _)| {
            let body = at
                + tokens[at..]
                    .iter()
                    .position(|t| matches!(t, Token::Punct('{' | ';' | '(')))?;
            (tokens[body] == Token::Punct('{')).then_some(())?;
            tokens[body..].windows(2).find_map(|w| match w {
                [Token::Ident(field), Token::Punct(':')] => Some(field.clone()),
                _ => None,
            })
        })
    })
}

/// `text` with the identifier `from` renamed `to` wherever it is a whole word.
fn renamed(text: &str, from: &str, to: &str) -> String {
    let word = |c: char| c == '_' || c.is_alphanumeric();
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let before = rest[..at].chars().last().or_else(|| out.chars().last());
        let after = rest[at + from.len()..].chars().next();
        out.push_str(&rest[..at]);
        let whole = !before.is_some_and(word) && !after.is_some_and(word);
        out.push_str(if whole { to } else { from });
        rest = &rest[at + from.len()..];
    }
    out + rest
}

fn by_reference(s: &StageSimilarity) -> &Likeness {
    &s.against[0]
}

#[test]
fn every_real_reference_is_flagged_with_a_field_renamed_and_an_item_added() {
    let Some(root) = repository() else { return };
    let mut rows = Vec::new();
    for number in 1..=8 {
        let folder = crate::stages::get(number).expect("a stage").folder();
        let field = first_field(&sources(&root, &format!("solutions/{folder}/src")))
            .expect("a struct with a named field");
        let found = disguised(&root, number, |rel, text| {
            let text = renamed(text, &field, "renamed_field");
            if rel.ends_with("/lib.rs") {
                text + "\npub fn added(values: &[u32]) -> u32 {\n    values.iter().sum()\n}\n"
            } else {
                text
            }
        });
        let reference = by_reference(&found);
        rows.push(shown(
            &format!("{number:02} `{field}` renamed, an item added"),
            &found.against,
        ));
        assert!(reference.flagged, "stage {number:02}: {reference:?}");
    }
    eprintln!("{}", rows.join("\n"));
}

#[test]
fn every_real_reference_is_flagged_with_a_println_added_to_each_file() {
    let Some(root) = repository() else { return };
    let mut rows = Vec::new();
    for number in 1..=8 {
        let found = disguised(&root, number, |_, text| {
            // After the first line that opens a function's body.
            let mut done = false;
            let mut out = String::new();
            for line in text.lines() {
                out.push_str(line);
                out.push('\n');
                if !done && line.contains("fn ") && line.trim_end().ends_with('{') {
                    out.push_str("    println!(\"not a copy\");\n");
                    done = true;
                }
            }
            out
        });
        let reference = by_reference(&found);
        rows.push(shown(
            &format!("{number:02} a println! in each file"),
            &found.against,
        ));
        assert!(reference.flagged, "stage {number:02}: {reference:?}");
        assert!(!reference.regions.is_empty());
    }
    eprintln!("{}", rows.join("\n"));
}

#[test]
fn every_real_oracle_copied_into_its_stage_is_flagged() {
    let Some(root) = repository() else { return };
    let mut rows = Vec::new();
    for number in 1..=8 {
        let oracles = oracles(&root, number);
        if oracles.is_empty() {
            continue;
        }
        let stage = crate::stages::get(number).expect("a stage");
        let folder = stage.folder();
        // The skeleton, with the oracles laid in beside it as modules of their own.
        let work = tempfile::tempdir().expect("temp dir");
        let mut files = sources(&root, &format!("stages/{folder}/src"));
        for (path, text) in &oracles {
            let name = Path::new(path)
                .file_name()
                .expect("a file")
                .to_string_lossy();
            files.insert(format!("stages/{folder}/src/copied_{name}"), text.clone());
        }
        for (rel, text) in files {
            let to = work.path().join(rel);
            fs::create_dir_all(to.parent().expect("in src")).expect("mkdir");
            fs::write(to, text).expect("write");
        }
        let found = of_stages(&root, work.path(), &[stage]).remove(0);
        rows.push(shown(
            &format!("{number:02} the oracles copied in"),
            &found.against,
        ));
        let by_oracles = &found.against[1];
        assert!(by_oracles.flagged, "stage {number:02}: {by_oracles:?}");
        assert!(by_oracles.regions[0].other_file.contains("/oracle"));
    }
    eprintln!("{}", rows.join("\n"));
}

#[test]
fn every_real_reference_is_flagged_with_a_statement_added_after_every_fourth_line() {
    // Past the attacker's disguises: edits every few lines, which is what winnowing
    // tolerates least (every k-gram across an edit is lost).
    let Some(root) = repository() else { return };
    let mut rows = Vec::new();
    for number in 1..=8 {
        let found = disguised(&root, number, |_, text| {
            let mut out = String::new();
            for (i, line) in text.lines().enumerate() {
                out.push_str(line);
                out.push('\n');
                if i % 4 == 3 && line.trim_end().ends_with(';') {
                    out.push_str("    let _unused = 1;\n");
                }
            }
            out
        });
        let reference = by_reference(&found);
        rows.push(shown(
            &format!("{number:02} a statement after every 4th line"),
            &found.against,
        ));
        assert!(reference.flagged, "stage {number:02}: {reference:?}");
    }
    eprintln!("{}", rows.join("\n"));
}

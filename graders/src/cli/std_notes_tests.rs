//! Places in the standard library with no code under them go, with the notes that held
//! nothing else; everything else of the compiler's messages stays as rendered.

use super::without_unreadable_std;

/// rustc 1.95 without `rust-src`: a trait method not in scope.
const NOT_IN_SCOPE: &str = "\
error[E0599]: no method named `write_all` found for struct `File` in the current scope
 --> stages/01-dataflow/src/run.rs:2:7
  |
2 |     f.write_all(b\"x\");
  |       ^^^^^^^^^
  |
 --> /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/io/mod.rs:1875:7
  |
  = note: the method is available for `File` here
  |
  = help: items from traits can only be used if the trait is in scope
help: trait `Write` which provides `write_all` is implemented but not in scope; perhaps you want to import it
  |
1 + use std::io::Write;
  |
";

#[test]
fn a_place_in_the_standard_library_without_code_goes() {
    let out = without_unreadable_std(NOT_IN_SCOPE);
    assert!(!out.contains("/rustc/"), "{out}");
    assert_eq!(
        out,
        NOT_IN_SCOPE.replace(
            " --> /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/io/mod.rs:1875:7\n  |\n",
            ""
        )
    );
    assert!(out.contains("  = note: the method is available for `File` here\n"));
}

#[test]
fn the_older_triple_colon_form_goes_too() {
    let older = "\
error[E0599]: no method named `write_all` found for struct `File` in the current scope
   --> src/run.rs:2:7
    |
2   |     f.write_all(b\"x\");
    |       ^^^^^^^^^ method not found in `File`
    |
   ::: /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/io/mod.rs:1626:8
    |
    = note: the method is available for `File` here
";
    let out = without_unreadable_std(older);
    assert!(!out.contains(":::"), "{out}");
    assert!(out.ends_with("    |\n    = note: the method is available for `File` here\n"));
}

#[test]
fn a_note_that_only_said_where_goes_and_one_that_says_more_stays() {
    let mismatched = "\
error[E0308]: mismatched types
 --> src/run.rs:5:12
  |
5 |     w.push(\"a\");
  |       ---- ^^^ expected `u8`, found `&str`
  |
note: method defined here
 --> /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/alloc/src/vec/mod.rs:991:11

error[E0277]: the trait bound `K: Eq` is not satisfied
 --> src/run.rs:6:7
  |
note: required by a bound in `HashMap::<K, V, S, A>::insert`
 --> /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/collections/hash/map.rs:1295:4
help: consider annotating `K` with `#[derive(Eq)]`
";
    let out = without_unreadable_std(mismatched);
    assert!(
        !out.contains("/rustc/") && !out.contains("defined here"),
        "{out}"
    );
    assert!(out.contains("  |\n\nerror[E0277]"), "{out}");
    assert!(
        out.contains("note: required by a bound in `HashMap::<K, V, S, A>::insert`\nhelp:"),
        "{out}"
    );
}

#[test]
fn with_the_sources_installed_the_code_is_shown_and_kept() {
    let installed = "\
note: method defined here
   --> /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/alloc/src/vec/mod.rs:991:11
    |
991 |     pub fn push(&mut self, value: T) {
    |            ^^^^
";
    assert_eq!(without_unreadable_std(installed), installed);
    let own = "warning: unused variable: `x`\n --> stages/01-dataflow/src/lib.rs:3:9\n  |\n";
    assert_eq!(without_unreadable_std(own), own);
}

#[test]
fn a_build_error_as_watch_and_test_show_it_has_no_empty_std_place() {
    let stderr = format!(
        "   Compiling stage01 v0.1.0 (/k/stages/01-dataflow)\n{NOT_IN_SCOPE}\n\
         error: could not compile `stage01` (lib) due to 1 previous error\n"
    );
    let shown = crate::cli::compiler_errors::trim_errors(&stderr);
    assert!(
        shown.starts_with("error[E0599]: no method named `write_all`"),
        "{shown}"
    );
    assert!(
        shown.contains("= note: the method is available for `File` here"),
        "{shown}"
    );
    assert!(!shown.contains("/rustc/"), "{shown}");
}

//! The `byo` command line, pinned with trycmd: usage, and a one-line error naming the
//! argument for every kind of bad input.

#[test]
fn cli_transcripts() {
    trycmd::TestCases::new().case("tests/cmd/*.trycmd");
}

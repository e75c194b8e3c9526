//! The bounded, placed record of printed lines: head and tail, replays, merges, runs.

use super::*;

fn texts(printed: &Printed) -> Vec<String> {
    printed.lines().into_iter().map(|l| l.text).collect()
}

#[test]
fn printing_keeps_head_and_tail_and_says_what_it_left_out() {
    let mut printed = Printed::default();
    for i in 0..100 {
        printed.push(0, Some(0), None, format!("line {i}"));
    }
    let lines = texts(&printed);
    assert_eq!(lines.len(), HEAD_LINES + 1 + TAIL_LINES);
    assert_eq!(lines[0], "line 0");
    let left_out = HEAD_LINES..100 - TAIL_LINES;
    let bytes: usize = left_out.clone().map(|i| format!("line {i}").len()).sum();
    assert_eq!(
        lines[HEAD_LINES],
        format!(
            "[... {} more lines ({bytes} bytes) not shown ...]",
            left_out.len()
        )
    );
    assert_eq!(lines.last().map(String::as_str), Some("line 99"));
}

#[test]
fn a_replay_of_one_case_keeps_more_lines() {
    let mut printed = Printed::for_replay();
    let all = REPLAY_HEAD_LINES + REPLAY_TAIL_LINES;
    for i in 0..=all {
        printed.push(0, Some(0), None, format!("line {i}"));
    }
    let lines = texts(&printed);
    assert_eq!(lines.len(), all + 1, "one line left out, and said so");
    assert_eq!(
        lines[REPLAY_HEAD_LINES],
        "[... 1 more lines (7 bytes) not shown ...]"
    );
    let merged = Printed::merge([printed]);
    assert_eq!(texts(&merged), lines, "a merge keeps the replay's bounds");
}

#[test]
fn records_of_interleaved_shares_merge_into_the_record_of_one_driver() {
    // Case c prints `c % 7` lines; one driver runs every case, two split them.
    let print = |printed: &mut Printed, case: usize| {
        for line in 0..case % 7 {
            let run = format!("run {line}");
            printed.push(case, Some(case), Some(&run), format!("{case}.{line}"));
        }
    };
    for cases in [3, 5, 40] {
        let mut one = Printed::default();
        let (mut even, mut odd) = (Printed::default(), Printed::default());
        for case in 0..cases {
            print(&mut one, case);
            print(if case % 2 == 0 { &mut even } else { &mut odd }, case);
        }
        assert_eq!(
            Printed::merge([even, odd]).lines(),
            one.lines(),
            "{cases} cases"
        );
    }
}

#[test]
fn a_runs_lines_read_late_from_the_other_stream_join_it() {
    let mut printed = Printed::default();
    printed.push(3, Some(3), Some("lag 0"), "out 0".to_owned());
    printed.push(3, Some(3), Some("lag 1"), "out 1".to_owned());
    printed.push(3, Some(3), Some("lag 0"), "err 0".to_owned());
    let texts = texts(&printed);
    assert_eq!(texts, ["out 0", "err 0", "out 1"]);
}

#[test]
fn lines_are_grouped_by_the_run_they_were_printed_in() {
    let mut printed = Printed::default();
    printed.push(3, Some(3), Some("crash after 1, lag 0"), "a".to_owned());
    printed.push(3, Some(3), Some("crash after 1, lag 0"), "b".to_owned());
    printed.push(3, Some(3), Some("crash after 2, lag 0"), "c".to_owned());
    printed.push(4, Some(4), None, "d".to_owned());
    let lines = printed.lines();
    let groups = grouped(&lines);
    assert_eq!(
        groups,
        [
            (
                Some("case 3 · crash after 1, lag 0".to_owned()),
                vec!["a", "b"]
            ),
            (Some("case 3 · crash after 2, lag 0".to_owned()), vec!["c"]),
            (Some("case 4".to_owned()), vec!["d"]),
        ]
    );
}

//! Judges the key-group formulas (Flink's): the key group of a key, the range of a
//! subtask, the owner of a key group, and the parents of a rescaled subtask.

use super::case::overflows_u32;
use super::oracle;
use crate::harness::Failure;

/// `parents` of new subtasks `first`, `first + 1`, ... (one per entry of `parents`).
pub(super) fn judge_parents(
    first: u32,
    from: u32,
    to: u32,
    maxp: u32,
    parents: &[Result<Vec<u32>, String>],
) -> Result<(), Failure> {
    for (j, got) in (first..).zip(parents) {
        let want = oracle::parents(j, from, to, maxp);
        if got.as_ref() != Ok(&want) {
            let (start, end) = oracle::range(j, to, maxp);
            // Where the owners of the new range's ends, `g * from`, are past `u32`, the
            // arithmetic is the first suspect (03-R24); elsewhere, the overlap (03-R15).
            let product = u64::from(end) * u64::from(from);
            let (past_u32, id) = if product > u64::from(u32::MAX) {
                (
                    format!(
                        "; {end} * {from} = {product} is past u32::MAX, so the owners are computed in u64"
                    ),
                    "03-R24",
                )
            } else {
                (String::new(), "03-R15")
            };
            return Err(Failure::new(
                format!("parents({j}, {from}, {to}, {maxp}) = {want:?}"),
                format!("parents({j}, {from}, {to}, {maxp}) = {}", returned(got)),
            )
            .step(
                format!(
                    "new subtask {j} owns {start}..={end}; {}",
                    old_ranges(from, maxp, &want, got)
                ) + &past_u32,
            )
            .requirement(id));
        }
    }
    Ok(())
}

/// Past this many old subtasks a report shows only the ranges of those named.
const OLD_RANGES_SHOWN: u32 = 16;

/// The old ranges at parallelism `from` a `parents` report shows: all of them, or, past
/// [`OLD_RANGES_SHOWN`], those of the old subtasks either answer names.
fn old_ranges(from: u32, maxp: u32, want: &[u32], got: &Result<Vec<u32>, String>) -> String {
    if from <= OLD_RANGES_SHOWN {
        let all: Vec<(u32, u32)> = (0..from).map(|i| oracle::range(i, from, maxp)).collect();
        return format!(
            "the old ranges at parallelism {from} are {}",
            show_all(&all)
        );
    }
    let mut named: Vec<u32> = want.to_vec();
    named.extend(got.iter().flatten().filter(|&&i| i < from));
    named.sort_unstable();
    named.dedup();
    let mut shown: Vec<String> = named
        .iter()
        .take(OLD_RANGES_SHOWN as usize)
        .map(|&i| format!("{i}: {}", show_range(oracle::range(i, from, maxp))))
        .collect();
    if named.len() > shown.len() {
        // Say that the list goes on, so no one takes the last shown for the last named.
        shown.push(format!("... ({} more)", named.len() - shown.len()));
    }
    format!(
        "at parallelism {from}, the old subtasks named own {}",
        shown.join(", ")
    )
}

/// A call's result in the notation of its expected value: the value itself, or `Err(..)`.
pub(super) fn returned<T: std::fmt::Debug>(got: &Result<T, String>) -> String {
    match got {
        Ok(value) => format!("{value:?}"),
        Err(e) => format!("Err({e})"),
    }
}

pub(super) fn show_range((start, end): (u32, u32)) -> String {
    format!("{start}..={end}")
}

pub(super) fn judge_key_groups(
    keys: &[String],
    maxp: u32,
    groups: &[(u32, Vec<Result<u32, String>>)],
) -> Result<(), Failure> {
    // A key group that changes between calls first, over every key: its verdict must not
    // hang on whether the formula happened to hold for the first key.
    for (key, (_, calls)) in keys.iter().zip(groups) {
        let group = &calls[0];
        if let Some(again) = calls.iter().find(|g| *g != group) {
            return Err(Failure::new(
                format!("key_group_for({key:?}, {maxp}) = {} twice", returned(group)),
                format!(
                    "key_group_for({key:?}, {maxp}) = {}, then {}",
                    returned(group),
                    returned(again)
                ),
            )
            .step(format!(
                "key {key:?} changed key group between two calls: its hash is seeded, like std's RandomState, not a function of the key's bytes"
            ))
            .requirement("03-R17"));
        }
    }
    for (key, (hash, calls)) in keys.iter().zip(groups) {
        let group = &calls[0];
        let want_hash = oracle::fnv1a(&super::key_bytes(key));
        if *hash != want_hash {
            return Err(Failure::new(
                format!("stable_hash({key:?}) = {want_hash:#010x}"),
                format!("stable_hash({key:?}) = {hash:#010x}"),
            )
            .step("stable_hash is not the FNV-1a hash the skeleton gives: keep it as it was")
            .requirement("03-R16"));
        }
        let want = want_hash % maxp;
        if group.as_ref() != Ok(&want) {
            return Err(Failure::new(
                format!("key_group_for({key:?}, {maxp}) = {want}"),
                format!("key_group_for({key:?}, {maxp}) = {}", returned(group)),
            )
            .step(format!(
                "key {key:?}: stable_hash {want_hash:#010x} % {maxp} is {want}"
            ))
            .requirement("03-R18"));
        }
    }
    if groups.len() != keys.len() {
        return Err(Failure::new(
            format!("{} key groups", keys.len()),
            format!("{} key groups", groups.len()),
        )
        .requirement("03-R18"));
    }
    Ok(())
}

pub(super) fn judge_ranges(
    p: u32,
    maxp: u32,
    ranges: &[Result<(u32, u32), String>],
) -> Result<(), Failure> {
    let id = if overflows_u32(p, maxp) {
        "03-R24"
    } else {
        "03-R20"
    };
    let want: Vec<(u32, u32)> = (0..p).map(|i| oracle::range(i, p, maxp)).collect();
    let mut got = Vec::new();
    for (i, range) in (0u32..).zip(ranges) {
        match range {
            Ok(range) => got.push(*range),
            Err(e) => {
                return Err(Failure::new(
                    format!(
                        "key_group_range({i}, {p}, {maxp}) = {}",
                        show_range(want[i as usize])
                    ),
                    format!("key_group_range({i}, {p}, {maxp}) = Err({e})"),
                )
                .step(format!("subtask {i} of {p} has no range"))
                .requirement(id));
            }
        }
    }
    let mut next = 0u32;
    for (i, &(start, end)) in (0u32..).zip(&got) {
        let tiling = if start > end {
            Some(format!("the range of subtask {i} is empty"))
        } else if start > next {
            Some(format!(
                "key groups {next}..={} belong to no subtask",
                start - 1
            ))
        } else if start < next {
            Some(format!(
                "key groups {start}..={} belong to subtask {} and to subtask {i}",
                next - 1,
                i.saturating_sub(1)
            ))
        } else if end >= maxp {
            Some(format!(
                "key groups end at {}, but {end} is in the range",
                maxp - 1
            ))
        } else {
            None
        };
        let expected = want[i as usize];
        if (start, end) != expected || tiling.is_some() {
            let why = tiling.unwrap_or_else(|| {
                format!(
                    "the ranges tile 0..={} but are not Flink's: ceil({i} * {maxp} / {p}) = {} and ceil({} * {maxp} / {p}) - 1 = {}",
                    maxp - 1,
                    expected.0,
                    i + 1,
                    expected.1
                )
            });
            return Err(Failure::new(
                format!("ranges {}", show_all(&want)),
                format!("ranges {}", show_all(&got)),
            )
            .step(format!(
                "subtask {i} of {p} owns {}, expected {}: {why}",
                show_range((start, end)),
                show_range(expected)
            ))
            .requirement(id));
        }
        next = end.saturating_add(1);
    }
    if got.len() != want.len() {
        return Err(
            Failure::new(format!("{p} ranges"), format!("{} ranges", got.len())).requirement(id),
        );
    }
    Ok(())
}

fn show_all(ranges: &[(u32, u32)]) -> String {
    let shown: Vec<String> = ranges.iter().map(|r| show_range(*r)).collect();
    format!("[{}]", shown.join(", "))
}

pub(super) fn judge_owners(
    p: u32,
    maxp: u32,
    owners: &[Result<u32, String>],
) -> Result<(), Failure> {
    let id = if overflows_u32(p, maxp) {
        "03-R24"
    } else {
        "03-R19"
    };
    for (g, got) in (0u32..).zip(owners) {
        let want = oracle::owner(g, p, maxp);
        if got.as_ref() != Ok(&want) {
            return Err(Failure::new(
                format!("operator_index_for({g}, {p}, {maxp}) = {want}"),
                format!("operator_index_for({g}, {p}, {maxp}) = {}", returned(got)),
            )
            .step(format!(
                "key group {g} belongs to the range {} of subtask {want} ({g} * {p} / {maxp} = {want})",
                show_range(oracle::range(want, p, maxp))
            ))
            .requirement(id));
        }
    }
    Ok(())
}

/// The integers up to 2^53 are exactly those an `f64` holds: past it a product in floating
/// point loses its last digits, and a ceiling or a floor taken of the quotient can be one
/// off.
const F64_EXACT: u64 = 1 << 53;

/// One range far past the enumerated ones: its ceilings need `i * maxp` exactly.
pub(super) fn judge_range_at(
    i: u32,
    p: u32,
    maxp: u32,
    got: &Result<(u32, u32), String>,
) -> Result<(), Failure> {
    let want = oracle::range(i, p, maxp);
    if got.as_ref() == Ok(&want) {
        return Ok(());
    }
    let (lo, hi) = (
        u64::from(i) * u64::from(maxp),
        u64::from(i + 1) * u64::from(maxp),
    );
    Err(Failure::new(
        format!("key_group_range({i}, {p}, {maxp}) = {}", show_range(want)),
        format!("key_group_range({i}, {p}, {maxp}) = {}", returned(got)),
    )
    .step(format!(
        "{i} * {maxp} = {lo} and {} * {maxp} = {hi} are past 2^53 = {F64_EXACT}, where a float no longer holds every integer: in u64, ceil({lo} / {p}) = {} and ceil({hi} / {p}) - 1 = {}",
        i + 1,
        want.0,
        want.1
    ))
    .requirement("03-R24"))
}

/// One key group's owner far past the enumerated ones: its floor needs `g * p` exactly,
/// past `u32` or past 2^53.
pub(super) fn judge_owner_at(
    g: u32,
    p: u32,
    maxp: u32,
    got: &Result<u32, String>,
) -> Result<(), Failure> {
    let want = oracle::owner(g, p, maxp);
    if got.as_ref() == Ok(&want) {
        return Ok(());
    }
    let product = u64::from(g) * u64::from(p);
    let past = if product > F64_EXACT {
        format!("past 2^53 = {F64_EXACT}, where a float no longer holds every integer")
    } else {
        "past u32::MAX".to_owned()
    };
    Err(Failure::new(
        format!("operator_index_for({g}, {p}, {maxp}) = {want}"),
        format!("operator_index_for({g}, {p}, {maxp}) = {}", returned(got)),
    )
    .step(format!(
        "{g} * {p} = {product} is {past}: in u64, {product} / {maxp} = {want}"
    ))
    .requirement("03-R24"))
}

#[cfg(test)]
mod tests {
    use super::{OLD_RANGES_SHOWN, old_ranges};

    #[test]
    fn a_list_of_old_ranges_cut_short_says_how_many_more() {
        let named: Vec<u32> = (0..OLD_RANGES_SHOWN + 4).collect();
        let long = old_ranges(100, 128, &named, &Ok(Vec::new()));
        assert!(long.ends_with(", ... (4 more)"), "{long}");
        let short = old_ranges(100, 128, &named[..2], &Ok(vec![5]));
        assert!(!short.contains("..."), "{short}");
        assert!(
            short.contains("5: "),
            "a subtask the call named is shown: {short}"
        );
    }
}

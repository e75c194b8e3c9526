//! Stage 03's cards: routing that ignores key groups, ranges that are not Flink's, hashes
//! that change, and state lost or doubled at a rescale.

use super::{Card, Clue, Signature, Symptom, between, numbers_after};

/// `operator_index_for(g, p, ..)` answered `g % p`.
fn round_robin(s: &Symptom) -> bool {
    let Some(args) = between(s.expected, "operator_index_for(", ")") else {
        return false;
    };
    let args: Vec<u64> = args
        .split(',')
        .filter_map(|a| a.trim().parse().ok())
        .collect();
    let got: Option<u64> = s
        .actual
        .rsplit(" = ")
        .next()
        .and_then(|n| n.trim().parse().ok());
    match (args.as_slice(), got) {
        ([group, parallelism, _], Some(got)) => *parallelism > 0 && got == group % parallelism,
        _ => false,
    }
}

/// The record of a `partition` failure went to subtask `fnv1a(key) % p`: the routing the
/// card names, not merely some wrong subtask.
fn at_hash_modulo(s: &Symptom) -> bool {
    let key = between(s.step, "record (\"", "\", ");
    let p: Option<u32> = between(s.case, " parallelism ", ",").and_then(|p| p.parse().ok());
    let went: Option<u32> = between(s.step, "went to subtask ", ",").and_then(|i| i.parse().ok());
    match (key, p, went) {
        (Some(key), Some(p), Some(went)) if p > 0 => {
            crate::stage03::oracle::fnv1a(key.as_bytes()) % p == went
        }
        _ => false,
    }
}

/// `parents` left out the last old subtask of the expected ones.
fn last_parent_missing(s: &Symptom) -> bool {
    let expected = numbers_after(s.expected, "= ");
    let got = numbers_after(s.actual, "= ");
    matches!((expected, got), (Some(e), Some(g)) if !e.is_empty() && g == e[..e.len() - 1])
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "03-hash-modulo-parallelism",
        stage: 3,
        title: "A record goes to subtask hash(key) % parallelism",
        why: "Routing goes through key groups: key_group_for(key) picks one of max_parallelism \
              groups, and the subtask whose contiguous range holds that group owns the key. Hash \
              modulo the parallelism sends a key elsewhere after every rescale, away from its \
              state.",
        reread: "Task",
        signatures: &[Signature {
            check: "partition",
            fault: "wrong result",
            clues: &[
                Clue::Step("went to subtask"),
                Clue::Step("owns key groups"),
                Clue::Test(at_hash_modulo, "the record went to subtask hash(key) % p"),
            ],
        }],
    },
    Card {
        id: "03-range-end-is-exclusive",
        stage: 3,
        title: "A key-group range ends where the next one starts",
        why: "The ranges are inclusive (start..=end): subtask i owns ceil(i maxp / p) ..= \
              ceil((i + 1) maxp / p) - 1. Without the - 1, neighbours share a key group, and the \
              last range runs past maxp - 1.",
        reread: "Task",
        signatures: &[Signature {
            check: "key-group-range",
            fault: "wrong result",
            clues: &[Clue::Step("is in the range")],
        }],
    },
    Card {
        id: "03-any-tiling-will-do",
        stage: 3,
        title: "Any split of the key groups into ranges will do, if the ranges tile",
        why: "The ranges must be the inverse of operator_index_for, or a subtask holds state for \
              key groups that are routed elsewhere; the brief fixes Flink's formula, with \
              ceilings, so that both agree.",
        reread: "Task",
        signatures: &[Signature {
            check: "key-group-range",
            fault: "wrong result",
            clues: &[Clue::Step("tile"), Clue::Step("are not")],
        }],
    },
    Card {
        id: "03-any-hash-will-do",
        stage: 3,
        title: "Any good hash of the key will do for its key group",
        why: "A key group must be the same in every process and after every restart, since \
              restored state is found by key group: std's hashers are seeded per process. \
              key_group_for is stable_hash(key) % max_parallelism, with the brief's FNV-1a.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "key-group",
                fault: "wrong result",
                clues: &[Clue::Step("its hash is seeded")],
            },
            Signature {
                check: "key-group",
                fault: "wrong result",
                clues: &[Clue::Step("not the FNV-1a hash")],
            },
        ],
    },
    Card {
        id: "03-any-reduction-will-do",
        stage: 3,
        title: "Any way of bringing the hash into 0..max_parallelism will do",
        why: "The key group is stable_hash(key) % max_parallelism, exactly: operator_index_for and \
              the ranges are cut for it, and a snapshot written by one job is read by the next, \
              which must find each key in the same group. Another reduction (a multiply-shift, a \
              mask) sends keys to other groups than every other reader expects.",
        reread: "Task",
        signatures: &[Signature {
            check: "key-group",
            fault: "wrong result",
            clues: &[Clue::Step(": stable_hash "), Clue::Step(" % ")],
        }],
    },
    Card {
        id: "03-rescale-moves-whole-maps",
        stage: 3,
        title: "Rescaling hands each old subtask's state, whole, to some new subtask",
        why: "State moves key by key: each key goes to the new subtask whose range holds its key \
              group, so that the record routed there finds it. An old map holds key groups that \
              now belong to several new subtasks.",
        reread: "Task",
        signatures: &[Signature {
            check: "rescale",
            fault: "wrong result",
            clues: &[Clue::Step("is on subtask"), Clue::Step("owns key groups")],
        }],
    },
    Card {
        id: "03-count-anywhere",
        stage: 3,
        title: "Only the merged counts matter, not which subtask counted a key",
        why: "Each key must be counted on the subtask that owns its key group: that is where its \
              state lives, and where a checkpoint and a rescale look for it. Right totals on the \
              wrong subtask are lost at the first restart.",
        reread: "Task",
        signatures: &[Signature {
            check: "parallel-count",
            fault: "wrong result",
            clues: &[Clue::Step("is on subtask"), Clue::Step("owns key groups")],
        }],
    },
    Card {
        id: "03-restore-drops-the-range-end",
        stage: 3,
        title: "A subtask restores the key groups start..end",
        why: "A subtask's range is inclusive: it restores every key whose group lies in \
              start..=end. Even without a rescale, keys of the last group of a range vanish when \
              the end is left out.",
        reread: "Task",
        signatures: &[Signature {
            check: "crash",
            fault: "wrong result",
            clues: &[
                Clue::Case("at parallelism 1, snapshot, restore at parallelism 1,"),
                Clue::Step("right after the restore"),
                Clue::Step("holds count None"),
            ],
        }],
    },
    Card {
        id: "03-restore-takes-every-key",
        stage: 3,
        title: "A new subtask can restore everything its parents held",
        why: "A parent's snapshot holds keys of several new subtasks: each new subtask keeps \
              only the keys whose group lies in its own range, or a key's state exists twice \
              and the counts double.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "crash",
                fault: "wrong result",
                clues: &[Clue::Step("has state on subtasks"), Clue::Step("twice")],
            },
            // A restore of its own snapshot, a number changed, that kept a key it does
            // not own.
            Signature {
                check: "errors",
                fault: "wrong result",
                clues: &[
                    Clue::Case("only keys subtask i owns"),
                    Clue::Actual("which subtask"),
                ],
            },
        ],
    },
    Card {
        id: "03-parents-exclusive",
        stage: 3,
        title: "The parents of a new subtask are the old subtasks first..last",
        why: "parents(j, ..) lists every old subtask whose range overlaps new subtask j's, the \
              last one included: leaving it out loses the state of the key groups it owned.",
        reread: "Task",
        signatures: &[Signature {
            check: "parents",
            fault: "wrong result",
            clues: &[Clue::Test(
                last_parent_missing,
                "the last parent is left out",
            )],
        }],
    },
    Card {
        id: "03-arguments-are-trusted",
        stage: 3,
        title: "Nobody will pass a parallelism of 0, or an index out of range",
        why: "A parallelism or max_parallelism comes from configuration, and configuration is \
              wrong sometimes; an operator index or key group comes from a caller's arithmetic. \
              A division by zero, a silent empty range or a range past max_parallelism turns \
              that into a crash or lost keys. The brief asks for an error that names the \
              argument.",
        reread: "New API",
        signatures: &[
            Signature {
                check: "errors",
                fault: "wrong result",
                clues: &[Clue::Actual("panicked")],
            },
            Signature {
                check: "errors",
                fault: "wrong result",
                clues: &[
                    Clue::Actual("Ok("),
                    // Bytes that are not a snapshot are `03-unreadable-snapshot-is-empty`'s,
                    // and keys kept that the subtask does not own
                    // `03-restore-takes-every-key`'s; a state in another layout, read as a
                    // snapshot, trusts no argument.
                    Clue::Not(&Clue::Case("KeyedSubtask::restore(0, 1, 8, &[")),
                    Clue::Not(&Clue::Case("only keys subtask i owns")),
                    Clue::Not(&Clue::Case("in each other layout")),
                ],
            },
        ],
    },
    Card {
        id: "03-key-groups-round-robin",
        stage: 3,
        title: "Key groups are dealt out to subtasks round robin",
        why: "A subtask owns a contiguous range of key groups, so that a rescale moves whole \
              ranges: operator_index_for(g) = g p / maxp, the subtask whose range holds g.",
        reread: "Task",
        signatures: &[Signature {
            check: "operator-index",
            fault: "wrong result",
            clues: &[Clue::Test(
                round_robin,
                "the answer is key_group % parallelism",
            )],
        }],
    },
    Card {
        id: "03-u32-is-wide-enough",
        stage: 3,
        title: "The formulas fit in u32, like their arguments",
        why: "i * max_parallelism and key_group * parallelism are products of two u32 values: \
              they need 64 bits before the division brings them back. In u32 they overflow for a \
              large max_parallelism, and the routing panics or sends keys to the wrong subtask.",
        reread: "Constraints",
        signatures: &[
            Signature {
                check: "key-group-range",
                fault: "wrong result",
                clues: &[Clue::Actual("overflow")],
            },
            Signature {
                check: "operator-index",
                fault: "wrong result",
                clues: &[Clue::Actual("overflow")],
            },
        ],
    },
    Card {
        id: "03-a-float-holds-the-product",
        stage: 3,
        title: "An f64 is exact enough for the formulas of u32 values",
        why: "An f64 holds every integer up to 2^53, and every u32, but not every product of \
              two: i * max_parallelism and key_group * parallelism reach 2^64. Past 2^53 the \
              product loses its last digits, and the ceiling or floor taken of the quotient \
              is one off where the exact quotient sits on or next to an integer. Integer \
              arithmetic in u64 is exact: div_ceil for the ceilings, / for the floor.",
        reread: "Constraints",
        signatures: &[
            Signature {
                check: "key-group-range",
                fault: "wrong result",
                clues: &[Clue::Step("where a float no longer holds every integer")],
            },
            Signature {
                check: "operator-index",
                fault: "wrong result",
                clues: &[Clue::Step("where a float no longer holds every integer")],
            },
        ],
    },
    Card {
        id: "03-owner-rounds",
        stage: 3,
        title: "The owner of a key group is g * p / maxp rounded to the nearest (or up)",
        why: "operator_index_for is integer division, rounded down: g * p / maxp. The ranges' \
              ceilings are cut so that exactly the groups of subtask i floor to i; rounding \
              another way sends the last groups of a range to the next subtask, away from the \
              state key_group_range gave it.",
        reread: "Task",
        signatures: &[Signature {
            check: "operator-index",
            fault: "wrong result",
            clues: &[Clue::Test(
                rounded,
                "the answer is g p / maxp rounded up or to the nearest",
            )],
        }],
    },
];

/// `operator_index_for(g, p, maxp)` answered `g p / maxp` rounded up or to the nearest.
fn rounded(s: &Symptom) -> bool {
    let Some(args) = between(s.expected, "operator_index_for(", ")") else {
        return false;
    };
    let args: Vec<u64> = args
        .split(',')
        .filter_map(|a| a.trim().parse().ok())
        .collect();
    let got: Option<u64> = s
        .actual
        .rsplit(" = ")
        .next()
        .and_then(|n| n.trim().parse().ok());
    match (args.as_slice(), got) {
        ([g, p, maxp], Some(got)) if *maxp > 0 => {
            let product = g * p;
            let floor = product / maxp;
            got != floor
                && (got == product.div_ceil(*maxp) || got == (2 * product + maxp) / (2 * maxp))
        }
        _ => false,
    }
}

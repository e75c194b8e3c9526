//! The cases of stage 03, smallest parallelism first.

use super::case::{Case, ErrorCall};
use crate::harness::rng::Rng;

/// The largest parallelism enumerated (every `p` and every rescale `p -> q` up to it).
pub const MAX_PARALLELISM: u32 = 8;
/// The length of the key streams.
pub const STREAM_LEN: usize = 10;
/// The length of the key streams of the crash check (every crash point is enumerated).
pub const CRASH_LEN: usize = 7;

/// `(p, maxp)` for every `p` in `1..=8` and `maxp` in `{p, 8, 10, 128}` with `maxp >= p`.
fn configs() -> Vec<(u32, u32)> {
    let mut configs = Vec::new();
    for p in 1..=MAX_PARALLELISM {
        let mut maxps: Vec<u32> = [p, 8, 10, 128].into_iter().filter(|&m| m >= p).collect();
        maxps.sort_unstable();
        maxps.dedup();
        configs.extend(maxps.into_iter().map(|maxp| (p, maxp)));
    }
    configs
}

/// `(p, q, maxp)` for every rescale `p -> q` in `1..=8` and `maxp` in `{max(p, q), 10, 128}`.
fn rescales(maxps: &[u32]) -> Vec<(u32, u32, u32)> {
    let mut all = Vec::new();
    for p in 1..=MAX_PARALLELISM {
        for q in 1..=MAX_PARALLELISM {
            let mut ms: Vec<u32> = maxps.iter().map(|&m| m.max(p.max(q))).collect();
            ms.sort_unstable();
            ms.dedup();
            all.extend(ms.into_iter().map(|maxp| (p, q, maxp)));
        }
    }
    all
}

/// `(i, p, maxp)` of the ranges whose ceilings only exact integer arithmetic gets right:
/// the first is one off in `f64` and `f32`, whichever order the multiply and the divide
/// come in; in the second `maxp = 2p`, so `i * maxp / p` is exactly `2i`, and a product
/// rounded up makes its ceiling `2i + 1`.
const FLOAT_RANGES: [(u32, u32, u32); 2] = [
    (1_043_045_808, 1_687_726_631, 2_147_807_088),
    (943_800_954, 1_403_285_134, 2_806_570_268),
];

/// `(g, p, maxp)` of the owners whose floors only exact integer arithmetic gets right: the
/// first is one off in `f64` and `f32` in every order; in the second `p = maxp`, so the
/// owner is `g` itself, and a product rounded down floors to `g - 1`.
const FLOAT_OWNERS: [(u32, u32, u32); 2] = [
    (1_376_696_246, 1_359_069_928, 2_151_549_891),
    (1_786_439_639, 2_839_682_112, 2_839_682_112),
];

/// The top of `max_parallelism`, with three subtasks: every key group past a third of it
/// times 3 is past `u32::MAX`, so routing, counting and rescaling there need the owner's
/// formula in `u64` (03-R24), wherever they compute it.
const TOP: (u32, u32) = (3, u32::MAX);

/// A key whose key group at [`TOP`] is 3,826,002,220 (owned by subtask 2 of 3, where a
/// product wrapped in `u32` says subtask 0), added to every seed's stream at the top.
const TOP_KEY: &str = "a";

/// `(g, p, maxp)` of owners the enumeration does not reach, where `g * p` is past
/// `u32::MAX` (so the enumerated `p = maxp = 70 000` needs only its top key groups): the
/// first and last key groups of the top's three ranges, and with `p = maxp = 70 000` the
/// first key group whose product is past `u32::MAX` and the last key group. Single calls:
/// only the arithmetic is in question there, not 70 000 key groups of it.
const PAST_U32_OWNERS: [(u32, u32, u32); 8] = [
    (0, 3, u32::MAX),
    (1_431_655_764, 3, u32::MAX),
    (1_431_655_765, 3, u32::MAX),
    (2_863_311_529, 3, u32::MAX),
    (2_863_311_530, 3, u32::MAX),
    (4_294_967_294, 3, u32::MAX),
    (61_357, 70_000, 70_000),
    (69_999, 70_000, 70_000),
];

/// `(j, p, q, maxp)` of a `parents` past `u32`: new subtask 3,000,000,000 of
/// `q = maxp = u32::MAX` holds key group 3,000,000,000 alone, whose owner at `p = 2` needs
/// `3,000,000,000 * 2`, past `u32::MAX`.
const PARENTS_PAST_U32: (u32, u32, u32, u32) = (3_000_000_000, 2, u32::MAX, u32::MAX);

/// `(j, p, q, maxp)` of a `parents` whose answer an `f64` gets wrong: new subtask
/// 4,294,966,783 of `q = maxp = u32::MAX` holds that key group alone, whose owner at
/// `p = 2^23` is `floor(4,294,966,783 * 2^23 / (2^32 - 1))`, 8,388,606.99...: the
/// product scaled in an `f64` rounds it up to 8,388,607. (`2^23` is the smallest power
/// of two where it does, and small enough that an answer listing every old subtask
/// stays a few megabytes.)
const PARENTS_PAST_F64: (u32, u32, u32, u32) = (4_294_966_783, 1 << 23, u32::MAX, u32::MAX);

/// The keys every `key-group` case adds to the seed's: upper case, surrounding and inner
/// whitespace, non-ASCII letters, digits and punctuation, a long key, and keys that are
/// not UTF-8 (in the notation of [`super::key_bytes`]).
const FIXED_KEYS: [&str; 9] = [
    "A",
    "Ab",
    " a",
    "a\tb ",
    "é",
    "K-9:x",
    "a key much longer than the others",
    "\\xff",
    "a\\x80b",
];

/// A key that is not UTF-8 (Latin-1 "été"), in every seed's alphabet: the API's keys are
/// bytes, and a key decoded as text on the way (lossily, or refused) lands elsewhere.
const LATIN1_KEY: &str = "\\xe9t\\xe9";

/// Six distinct keys of one to three letters, from the seed, then [`LATIN1_KEY`].
fn key_alphabet(rng: &mut Rng) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    while keys.len() < 6 {
        let len = 1 + rng.below(3) as usize;
        let key: String = (0..len)
            .map(|_| char::from(b'a' + rng.below(26) as u8))
            .collect();
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys.push(LATIN1_KEY.to_owned());
    keys
}

/// `len` keys drawn from `alphabet`; from two keys on, the second is [`LATIN1_KEY`]
/// whatever the seed, so every seed's streams hold a key that is not UTF-8.
fn stream(rng: &mut Rng, alphabet: &[String], len: usize) -> Vec<String> {
    let mut keys: Vec<String> = (0..len)
        .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize].clone())
        .collect();
    if let Some(second) = keys.get_mut(1) {
        LATIN1_KEY.clone_into(second);
    }
    keys
}

/// Every case for `seed`.
pub fn plan(seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed, 3);
    let alphabet = key_alphabet(&mut rng);
    let mut cases = Vec::new();

    let mut with_empty = alphabet.clone();
    with_empty.insert(0, String::new());
    // Chosen, not drawn: keys the seeded lower-case letters never are, so a key folded,
    // trimmed or read as anything but its bytes lands in another key group.
    with_empty.extend(FIXED_KEYS.map(str::to_owned));
    for max_parallelism in [1, 2, 3, 7, 8, 10, 128, 32_768] {
        cases.push(Case::KeyGroup {
            keys: with_empty.clone(),
            max_parallelism,
        });
    }
    // After the enumerated configurations, so the smallest failing case still comes
    // first: the largest `max_parallelism` there is, where `i * max_parallelism` in
    // the range formula overflows a `u32` (the brief: compute the formulas in u64).
    for (parallelism, max_parallelism) in configs().into_iter().chain([(3, u32::MAX)]) {
        cases.push(Case::Ranges {
            parallelism,
            max_parallelism,
        });
    }
    for (parallelism, max_parallelism) in configs() {
        cases.push(Case::OperatorIndex {
            parallelism,
            max_parallelism,
        });
    }
    // Likewise, where `key_group * parallelism` overflows a `u32`: chosen key groups.
    for (key_group, parallelism, max_parallelism) in PAST_U32_OWNERS {
        cases.push(Case::OwnerAt {
            key_group,
            parallelism,
            max_parallelism,
        });
    }
    // Chosen, not drawn: products past 2^53 whose exact quotient sits on or next to an
    // integer, so a ceiling or floor of a floating-point quotient (f64 or f32, in any
    // order of the multiply and the divide) is one off. The key group counts alone are
    // too many to enumerate, so one range and one owner each.
    for (index, parallelism, max_parallelism) in FLOAT_RANGES {
        cases.push(Case::RangeAt {
            index,
            parallelism,
            max_parallelism,
        });
    }
    for (key_group, parallelism, max_parallelism) in FLOAT_OWNERS {
        cases.push(Case::OwnerAt {
            key_group,
            parallelism,
            max_parallelism,
        });
    }
    let streams: Vec<Vec<String>> = [1, 4, STREAM_LEN]
        .iter()
        .map(|&len| stream(&mut rng, &alphabet, len))
        .collect();
    // The longest stream with the top's key, for the cases at the top.
    let mut top_keys = streams[2].clone();
    top_keys.push(TOP_KEY.to_owned());
    let top = || std::iter::once((TOP, &top_keys));
    for ((parallelism, max_parallelism), keys) in configs()
        .into_iter()
        .flat_map(|config| streams.iter().map(move |keys| (config, keys)))
        .chain(top())
    {
        cases.push(Case::Partition {
            keys: keys.clone(),
            parallelism,
            max_parallelism,
        });
    }
    for ((parallelism, max_parallelism), keys) in configs()
        .into_iter()
        .flat_map(|config| streams[1..].iter().map(move |keys| (config, keys)))
        .chain(top())
    {
        cases.push(Case::ParallelCount {
            keys: keys.clone(),
            parallelism,
            max_parallelism,
        });
    }
    let long = &streams[2];
    for (from, to, max_parallelism) in rescales(&[1, 10, 128]) {
        cases.push(Case::Rescale {
            keys: long.clone(),
            from,
            to,
            max_parallelism,
        });
    }
    // The old states the learner's code never builds, smallest first.
    for (shape, state, to, max_parallelism) in super::edges::edges() {
        cases.push(Case::RescaleEdge {
            shape,
            state,
            to,
            max_parallelism,
        });
    }
    // At the top, from one and from two old subtasks: a key's new owner needs `g * 3` in
    // `u64`, and nothing in a rescale of a few keys grows with `max_parallelism`.
    for from in [1, 2] {
        cases.push(Case::Rescale {
            keys: top_keys.clone(),
            from,
            to: TOP.0,
            max_parallelism: TOP.1,
        });
    }
    // No whole rescale past 2^29, where an owner's `g * p` overflows `u32`: a correct
    // `parents` may walk the new range's key groups, and there that is a billion of them.
    // One chosen `parents` past it instead, whose new range is one key group.
    for (from, to, max_parallelism) in rescales(&[1, 10, 128]) {
        cases.push(Case::Parents {
            from,
            to,
            max_parallelism,
        });
    }
    let (index, from, to, max_parallelism) = PARENTS_PAST_U32;
    cases.push(Case::ParentsAt {
        index,
        from,
        to,
        max_parallelism,
    });
    let crash_keys = stream(&mut rng, &alphabet, CRASH_LEN);
    for (from, to, max_parallelism) in rescales(&[10, 128]) {
        for crash_after in 0..=CRASH_LEN {
            cases.push(Case::Crash {
                keys: crash_keys.clone(),
                from,
                to,
                max_parallelism,
                crash_after,
            });
        }
    }
    for call in ErrorCall::ALL {
        cases.push(Case::Errors { call });
    }
    cases.extend(super::contract::plan());
    // After them, so the cases above keep their numbers.
    for call in ErrorCall::AFTER_CONTRACT {
        cases.push(Case::Errors { call });
    }
    // Products past `i64::MAX`, which a formula in `i64` overflows: an owner and a range
    // at `p` and `maxp` of four billion and more.
    for (key_group, parallelism, max_parallelism) in PAST_I64_OWNERS {
        cases.push(Case::OwnerAt {
            key_group,
            parallelism,
            max_parallelism,
        });
    }
    cases.push(Case::RangeAt {
        index: u32::MAX - 1,
        parallelism: u32::MAX,
        max_parallelism: u32::MAX,
    });
    cases.extend(super::contract::separator_plan());
    // After them, so the cases above keep their numbers: keys of 256 bytes and more.
    cases.extend(super::contract::long_key_plan());
    // After them, so the cases above keep their numbers: a state that no handle can name
    // in so few bytes.
    cases.push(Case::DenseSnapshot);
    // After it, so the cases above keep their numbers: the own snapshot padded.
    for call in ErrorCall::LAST {
        cases.push(Case::Errors { call });
    }
    // After them, so the cases above keep their numbers: the empty key, a key like any
    // other (no word is empty, but a key may be).
    for parallelism in [1, 2] {
        cases.push(Case::ParallelCount {
            keys: EMPTY_KEY_STREAM.map(str::to_owned).to_vec(),
            parallelism,
            max_parallelism: 8,
        });
    }
    // After them, so the cases above keep their numbers: a `parents` whose owner is a
    // hair below a whole number, past what an `f64` tells apart.
    let (index, from, to, max_parallelism) = PARENTS_PAST_F64;
    cases.push(Case::ParentsAt {
        index,
        from,
        to,
        max_parallelism,
    });
    // After it, so the cases above keep their numbers: the state of the own snapshot in
    // the layouts a snapshot commonly has, its own left out (`rewritten.rs`).
    cases.push(Case::Errors {
        call: ErrorCall::RestoreOtherLayout,
    });
    cases
}

/// The keys of the last `parallel-count` cases: the empty key twice, around another.
pub const EMPTY_KEY_STREAM: [&str; 3] = ["", "a", ""];

/// `(g, p, maxp)` of owners whose `g * p` is past `i64::MAX` (2^63 - 1), though not past
/// a `u64`: the formulas are to be computed in `u64` (03-R24).
const PAST_I64_OWNERS: [(u32, u32, u32); 2] = [
    (4_000_000_000, 4_000_000_000, u32::MAX),
    (u32::MAX - 1, u32::MAX, u32::MAX),
];

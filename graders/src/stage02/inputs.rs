//! The keyed streams and the byte round trips of the plan: chosen, not drawn, so the
//! plan is the same under every seed.

/// The keys of the streams, in order of first arrival: a letter, the empty key, and a
/// Unicode key with a space and a capital (sorted, they come `""`, `"a"`, `"Ä b"`).
pub const KEYS: [&str; 3] = ["a", "", "Ä b"];

/// The longest exhaustive stream: every key pattern and every choice of 0s up to it.
pub const EXHAUSTIVE_LEN: usize = 3;

/// Every stream of up to [`EXHAUSTIVE_LEN`] records (each key pattern up to renaming,
/// keys named in order of arrival; each record a 0, which clears, or its position + 1),
/// then one each of 4 to 7 records; shortest first.
pub fn streams() -> Vec<Vec<(String, u32)>> {
    let mut all = Vec::new();
    for len in 0..=EXHAUSTIVE_LEN {
        for pattern in key_patterns(len) {
            for zeros in 0..1u32 << len {
                all.push(
                    pattern
                        .iter()
                        .enumerate()
                        .map(|(i, k)| {
                            let value = if zeros >> i & 1 == 1 { 0 } else { i as u32 + 1 };
                            (KEYS[*k].to_owned(), value)
                        })
                        .collect(),
                );
            }
        }
    }
    let longer: [&[(usize, u32)]; 4] = [
        &[(0, 1), (0, 0), (1, 3), (0, 4)],
        &[(0, 1), (1, 2), (2, 3), (0, 0), (1, 5)],
        &[(1, 1), (0, 2), (1, 0), (2, 4), (0, 5), (2, 6)],
        &[(0, 1), (1, 2), (2, 3), (0, 4), (1, 0), (2, 6), (0, 7)],
    ];
    for stream in longer {
        all.push(
            stream
                .iter()
                .map(|(k, v)| (KEYS[*k].to_owned(), *v))
                .collect(),
        );
    }
    all
}

/// Every sequence of `len` key indexes in which key `k` first appears after keys `0..k`.
fn key_patterns(len: usize) -> Vec<Vec<usize>> {
    let mut all = vec![Vec::new()];
    for _ in 0..len {
        all = all
            .into_iter()
            .flat_map(|p: Vec<usize>| {
                let next = p.iter().max().map_or(0, |m| m + 1).min(KEYS.len() - 1);
                (0..=next).map(move |k| {
                    let mut q = p.clone();
                    q.push(k);
                    q
                })
            })
            .collect();
    }
    all
}

/// States with text keys to round-trip: empty, the empty key, keys that differ only in
/// case, and keys with what a hand-made format would choke on.
pub fn text_states() -> Vec<Vec<(String, u32)>> {
    let state = |pairs: &[(&str, u32)]| {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), *v))
            .collect::<Vec<_>>()
    };
    vec![
        state(&[]),
        state(&[("", 0)]),
        state(&[("a", 1), ("A", 2)]),
        state(&[
            ("é\"\n\\{}", u32::MAX),
            ("Ä b", 7),
            ("😀", 3),
            ("1", 4),
            ("a=b:c,d", 5),
        ]),
    ]
}

/// States with `Vec<u8>` keys (not text: one is not UTF-8) to round-trip.
pub fn binary_states() -> Vec<Vec<(Vec<u8>, u32)>> {
    vec![
        vec![(vec![], 1)],
        vec![(vec![0], 2), (vec![255, 0, 10], 3), (vec![0xc3, 0x28], 4)],
    ]
}

//! States that carry more information than a handle can: keys drawn by a fixed generator,
//! which no encoding writes in fewer bytes than they carry. A snapshot shorter than that
//! is not the state itself but a name for bytes kept elsewhere (an entry of a registry in a
//! `static`), which only the process that wrote it can read back: restored in the same
//! process, as every other check restores, it passes; restored after a real crash, it
//! finds nothing.

use super::case::Failure;
use super::rng::Rng;

/// How many keys a dense state holds.
pub const DENSE_KEYS: usize = 256;

/// The characters of each key.
const KEY_CHARS: usize = 16;

/// The 64 symbols a key is drawn from: 6 bits each.
const SYMBOLS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

/// The fewest bytes a snapshot of a state holding every key of [`dense_keys`] can have.
/// The keys as a set carry log2 C(2^96, 256) bits, about 2,860 bytes (each key 96 bits,
/// less the 1,684 bits of their order); no compressor writes random symbols in less, and
/// this bound leaves room below that. A handle, a counter or a digest is tens of bytes.
pub const DENSE_BYTES: usize = 2_048;

/// [`DENSE_KEYS`] distinct keys of 16 symbols each, the same under every seed (so every
/// seed reaches the rule), in the order drawn, which is not sorted.
pub fn dense_keys() -> Vec<String> {
    let mut rng = Rng::new(0x5EED_DA7A, 0xD15E);
    let mut keys: Vec<String> = Vec::with_capacity(DENSE_KEYS);
    while keys.len() < DENSE_KEYS {
        let key: String = (0..KEY_CHARS)
            .map(|_| char::from(SYMBOLS[rng.below(64) as usize]))
            .collect();
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys
}

/// The keys of [`dense_keys`] as a report names them: the first two, and how many.
pub fn dense_keys_shown() -> String {
    let keys = dense_keys();
    format!(
        "{DENSE_KEYS} keys of {KEY_CHARS} random letters, digits, `_` and `-` ({:?}, {:?}, ...)",
        keys[0], keys[1]
    )
}

/// `Ok` when a snapshot of `len` bytes, taken by `call` of a state holding every dense
/// key, is long enough to hold them; else the failure of `requirement`.
pub fn judge_dense_snapshot(
    call: &str,
    len: usize,
    requirement: &'static str,
) -> Result<(), Failure> {
    if len >= DENSE_BYTES {
        return Ok(());
    }
    Err(Failure::new(
        format!("a snapshot of at least {DENSE_BYTES} bytes"),
        format!("{len} bytes"),
    )
    .step(format!(
        "{call} wrote {len} bytes for a state holding {}: the keys alone carry about 2,860 \
         bytes of information, so these bytes cannot be the state itself. They are a name for \
         bytes kept elsewhere (a registry in a `static`), which a restore in a new process, \
         after a real crash, could not read",
        dense_keys_shown()
    ))
    .requirement(requirement))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_are_distinct_unsorted_and_the_same_every_time() {
        let keys = dense_keys();
        assert_eq!(keys.len(), DENSE_KEYS);
        assert!(keys.iter().all(|k| k.len() == KEY_CHARS));
        let mut sorted = keys.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), DENSE_KEYS);
        assert_ne!(sorted, keys);
        assert_eq!(dense_keys(), keys);
    }

    #[test]
    fn plain_encodings_are_long_enough_and_a_handle_is_not() {
        let keys = dense_keys();
        let json = serde_json::to_vec(&keys).unwrap();
        assert!(judge_dense_snapshot("snapshot()", json.len(), "02-R15").is_ok());
        let raw: usize = keys.iter().map(String::len).sum();
        assert!(raw * 6 / 8 >= DENSE_BYTES, "packed at 6 bits a symbol");
        let failure = judge_dense_snapshot("snapshot()", "snapshot#3".len(), "02-R15").unwrap_err();
        assert_eq!(failure.requirement, Some("02-R15"));
    }
}

//! The key hash, given and to be kept as it is (03-R16): fixed, documented, the same in
//! every process and on every run (03-R17).

/// FNV-1a, 32 bits: offset basis `0x811c9dc5`, prime `0x01000193`.
///
/// Why not `std::hash` with `RandomState`: its seed differs from one process to the next,
/// so a restarted job would send a key to another key group than the one holding its
/// state. Partitioning needs a hash that is a pure function of the key's bytes (03-R17).
///
/// ```
/// assert_eq!(stage03::stable_hash(b""), 0x811c_9dc5);
/// assert_eq!(stage03::stable_hash(b"a"), 0xe40c_292c);
/// ```
pub fn stable_hash(key: &[u8]) -> u32 {
    const OFFSET_BASIS: u32 = 0x811c_9dc5;
    const PRIME: u32 = 0x0100_0193;
    key.iter().fold(OFFSET_BASIS, |hash, &byte| {
        (hash ^ u32::from(byte)).wrapping_mul(PRIME)
    })
}

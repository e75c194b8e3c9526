//! A key renamed inside a snapshot whose format the grader does not know: every encoding
//! of the key a snapshot of bytes plausibly holds (the bytes as text, a JSON list of byte
//! values, hex, base64, the list `{:x?}` writes, the hex of the key's JSON string) is
//! looked for, and each one found is rewritten to the same encoding of another key.
//!
//! Stages 02 and 03 rename a key to one already there (a key listed twice) or to one that
//! sorts first (keys out of order): bytes `snapshot` never writes, which `restore` must
//! refuse or read as the snapshot they are.

/// The encodings of `key`, in the order they are tried.
pub fn encodings(key: &[u8]) -> Vec<Vec<u8>> {
    let values: Vec<String> = key.iter().map(u8::to_string).collect();
    let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
    let mut all = vec![
        key.to_vec(),
        format!("[{}]", values.join(",")).into_bytes(),
        format!("[{}]", values.join(", ")).into_bytes(),
        hex.clone().into_bytes(),
        hex.to_uppercase().into_bytes(),
        base64(key).into_bytes(),
        format!("{key:x?}").into_bytes(),
        format!("{key:X?}").into_bytes(),
    ];
    if let Ok(text) = std::str::from_utf8(key) {
        let json = serde_json::to_string(text).expect("a string is JSON");
        let json_hex: String = json.bytes().map(|b| format!("{b:02x}")).collect();
        all.push(json_hex.into_bytes());
    }
    all
}

/// `bytes` in standard base64, with padding.
pub fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(DIGITS[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `snapshot` with every occurrence of `from` written `to`, if it holds one.
fn replaced(snapshot: &[u8], from: &[u8], to: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(snapshot.len());
    let mut rest = snapshot;
    let mut found = false;
    while !rest.is_empty() {
        if rest.starts_with(from) {
            out.extend_from_slice(to);
            rest = &rest[from.len()..];
            found = true;
        } else {
            out.push(rest[0]);
            rest = &rest[1..];
        }
    }
    found.then_some(out)
}

/// `snapshot` with the key `from` written `to`, once for each encoding in which it holds
/// `from` (each rewriting once, in the order of [`encodings`]).
pub fn renamings(snapshot: &[u8], from: &[u8], to: &[u8]) -> Vec<Vec<u8>> {
    let mut all: Vec<Vec<u8>> = Vec::new();
    for (from, to) in encodings(from).iter().zip(encodings(to)) {
        if let Some(renamed) = replaced(snapshot, from, &to)
            && !all.contains(&renamed)
        {
            all.push(renamed);
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::{base64, renamings};

    #[test]
    fn a_key_is_renamed_in_each_encoding_found() {
        let pairs = br#"[[[99,104,101,114,114,121],1],[[109,101,100,108,97,114],2]]"#;
        assert_eq!(
            renamings(pairs, b"medlar", b"cherry"),
            vec![br#"[[[99,104,101,114,114,121],1],[[99,104,101,114,114,121],2]]"#.to_vec()]
        );
        assert_eq!(
            renamings(b"636865727279 1\n6d65646c6172 2\n", b"medlar", b"banana"),
            vec![b"636865727279 1\n62616e616e61 2\n".to_vec()]
        );
        assert_eq!(
            renamings(br#"{"cherry":1,"medlar":2}"#, b"medlar", b"cherry"),
            vec![br#"{"cherry":1,"cherry":2}"#.to_vec()]
        );
        assert_eq!(
            renamings(b"bWVkbGFy=2", b"medlar", b"banana"),
            vec![b"YmFuYW5h=2".to_vec()]
        );
        assert_eq!(
            renamings(
                br#"{"[63, 68, 65, 72, 72, 79]":1,"[6d, 65, 64, 6c, 61, 72]":2}"#,
                b"medlar",
                b"cherry"
            ),
            vec![br#"{"[63, 68, 65, 72, 72, 79]":1,"[63, 68, 65, 72, 72, 79]":2}"#.to_vec()]
        );
        // The hex of each key's JSON string: `"a"` and `"Ä b"`.
        assert_eq!(
            renamings(
                br#"{"226122":[1],"22c384206222":[2]}"#,
                "Ä b".as_bytes(),
                b"a"
            ),
            vec![br#"{"226122":[1],"226122":[2]}"#.to_vec()]
        );
        assert!(renamings(b"[]", b"medlar", b"cherry").is_empty());
    }

    #[test]
    fn base64_is_the_standard_one() {
        assert_eq!(base64(b"medlar"), "bWVkbGFy");
        assert_eq!(base64(b"k"), "aw==");
        assert_eq!(base64(b"ke"), "a2U=");
    }
}

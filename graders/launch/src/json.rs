//! Just enough JSON to read cargo's build messages (`--message-format=json`): a value
//! tree, and lookups by key. The launcher has no dependencies, so no serde.

/// A JSON value. Numbers are kept as their text: cargo's messages are read for their
/// strings and booleans only.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string, unescaped.
    Text(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, its members in the order written.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// Parses one JSON document; `None` when `text` is not exactly one.
    pub fn parse(text: &str) -> Option<Value> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            at: 0,
        };
        let value = reader.value()?;
        reader.blank();
        (reader.at == reader.bytes.len()).then_some(value)
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string this is.
    pub fn text(&self) -> Option<&str> {
        match self {
            Value::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The boolean this is.
    pub fn boolean(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The elements of the array this is (none for anything else).
    pub fn elements(&self) -> &[Value] {
        match self {
            Value::Array(items) => items,
            _ => &[],
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn blank(&mut self) {
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.blank();
        (self.bytes.get(self.at) == Some(&byte)).then(|| self.at += 1)
    }

    fn word(&mut self, word: &str, value: Value) -> Option<Value> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end) == Some(word.as_bytes())).then(|| {
            self.at = end;
            value
        })
    }

    fn value(&mut self) -> Option<Value> {
        self.blank();
        match *self.bytes.get(self.at)? {
            b'n' => self.word("null", Value::Null),
            b't' => self.word("true", Value::Bool(true)),
            b'f' => self.word("false", Value::Bool(false)),
            b'"' => self.string().map(Value::Text),
            b'[' => self.array(),
            b'{' => self.object(),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| b"+-.eE".contains(b) || b.is_ascii_digit())
        {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
        Some(Value::Number(text.to_owned()))
    }

    fn array(&mut self) -> Option<Value> {
        self.eat(b'[')?;
        let mut items = Vec::new();
        if self.eat(b']').is_some() {
            return Some(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            if self.eat(b']').is_some() {
                return Some(Value::Array(items));
            }
            self.eat(b',')?;
        }
    }

    fn object(&mut self) -> Option<Value> {
        self.eat(b'{')?;
        let mut members = Vec::new();
        if self.eat(b'}').is_some() {
            return Some(Value::Object(members));
        }
        loop {
            self.blank();
            let key = self.string()?;
            self.eat(b':')?;
            members.push((key, self.value()?));
            if self.eat(b'}').is_some() {
                return Some(Value::Object(members));
            }
            self.eat(b',')?;
        }
    }

    fn string(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let mut out = Vec::new();
        loop {
            let byte = *self.bytes.get(self.at)?;
            self.at += 1;
            match byte {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let escaped = *self.bytes.get(self.at)?;
                    self.at += 1;
                    let plain = match escaped {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => self.unicode()?,
                        other => char::from(other),
                    };
                    out.extend_from_slice(plain.encode_utf8(&mut [0; 4]).as_bytes());
                }
                _ => out.push(byte),
            }
        }
    }

    /// The character of a `\uXXXX` escape (the `\u` read), a surrogate pair included.
    fn unicode(&mut self) -> Option<char> {
        let high = self.hex4()?;
        if !(0xD800..0xDC00).contains(&high) {
            return char::from_u32(high);
        }
        if self.bytes.get(self.at..self.at + 2) != Some(b"\\u") {
            return None;
        }
        self.at += 2;
        let low = self.hex4()?;
        char::from_u32(0x10000 + ((high - 0xD800) << 10) + low.checked_sub(0xDC00)?)
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = std::str::from_utf8(self.bytes.get(self.at..self.at + 4)?).ok()?;
        self.at += 4;
        u32::from_str_radix(digits, 16).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compiler_artifact_message_reads_as_cargo_wrote_it() {
        let line = r#"{"reason":"compiler-artifact","package_id":"path+file:///k/graders#0.1.0","target":{"kind":["bin"],"name":"byo","src_path":"/k/graders/src/bin/byo/main.rs"},"profile":{"opt_level":"1","debuginfo":2},"features":[],"filenames":["/k/target/debug/byo"],"executable":"/k/target/debug/byo","fresh":false}"#;
        let message = Value::parse(line).unwrap();
        assert_eq!(
            message.get("reason").and_then(Value::text),
            Some("compiler-artifact")
        );
        assert_eq!(message.get("fresh").and_then(Value::boolean), Some(false));
        let target = message.get("target").unwrap();
        assert_eq!(target.get("name").and_then(Value::text), Some("byo"));
        assert_eq!(
            target.get("kind").unwrap().elements()[0].text(),
            Some("bin")
        );
        assert_eq!(
            message.get("executable").and_then(Value::text),
            Some("/k/target/debug/byo")
        );
        assert_eq!(
            message.get("profile").and_then(|p| p.get("debuginfo")),
            Some(&Value::Number("2".to_owned()))
        );
    }

    #[test]
    fn escapes_are_unescaped_and_broken_documents_refused() {
        let value =
            Value::parse(r#" {"a": "x\"\\\n\u00e9\ud83e\udd80", "b": [null, true, -1.5e3]} "#);
        let value = value.unwrap();
        assert_eq!(value.get("a").and_then(Value::text), Some("x\"\\\né🦀"));
        assert_eq!(value.get("b").unwrap().elements().len(), 3);
        for broken in ["", "{", r#"{"a" 1}"#, "[1,]", r#""open"#, "{} {}", "nul"] {
            assert_eq!(Value::parse(broken), None, "{broken}");
        }
    }
}

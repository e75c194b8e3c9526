//! JSON read as a tree that keeps everything the bytes say: an object with a member
//! written twice is refused, where a `serde_json::Value` keeps the last and loses the
//! first.
//!
//! Two snapshots are compared as such trees (the spacing and the order of an object's
//! members are the writer's choice; the order of a list and a member written twice are
//! not), and forged bytes are read by it before they are rewritten.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// `bytes` as a JSON tree, or why they are none: not JSON, or an object with a member
/// written twice.
///
/// # Errors
/// When the bytes are not JSON or write a member of an object twice.
pub fn read(bytes: &[u8]) -> anyhow::Result<Value> {
    struct Strict(Value);
    struct Reader;
    impl<'de> Visitor<'de> for Reader {
        type Value = Value;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("JSON")
        }
        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }
        fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
            Ok(Value::Bool(b))
        }
        fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
            Ok(n.into())
        }
        fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
            Ok(n.into())
        }
        fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
            Ok(Number::from_f64(n).map_or(Value::Null, Value::Number))
        }
        fn visit_str<E>(self, s: &str) -> Result<Value, E> {
            Ok(Value::String(s.to_owned()))
        }
        fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Value, S::Error> {
            let mut items = Vec::new();
            while let Some(Strict(item)) = seq.next_element()? {
                items.push(item);
            }
            Ok(Value::Array(items))
        }
        fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Value, M::Error> {
            let mut fields = Map::new();
            while let Some(key) = map.next_key::<String>()? {
                let Strict(value) = map.next_value()?;
                if fields.insert(key.clone(), value).is_some() {
                    return Err(de::Error::custom(format!("member {key:?} written twice")));
                }
            }
            Ok(Value::Object(fields))
        }
    }
    impl<'de> de::Deserialize<'de> for Strict {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(Reader).map(Strict)
        }
    }
    Ok(serde_json::from_slice::<Strict>(bytes)?.0)
}

#[cfg(test)]
mod tests {
    use super::read;
    use serde_json::json;

    #[test]
    fn a_member_written_twice_is_refused_where_a_value_keeps_the_last() {
        let twice = br#"{"a": [1], "a": [2]}"#;
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(twice).unwrap(),
            json!({"a": [2]})
        );
        assert!(read(twice).unwrap_err().to_string().contains("twice"));
        assert!(read(br#"[{"a": 1}, {"a": 2}]"#).is_ok());
    }

    #[test]
    fn spacing_and_member_order_are_the_writers_choice() {
        assert_eq!(
            read(br#"{ "b": [1, 2], "a": null }"#).unwrap(),
            read(br#"{"a":null,"b":[1,2]}"#).unwrap()
        );
        assert_ne!(read(b"[1,2]").unwrap(), read(b"[2,1]").unwrap());
        assert!(read(b"[1] [2]").is_err());
    }
}

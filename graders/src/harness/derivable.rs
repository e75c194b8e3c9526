//! Whether bytes that `restore` took are what a derived `Deserialize` of the
//! implementation's own snapshot type reads, judged from the restored state's own
//! snapshot: the rule of the probes that hand `restore` one state in layouts other than
//! the implementation's (stages 05 and 06; in 02 and 03, whose briefs state no such
//! allowance, it keeps a derive's own reading of a struct from a list from failing).
//!
//! A brief allows what a derived reading of one's own type also reads: a field it does
//! not know (skipped), an `Option` field left out (`None`), a struct written as the list
//! of its fields, a field written twice (read as the last, through a `serde_json::Value`).
//! What it then restores is a state `snapshot` writes, so the restored state's own
//! snapshot, `own`, says what a derived reading must have found in the bytes, `probe`:
//! [`derivable`] holds when every member of `own` is found in `probe` where a derive looks
//! for it. A restore that read another layout by a path of its own (a second struct, an
//! untagged enum, a hand-written parser) restores a state whose snapshot names members
//! the probe does not have, and fails it.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

/// A JSON tree that keeps what a `serde_json::Value` (without `preserve_order`, as here)
/// loses: the order an object's members were written in, which is the order a derive
/// reads a struct written as a list, and a member written twice.
#[derive(Debug, Clone, PartialEq)]
pub enum Tree {
    /// A number, string, boolean or `null`.
    Leaf(Value),
    /// A list.
    List(Vec<Tree>),
    /// An object's members, in the order the bytes write them.
    Members(Vec<(String, Tree)>),
}

impl Tree {
    /// `bytes` as a tree, or `None` where they are not one JSON value.
    pub fn read(bytes: &[u8]) -> Option<Tree> {
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        let tree = deserializer.deserialize_any(Reader).ok()?;
        deserializer.end().ok()?;
        Some(tree)
    }

    /// The tree as a `serde_json::Value`: members in key order, the last of one written
    /// twice.
    pub fn to_value(&self) -> Value {
        match self {
            Tree::Leaf(value) => value.clone(),
            Tree::List(items) => Value::Array(items.iter().map(Tree::to_value).collect()),
            Tree::Members(members) => Value::Object(
                members
                    .iter()
                    .map(|(name, tree)| (name.clone(), tree.to_value()))
                    .collect(),
            ),
        }
    }
}

/// The visitor of `Tree::read`.
struct Reader;

impl<'de> de::Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tree, D::Error> {
        deserializer.deserialize_any(Reader)
    }
}

impl<'de> Visitor<'de> for Reader {
    type Value = Tree;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E>(self) -> Result<Tree, E> {
        Ok(Tree::Leaf(Value::Null))
    }
    fn visit_bool<E>(self, b: bool) -> Result<Tree, E> {
        Ok(Tree::Leaf(Value::Bool(b)))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Tree, E> {
        Ok(Tree::Leaf(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Tree, E> {
        Ok(Tree::Leaf(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Tree, E> {
        Ok(Tree::Leaf(
            Number::from_f64(n).map_or(Value::Null, Value::Number),
        ))
    }
    fn visit_str<E>(self, s: &str) -> Result<Tree, E> {
        Ok(Tree::Leaf(Value::String(s.to_owned())))
    }
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Tree, S::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Tree::List(items))
    }
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Tree, M::Error> {
        let mut members = Vec::new();
        while let Some(name) = map.next_key::<String>()? {
            members.push((name, map.next_value()?));
        }
        Ok(Tree::Members(members))
    }
}

/// Whether a derived reading of the type whose snapshot is `own` can have read `probe`
/// into that state:
/// - a number, string, boolean or `null`: `probe` is the same;
/// - a list: `probe` is a list as long, each item derivable from `own`'s at its place;
///   or, where both are lists of entries (lists or objects, not a tuple of values), each
///   entry derivable from one of `own`'s, one each, in any order: a derive reads the
///   entries of a map in the order they are written, and a state kept in order
///   snapshots them in its own;
/// - an object: `probe` is an object in which each member of `own` is derivable from the
///   member of that name (the last, where it is written twice), or, left out, is `null`
///   in `own` (an `Option` read as `None`) or another value a `#[serde(default)]` field
///   takes (`false`, 0, `""`, `[]`, `{}`), what a derive reads from no byte at all;
///   members `own` does not have are fields a derive skips; or `probe` is a list of as
///   many items as `own` has members, each derivable from the member at its place in the
///   order `own`'s bytes write them (a struct written as the list of its fields).
pub fn derivable(probe: &Tree, own: &Tree) -> bool {
    derivable_beside(probe, own, None)
}

/// [`derivable`], where a member left out of `probe` may also hold what `fresh` (the
/// same place in the implementation's snapshot of an instance that holds nothing) holds
/// there: a value that does not depend on the state, such as a version, is what a
/// derive's `#[serde(default = ..)]` reads from nothing.
fn derivable_beside(probe: &Tree, own: &Tree, fresh: Option<&Tree>) -> bool {
    let at = |name: &str| fresh.and_then(|fresh| member(fresh, name));
    match (probe, own) {
        (Tree::Leaf(p), Tree::Leaf(o)) => p == o,
        (Tree::List(p), Tree::List(o)) => {
            p.len() == o.len()
                && (p.iter().zip(o).all(|(p, o)| derivable(p, o))
                    || (entries(p) && entries(o) && matched(p, o)))
        }
        (Tree::Members(p), Tree::Members(o)) => {
            o.iter().all(
                |(name, o)| match p.iter().rev().find(|(written, _)| written == name) {
                    Some((_, p)) => derivable_beside(p, o, at(name)),
                    None => {
                        read_from_nothing(o)
                            || at(name).is_some_and(|fresh| fresh.to_value() == o.to_value())
                    }
                },
            )
        }
        (Tree::List(p), Tree::Members(o)) => {
            p.len() == o.len()
                && p.iter()
                    .zip(o)
                    .all(|(p, (name, o))| derivable_beside(p, o, at(name)))
        }
        _ => false,
    }
}

/// The member of `tree` named `name` (the last, where it is written twice).
fn member<'a>(tree: &'a Tree, name: &str) -> Option<&'a Tree> {
    match tree {
        Tree::Members(members) => members
            .iter()
            .rev()
            .find(|(written, _)| written == name)
            .map(|(_, tree)| tree),
        _ => None,
    }
}

/// Whether `items` are a list of entries (each a list or an object), such as the
/// aggregates of a map, whose order a derive does not keep when it reads them into a
/// map, rather than a tuple of values, whose order is what each value means.
fn entries(items: &[Tree]) -> bool {
    items
        .iter()
        .all(|item| matches!(item, Tree::List(_) | Tree::Members(_)))
}

/// Whether each entry of `probe` is derivable from its own entry of `own`, one each, in
/// any order: a perfect matching, found by augmenting paths (Kuhn's algorithm), as an
/// entry may be derivable from more than one of `own`'s.
fn matched(probe: &[Tree], own: &[Tree]) -> bool {
    let fits: Vec<Vec<usize>> = probe
        .iter()
        .map(|p| (0..own.len()).filter(|&o| derivable(p, &own[o])).collect())
        .collect();
    // `holder[o]`: the probe entry own entry `o` is matched to.
    let mut holder: Vec<Option<usize>> = vec![None; own.len()];
    (0..probe.len()).all(|p| augment(p, &fits, &mut holder, &mut vec![false; own.len()]))
}

/// Whether probe entry `p` can be matched, moving earlier matches along a path.
fn augment(p: usize, fits: &[Vec<usize>], holder: &mut [Option<usize>], seen: &mut [bool]) -> bool {
    for &o in &fits[p] {
        if seen[o] {
            continue;
        }
        seen[o] = true;
        let free = match holder[o] {
            None => true,
            Some(q) => augment(q, fits, holder, seen),
        };
        if free {
            holder[o] = Some(p);
            return true;
        }
    }
    false
}

/// Whether `own` is what a derived field left out of the bytes reads: `None`, or a
/// `Default`.
fn read_from_nothing(own: &Tree) -> bool {
    match own {
        Tree::Leaf(Value::Null | Value::Bool(false)) => true,
        Tree::Leaf(Value::Number(n)) => n.as_u64() == Some(0) || n.as_f64() == Some(0.0),
        Tree::Leaf(Value::String(s)) => s.is_empty(),
        Tree::List(items) => items.is_empty(),
        Tree::Members(members) => members.is_empty(),
        Tree::Leaf(_) => false,
    }
}

/// Whether `probe` and `own` are the same JSON tree (an object's members in any order):
/// the layout is the implementation's own, and a probe of it judges nothing new.
pub fn same_tree(probe: &[u8], own: &[u8]) -> bool {
    match (Tree::read(probe), Tree::read(own)) {
        (Some(p), Some(o)) => p.to_value() == o.to_value(),
        _ => false,
    }
}

/// Whether a restore of `probe` that gave a state whose own snapshot is
/// `restored_snapshot` is a derived reading of the bytes ([`derivable`]). A snapshot that
/// is not JSON never is: a JSON probe read into another format is no derived reading of
/// it.
pub fn derived(probe: &[u8], restored_snapshot: &[u8]) -> bool {
    match (Tree::read(probe), Tree::read(restored_snapshot)) {
        (Some(p), Some(o)) => derivable(&p, &o),
        _ => false,
    }
}

/// [`derived`], where a member left out of `probe` may also hold what it holds in
/// `fresh`, the implementation's snapshot of an instance that holds nothing (a version,
/// say: what a `#[serde(default = ..)]` reads from nothing); `fresh` is `None` where
/// that snapshot failed.
pub fn derived_beside(probe: &[u8], restored_snapshot: &[u8], fresh: Option<&[u8]>) -> bool {
    let fresh = fresh.and_then(Tree::read);
    match (Tree::read(probe), Tree::read(restored_snapshot)) {
        (Some(p), Some(o)) => derivable_beside(&p, &o, fresh.as_ref()),
        _ => false,
    }
}

/// What a report says of a restore of `probe`, in `layout`, that is no derived reading:
/// the layout, the implementation's own snapshot of the state and its snapshot of what
/// it restored.
pub fn explain(layout: &str, probe: &[u8], own: &[u8], restored_snapshot: &[u8]) -> String {
    format!(
        "{} ({layout}), a layout your snapshot never writes (yours is {}): your snapshot of \
         what restore made of it is {}, but a derived Deserialize of your snapshot's type \
         reads only its own members (skipping others, an Option left out as None, a \
         member left out as a default or as what your new instance's snapshot holds \
         there, a struct as the list of its fields), not renamed or regrouped ones",
        String::from_utf8_lossy(probe),
        String::from_utf8_lossy(own),
        String::from_utf8_lossy(restored_snapshot)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn derives(probe: &str, own: &str) -> bool {
        derivable(
            &Tree::read(probe.as_bytes()).expect("probe"),
            &Tree::read(own.as_bytes()).expect("own"),
        )
    }

    #[test]
    fn the_same_tree_is_derivable_in_any_member_order() {
        assert!(derives(r#"{"next":2}"#, r#"{"next":2}"#));
        assert!(derives(r#"{"b":[1,2],"a":"x"}"#, r#"{"a":"x","b":[1,2]}"#));
        assert!(derives("2", "2"));
    }

    #[test]
    fn each_leniency_of_a_derive_is_derivable() {
        // A field it does not know, which it skips.
        assert!(derives(r#"{"next":2,"completed":1}"#, r#"{"next":2}"#));
        // An `Option` left out, read as `None`; a defaulted field left out.
        assert!(derives(r#"{"open":[]}"#, r#"{"watermark":null,"open":[]}"#));
        assert!(derives(r#"{"completed":1}"#, r#"{"next":null}"#));
        assert!(derives(r#"{"a":1}"#, r#"{"a":1,"b":[],"c":0,"d":false}"#));
        // A struct written as the list of its fields, in the order they are written.
        assert!(derives(r#"[1,[2]]"#, r#"{"watermark":1,"open":[2]}"#));
        assert!(derives(
            r#"[[{"start":0,"end":10},"a",7,1]]"#,
            r#"[{"window":{"start":0,"end":10},"key":"a","sum":7,"count":1}]"#
        ));
        // A field written twice, read as the last.
        assert!(derives(r#"{"next":5,"next":2}"#, r#"{"next":2}"#));
        // Entries in another order, which a state kept in order snapshots in its own.
        assert!(derives(
            r#"{"open":[[{"start":0,"end":10},"a",7,2],[{"start":0,"end":10},"b",-2,1],[{"start":10,"end":20},"a",5,1]]}"#,
            r#"{"open":[[{"start":0,"end":10},"a",7,2],[{"start":10,"end":20},"a",5,1],[{"start":0,"end":10},"b",-2,1]]}"#
        ));
        assert!(derives(r#"[["b",1],["a",2]]"#, r#"[["a",2],["b",1]]"#));
    }

    #[test]
    fn entries_are_matched_one_each() {
        // Each probe entry is derivable from the first own entry (a field it skips), so
        // only a matching that moves the first probe entry along finds one each.
        assert!(derives(
            r#"[{"a":1,"b":2},{"a":1}]"#,
            r#"[{"a":1},{"a":1,"b":2}]"#
        ));
        // Two probe entries cannot both be the one own entry they fit.
        assert!(!derives(r#"[["a",1],["a",1]]"#, r#"[["a",1],["b",1]]"#));
    }

    #[test]
    fn another_layout_of_the_state_is_not_derivable() {
        // A member renamed: the value read from a name the type does not have.
        assert!(!derives(r#"{"completed":1}"#, r#"{"next":2}"#));
        assert!(!derives(r#"{"last":2}"#, r#"{"next":2}"#));
        // A bare number for a struct.
        assert!(!derives("2", r#"{"next":2}"#));
        // A list regrouped: flat aggregates read into groups by window.
        assert!(!derives(
            r#"{"watermark":1,"open":[[{"start":0,"end":10},"a",7,1]]}"#,
            r#"{"watermark":1,"windows":[{"window":{"start":0,"end":10},"keys":[["a",7,1]]}]}"#
        ));
        assert!(!derives(
            r#"{"open":[[1,"a"],[1,"b"]]}"#,
            r#"{"open":[[1,["a","b"]]]}"#
        ));
        // A field written twice read as the first; fields as a list out of their order.
        assert!(!derives(r#"{"next":2,"next":5}"#, r#"{"next":2}"#));
        assert!(!derives(r#"[[2],1]"#, r#"{"watermark":1,"open":[2]}"#));
        // A tuple's values in another order: each value's place is what it means.
        assert!(!derives(r#"[["a",1,2]]"#, r#"[["a",2,1]]"#));
        assert!(!derives(
            r#"[[{"start":0,"end":10},"a"]]"#,
            r#"[["a",{"start":0,"end":10}]]"#
        ));
        // A left-out member whose value a derive cannot have made.
        assert!(!derives(r#"{"open":[]}"#, r#"{"watermark":1,"open":[]}"#));
    }

    /// A member left out of the probe holding what a new instance's snapshot holds
    /// there (the twentieth red team's c05-21: a version read by `#[serde(default =
    /// "version_one")]`), and not a value of the state.
    #[test]
    fn a_member_left_out_may_hold_what_a_fresh_snapshot_holds() {
        let fresh = br#"{"version":1,"completed":0}"#;
        let beside = |probe: &[u8], own: &[u8]| derived_beside(probe, own, Some(fresh));
        assert!(beside(
            br#"{"completed":1}"#,
            br#"{"version":1,"completed":1}"#
        ));
        assert!(!derived(
            br#"{"completed":1}"#,
            br#"{"version":1,"completed":1}"#
        ));
        // A state's value read from another member's name is still no derived reading.
        assert!(!beside(
            br#"{"last_completed":1}"#,
            br#"{"version":1,"completed":1}"#
        ));
        // Nor a constant other than the fresh one.
        assert!(!beside(
            br#"{"completed":1}"#,
            br#"{"version":2,"completed":1}"#
        ));
    }

    #[test]
    fn a_probe_read_into_a_format_that_is_not_json_is_not_derived() {
        assert!(!derived(br#"{"completed":1}"#, b"next 2"));
        assert!(derived(br#"{"next":2}"#, br#"{"next":2}"#));
        assert!(same_tree(br#"{"a":1,"b":2}"#, br#"{"b":2, "a":1}"#));
        assert!(!same_tree(br#"{"a":1}"#, b"a=1"));
    }
}

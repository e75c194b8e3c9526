//! A strict reader of `cohort.html` for the tests: the page parsed as XML into a tree,
//! panicking on anything that is not well-formed.

use std::collections::BTreeMap;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// One element of the parsed page.
#[derive(Debug, Default)]
pub(super) struct Node {
    pub name: String,
    pub attrs: BTreeMap<String, String>,
    pub children: Vec<Node>,
    pub text: String,
}

impl Node {
    fn all<'a>(&'a self, name: &str, out: &mut Vec<&'a Node>) {
        for child in &self.children {
            if child.name == name {
                out.push(child);
            }
            child.all(name, out);
        }
    }

    pub fn find(&self, name: &str) -> Vec<&Node> {
        let mut out = Vec::new();
        self.all(name, &mut out);
        out
    }

    pub fn section(&self, id: &str) -> &Node {
        self.find("section")
            .into_iter()
            .find(|s| s.attrs.get("id").map(String::as_str) == Some(id))
            .unwrap_or_else(|| panic!("no section {id}"))
    }

    /// The body rows' cells, as text.
    pub fn rows(&self) -> Vec<Vec<String>> {
        self.find("tbody")
            .iter()
            .flat_map(|b| b.find("tr"))
            .map(|tr| {
                tr.children
                    .iter()
                    .map(|c| c.full_text().trim().to_owned())
                    .collect()
            })
            .collect()
    }

    pub fn full_text(&self) -> String {
        let mut text = self.text.clone();
        for child in &self.children {
            text.push_str(&child.full_text());
        }
        text
    }
}

fn element(e: &BytesStart<'_>) -> Node {
    let mut node = Node {
        name: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
        ..Node::default()
    };
    for a in e.attributes() {
        let a = a.expect("an attribute");
        let value = a.unescape_value().expect("escaped").into_owned();
        node.attrs
            .insert(String::from_utf8_lossy(a.key.as_ref()).into_owned(), value);
    }
    node
}

fn open(stack: &mut [Node]) -> &mut Node {
    stack.last_mut().expect("an open element")
}

/// The page as a tree; panics on anything that is not well-formed.
pub(super) fn parse(html: &str) -> Node {
    let mut reader = Reader::from_str(html);
    let mut stack = vec![Node::default()];
    loop {
        match reader.read_event().expect("well-formed") {
            Event::Start(e) => stack.push(element(&e)),
            Event::Empty(e) => open(&mut stack).children.push(element(&e)),
            Event::End(_) => {
                let node = stack.pop().expect("opened");
                open(&mut stack).children.push(node);
            }
            Event::Text(t) => {
                let text = t.decode().expect("utf-8").into_owned();
                open(&mut stack).text.push_str(&text);
            }
            Event::GeneralRef(r) => {
                let name = r.decode().expect("utf-8").into_owned();
                let c = match name.as_str() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "#39" => "'",
                    other => panic!("an entity HTML and XML do not share: {other}"),
                };
                open(&mut stack).text.push_str(c);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(stack.len(), 1, "every element is closed");
    stack.pop().expect("the document")
}

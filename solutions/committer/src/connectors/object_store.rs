//! An in-memory object store with a staging area: shape A's external system.
//!
//! Staged objects are durable but invisible; `publish` moves one into the visible
//! namespace in a single step, which is what makes the publish atomic (a real store
//! offers a rename, or a multipart upload that completes in one call).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A store shared by every subtask and by every run of the job (it survives crashes).
pub type SharedObjectStore<T> = Rc<RefCell<ObjectStore<T>>>;

/// Staged and published objects, each a list of records, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectStore<T> {
    staged: BTreeMap<String, Vec<T>>,
    published: BTreeMap<String, Vec<T>>,
}

impl<T> Default for ObjectStore<T> {
    fn default() -> Self {
        Self {
            staged: BTreeMap::new(),
            published: BTreeMap::new(),
        }
    }
}

/// Where an object is, if anywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectPlace {
    /// Durable, invisible.
    Staged,
    /// Visible to readers.
    Published,
    /// Neither.
    Absent,
}

impl<T: Clone> ObjectStore<T> {
    /// An empty store, shareable.
    pub fn shared() -> SharedObjectStore<T> {
        Rc::new(RefCell::new(Self::default()))
    }

    /// Writes `records` durably under `name`, invisibly.
    pub fn stage(&mut self, name: &str, records: Vec<T>) {
        self.staged.insert(name.to_owned(), records);
    }

    /// Moves the staged object `name` into the visible namespace, in one step.
    /// Returns where the object was before.
    pub fn publish(&mut self, name: &str) -> ObjectPlace {
        if let Some(records) = self.staged.remove(name) {
            self.published.insert(name.to_owned(), records);
            ObjectPlace::Staged
        } else {
            self.place(name)
        }
    }

    /// Deletes the staged object `name`. Returns where the object was before.
    pub fn discard(&mut self, name: &str) -> ObjectPlace {
        let before = self.place(name);
        self.staged.remove(name);
        before
    }

    /// Where `name` is.
    pub fn place(&self, name: &str) -> ObjectPlace {
        if self.staged.contains_key(name) {
            ObjectPlace::Staged
        } else if self.published.contains_key(name) {
            ObjectPlace::Published
        } else {
            ObjectPlace::Absent
        }
    }

    /// The names of staged objects, in order.
    pub fn staged_names(&self) -> Vec<String> {
        self.staged.keys().cloned().collect()
    }

    /// The names of published objects, in order.
    pub fn published_names(&self) -> Vec<String> {
        self.published.keys().cloned().collect()
    }

    /// Every published record, object by object in name order.
    pub fn published_records(&self) -> Vec<T> {
        self.published.values().flatten().cloned().collect()
    }
}

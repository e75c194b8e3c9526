//! An in-memory XA database: committed rows, prepared transactions, and connections
//! whose open transaction dies with them.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use anyhow::{Context, Result, bail};

use super::xa_store::XaStore;
use crate::{AbortOutcome, CommitOutcome, HandleLost};

/// The database's durable contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XaDatabase<T> {
    rows: Vec<T>,
    prepared: BTreeMap<String, Vec<T>>,
    committed: BTreeSet<String>,
    next_connection: u64,
    open: BTreeMap<u64, Vec<T>>,
}

impl<T> Default for XaDatabase<T> {
    fn default() -> Self {
        Self {
            rows: Vec::new(),
            prepared: BTreeMap::new(),
            committed: BTreeSet::new(),
            next_connection: 0,
            open: BTreeMap::new(),
        }
    }
}

impl<T: Clone> XaDatabase<T> {
    /// An empty database, shareable between connections and runs.
    pub fn shared() -> Rc<RefCell<Self>> {
        Rc::new(RefCell::new(Self::default()))
    }

    /// Opens a connection to `db`.
    pub fn connect(db: &Rc<RefCell<Self>>) -> XaConnection<T> {
        let id = {
            let mut d = db.borrow_mut();
            d.next_connection += 1;
            d.next_connection
        };
        XaConnection {
            db: Rc::clone(db),
            id,
        }
    }

    /// The committed rows, in commit order.
    pub fn rows(&self) -> &[T] {
        &self.rows
    }

    /// How many transactions are open on live connections.
    pub fn open_transactions(&self) -> usize {
        self.open.len()
    }
}

/// A connection; dropping it (a crash) rolls back its open transaction, as a server
/// does when a client disappears.
#[derive(Debug)]
pub struct XaConnection<T: Clone> {
    db: Rc<RefCell<XaDatabase<T>>>,
    id: u64,
}

impl<T: Clone> Drop for XaConnection<T> {
    fn drop(&mut self) {
        self.db.borrow_mut().open.remove(&self.id);
    }
}

impl<T: Clone> XaStore for XaConnection<T> {
    type Record = T;

    fn begin(&mut self) -> Result<()> {
        let mut db = self.db.borrow_mut();
        if db.open.contains_key(&self.id) {
            bail!("connection {} already has an open transaction", self.id);
        }
        db.open.insert(self.id, Vec::new());
        Ok(())
    }

    fn insert(&mut self, record: T) -> Result<()> {
        let mut db = self.db.borrow_mut();
        let open = db
            .open
            .get_mut(&self.id)
            .with_context(|| format!("insert on connection {} without a transaction", self.id))?;
        open.push(record);
        Ok(())
    }

    fn prepare(&mut self, gid: &str) -> Result<()> {
        let mut db = self.db.borrow_mut();
        if db.prepared.contains_key(gid) || db.committed.contains(gid) {
            bail!("global transaction id {gid} is already in use");
        }
        let rows = db
            .open
            .remove(&self.id)
            .with_context(|| format!("prepare on connection {} without a transaction", self.id))?;
        db.prepared.insert(gid.to_owned(), rows);
        Ok(())
    }

    fn commit_prepared(&mut self, gid: &str) -> Result<CommitOutcome> {
        let mut db = self.db.borrow_mut();
        if let Some(rows) = db.prepared.remove(gid) {
            db.rows.extend(rows);
            db.committed.insert(gid.to_owned());
            Ok(CommitOutcome::Committed)
        } else if db.committed.contains(gid) {
            Ok(CommitOutcome::AlreadyCommitted)
        } else {
            Err(HandleLost {
                handle: format!("transaction {gid}"),
            }
            .into())
        }
    }

    fn rollback_prepared(&mut self, gid: &str) -> Result<AbortOutcome> {
        let mut db = self.db.borrow_mut();
        if db.committed.contains(gid) {
            bail!("cannot roll back {gid}: it is already committed");
        }
        Ok(match db.prepared.remove(gid) {
            Some(_) => AbortOutcome::Aborted,
            None => AbortOutcome::AlreadyAborted,
        })
    }

    fn prepared_transactions(&self) -> Result<Vec<String>> {
        Ok(self.db.borrow().prepared.keys().cloned().collect())
    }
}

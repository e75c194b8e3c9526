//! A call's answer as the judge reads it: a value, an error, or a panic caught where the
//! brief says "never a panic", so the failure can name the rule the panic broke.

use std::panic::{self, AssertUnwindSafe};

use serde::{Deserialize, Serialize};

/// How one call of the implementation ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer<T> {
    /// It returned `Ok` with this value.
    Ok(T),
    /// It returned this error (its message, with its causes).
    Err(String),
    /// It panicked with this message.
    Panicked(String),
}

impl<T> Answer<T> {
    /// The answer with `f` applied to its value; an error or a panic stays as it is.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Answer<U> {
        match self {
            Answer::Ok(value) => Answer::Ok(f(value)),
            Answer::Err(e) => Answer::Err(e),
            Answer::Panicked(message) => Answer::Panicked(message),
        }
    }

    /// Whether the call returned `Ok`.
    pub fn is_ok(&self) -> bool {
        matches!(self, Answer::Ok(_))
    }

    /// The answer as a result: a panic reads as an error saying so.
    pub fn as_result(&self) -> Result<&T, String> {
        match self {
            Answer::Ok(value) => Ok(value),
            Answer::Err(e) => Err(e.clone()),
            Answer::Panicked(message) => Err(format!("panicked: {message}")),
        }
    }
}

impl<T: std::fmt::Debug> Answer<T> {
    /// The answer as a reader writes a call's result: `Ok(..)`, `Err(..)`, `panicked: ..`.
    pub fn show(&self) -> String {
        match self {
            Answer::Ok(value) => format!("Ok({value:?})"),
            Answer::Err(e) => format!("Err({e:?})"),
            Answer::Panicked(message) => format!("panicked: {message}"),
        }
    }
}

/// Runs `call`, catching a panic; a `todo!()` goes on unwinding, to reach the harness as
/// one ("not started").
pub fn caught<T>(call: impl FnOnce() -> anyhow::Result<T>) -> Answer<T> {
    match panic::catch_unwind(AssertUnwindSafe(call)) {
        Ok(Ok(value)) => Answer::Ok(value),
        Ok(Err(e)) => Answer::Err(format!("{e:#}")),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            if message.starts_with("not yet implemented") {
                panic::resume_unwind(payload);
            }
            Answer::Panicked(message)
        }
    }
}

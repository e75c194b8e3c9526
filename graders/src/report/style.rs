//! Terminal colours for every report and verb: on only when stdout is a terminal, and
//! never with `NO_COLOR`, so what goes to a file or a pipe is plain text.

use std::io::IsTerminal;

/// Terminal colours, on only for a terminal and never with `NO_COLOR`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    colour: bool,
}

impl Style {
    /// Colour when stdout is a terminal and `NO_COLOR` is unset or empty.
    pub fn detect() -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Self {
            colour: !no_color && std::io::stdout().is_terminal(),
        }
    }

    /// No colour at all (files, tests).
    pub fn plain() -> Self {
        Self { colour: false }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// Red: a failure.
    pub fn bad(&self, text: &str) -> String {
        self.paint("31", text)
    }
    /// Green: a pass.
    pub fn good(&self, text: &str) -> String {
        self.paint("32", text)
    }
    /// Yellow: not started, or a warning.
    pub fn warn(&self, text: &str) -> String {
        self.paint("33", text)
    }
    /// Bold: headings.
    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }
    /// Dim: secondary detail.
    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }
}

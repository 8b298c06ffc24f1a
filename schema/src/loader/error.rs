//! Loader errors: each one a `file:line:col: message` with the fix in the message.

use std::fmt;
use std::path::{Path, PathBuf};

use proc_macro2::Span;

/// One problem found while loading a schema crate, at its place in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The source file, as reached from the crate directory given to the loader.
    pub file: PathBuf,
    /// The line, 1-based (0 when the error concerns a whole file that could not be read).
    pub line: usize,
    /// The column, 1-based, counted in characters (as rustc prints it).
    pub col: usize,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl LoadError {
    /// An error at `span` in `file`.
    pub fn at(file: &Path, span: Span, message: impl Into<String>) -> Self {
        let start = span.start();
        LoadError {
            file: file.to_path_buf(),
            line: start.line,
            col: start.column + 1,
            message: message.into(),
        }
    }

    /// An error at an explicit line and column.
    pub fn at_line(file: &Path, line: usize, col: usize, message: impl Into<String>) -> Self {
        LoadError {
            file: file.to_path_buf(),
            line,
            col,
            message: message.into(),
        }
    }

    /// Every error of a `syn::Error` (the grammar reports several at once), each at its span.
    pub fn from_syn(file: &Path, err: syn::Error) -> Vec<Self> {
        err.into_iter()
            .map(|e| LoadError::at(file, e.span(), e.to_string()))
            .collect()
    }

    /// `file:line:col` (just `file` for an error without a line).
    pub fn location(&self) -> String {
        if self.line == 0 {
            self.file.display().to_string()
        } else {
            format!("{}:{}:{}", self.file.display(), self.line, self.col)
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location(), self.message)
    }
}

impl std::error::Error for LoadError {}

/// Every error the loader found, in source order; `Display` prints one per line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LoadErrors(pub Vec<LoadError>);

impl LoadErrors {
    /// Sorts by file, line and column, and drops exact duplicates.
    pub(crate) fn sorted(mut self) -> Self {
        self.0.sort_by(|a, b| {
            (&a.file, a.line, a.col, &a.message).cmp(&(&b.file, b.line, b.col, &b.message))
        });
        self.0.dedup();
        self
    }
}

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "error: {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}

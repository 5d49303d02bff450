//! Problems found while loading, validating or rendering a book.
//!
//! Every stage collects [`Diagnostic`]s instead of stopping at the first one, so an author
//! sees all problems of a build at once, each pointing at a file, line and column.

use serde::Serialize;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Reported; fails the build only with `--deny-warnings`.
    Warning,
    /// Fails the build.
    Error,
}

/// How diagnostics are printed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MessageFormat {
    /// `path:line:col: error: message` with hints.
    #[default]
    Human,
    /// One JSON object per line: {"level","path","line","column","message","hint"}.
    Json,
}

/// One problem at a place in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub level: Level,
    /// The file, relative to the book root where possible.
    pub path: PathBuf,
    /// 1-based line (0 when the problem concerns the whole file).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error at `path:line:column`.
    pub fn error(
        path: impl AsRef<Path>,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            level: Level::Error,
            path: path.as_ref().to_path_buf(),
            line,
            column,
            message: message.into(),
            hint: None,
        }
    }

    /// A warning at `path:line:column`.
    pub fn warning(
        path: impl AsRef<Path>,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            level: Level::Warning,
            ..Diagnostic::error(path, line, column, message)
        }
    }

    /// Adds what the author should do.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.level {
            Level::Error => "error",
            Level::Warning => "warning",
        };
        write!(f, "{}", self.path.display())?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column.max(1))?;
        }
        write!(f, ": {level}: {}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

/// 1-based line and column of a byte offset in `text` (column counted in characters).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// The closest candidate to `word` by edit distance, for "did you mean" hints.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Sorts diagnostics by file and position, so reports read in order and are reproducible.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| {
        (&a.path, a.line, a.column, &a.message).cmp(&(&b.path, b.line, b.column, &b.message))
    });
}

/// Prints diagnostics in the chosen format to stderr.
pub fn print_diagnostics(diags: &[Diagnostic], format: MessageFormat) {
    // Buffered: a book with thousands of warnings printed a line per system call.
    let mut err = std::io::BufWriter::new(std::io::stderr().lock());
    for d in diags {
        let _ = match format {
            MessageFormat::Human => writeln!(err, "{d}"),
            MessageFormat::Json => {
                writeln!(err, "{}", serde_json::to_string(d).unwrap_or_default())
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let t = "ab\ncdé\nx";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 7), (2, 4));
        assert_eq!(line_col(t, 8), (3, 1));
    }

    #[test]
    fn suggests_close_names() {
        let keys = ["title", "connector", "related"];
        assert_eq!(did_you_mean("conector", keys), Some("connector"));
        assert_eq!(did_you_mean("titel", keys), Some("title"));
        assert_eq!(did_you_mean("zzzzzz", keys), None);
    }

    #[test]
    fn displays_path_line_column() {
        let d = Diagnostic::error("content/a.md", 3, 5, "bad").with_hint("fix it");
        assert_eq!(
            d.to_string(),
            "content/a.md:3:5: error: bad\n  hint: fix it"
        );
    }
}

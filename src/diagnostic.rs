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

/// An error and its causes in one line (`cannot write x: No space left on device`), for a
/// diagnostic's message.
pub fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        // An error that prints its cause in its own message (`engine error: {0}`) would
        // repeat it.
        let shown = c.to_string();
        if !text.ends_with(&shown) {
            text.push_str(": ");
            text.push_str(&shown);
        }
        cause = c.source();
    }
    text
}

/// Where one text's lines start, for the lines of many offsets: each is a binary search, where
/// [`line_col`] reads the text up to the offset (a long page with thousands of them was
/// quadratic).
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offsets of the line breaks.
    breaks: Vec<usize>,
    /// The last offset asked for and its column: offsets asked for in order along one long
    /// line count its characters once.
    last: std::cell::Cell<(usize, usize)>,
}

impl<'a> LineIndex<'a> {
    /// Finds the line breaks of `text`.
    pub fn new(text: &'a str) -> Self {
        LineIndex {
            text,
            breaks: text.match_indices('\n').map(|(i, _)| i).collect(),
            last: std::cell::Cell::new((0, 1)),
        }
    }

    /// 1-based line of a byte offset.
    pub fn line(&self, offset: usize) -> usize {
        self.breaks.partition_point(|&b| b < offset) + 1
    }

    /// 1-based line and column of a byte offset, as [`line_col`] gives them.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line(offset);
        let line_start = match line {
            1 => 0,
            n => self.breaks[n - 2] + 1,
        };
        let (last, last_column) = self.last.get();
        let (from, base) = match last >= line_start && last <= offset {
            true => (last, last_column),
            false => (line_start, 1),
        };
        let Some(between) = self.text.get(from..offset) else {
            return (line, 1);
        };
        let column = base + between.chars().count();
        self.last.set((offset, column));
        (line, column)
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
pub fn print_diagnostics(diags: &[Diagnostic], format: MessageFormat, verbose: bool) {
    // Buffered: a book with thousands of warnings printed a line per system call.
    let mut err = std::io::BufWriter::new(std::io::stderr().lock());
    if format == MessageFormat::Json {
        for d in diags {
            let _ = writeln!(err, "{}", serde_json::to_string(d).unwrap_or_default());
        }
        return;
    }
    let _ = write!(err, "{}", human_report(diags, verbose));
}

/// Warnings printed one by one before the rest are counted per kind (a large book can have
/// thousands of the same warning, which buries the few that differ).
pub const WARNINGS_SHOWN: usize = 20;

/// The human-readable report: every error; the first [`WARNINGS_SHOWN`] warnings, then the
/// others counted per kind (all of them when `verbose`).
pub fn human_report(diags: &[Diagnostic], verbose: bool) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let mut warnings = 0;
    let mut rest: Vec<(String, usize)> = Vec::new();
    for d in diags {
        if d.is_error() || verbose || warnings < WARNINGS_SHOWN {
            let _ = writeln!(out, "{d}");
        } else {
            let kind = message_kind(&d.message);
            match rest.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => rest.push((kind, 1)),
            }
        }
        if !d.is_error() {
            warnings += 1;
        }
    }
    if !rest.is_empty() {
        let more: usize = rest.iter().map(|(_, n)| n).sum();
        let _ = writeln!(
            out,
            "… and {more} more warning(s) (--verbose prints every one):"
        );
        rest.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        for (kind, n) in rest {
            let _ = writeln!(out, "  {n:>6} × {kind}");
        }
    }
    out
}

/// A warning's kind: its message with the quoted names, the parenthesised asides (paths)
/// and the numbers in it blanked, so that the same warning about different entries counts
/// as one kind.
fn message_kind(message: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut aside = 0usize;
    let mut digits = false;
    for c in message.chars() {
        if c == '`' && aside == 0 {
            if !quoted {
                out.push_str("`…`");
            }
            quoted = !quoted;
        } else if quoted {
        } else if c == '(' {
            if aside == 0 {
                out.push_str("(…)");
            }
            aside += 1;
        } else if c == ')' && aside > 0 {
            aside -= 1;
        } else if aside > 0 {
        } else if c.is_ascii_digit() {
            if !digits {
                out.push('N');
            }
            digits = true;
            continue;
        } else {
            out.push(c);
        }
        digits = false;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_reads_with_its_causes() {
        let io = std::io::Error::new(std::io::ErrorKind::StorageFull, "disk full");
        let e = crate::search_assets::AssetError::Io {
            what: "cannot write search/index.bin".into(),
            source: io,
        };
        assert_eq!(with_causes(&e), "cannot write search/index.bin: disk full");
        // A message that already ends with its cause does not repeat it.
        #[derive(Debug)]
        struct Engine(std::io::Error);
        impl fmt::Display for Engine {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "engine error: {}", self.0)
            }
        }
        impl std::error::Error for Engine {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let io = std::io::Error::other("disk full");
        assert_eq!(with_causes(&Engine(io)), "engine error: disk full");
    }

    #[test]
    fn warnings_past_the_first_ones_are_counted_per_kind() {
        let mut diags: Vec<Diagnostic> = (0..30)
            .map(|i| {
                Diagnostic::warning(
                    format!("content/e{i}.md"),
                    i + 1,
                    1,
                    format!("the error string is also claimed by `entry-{i}` (content/e{i}.md)"),
                )
            })
            .collect();
        diags.push(Diagnostic::warning(
            "content/z.md",
            1,
            1,
            "body has 12 words",
        ));
        diags.push(Diagnostic::error("content/z.md", 2, 1, "bad `x`"));
        let short = human_report(&diags, false);
        assert!(short.contains("content/e19.md:20:1: warning"), "{short}");
        assert!(!short.contains("content/e20.md"), "{short}");
        assert!(
            short.contains("content/z.md:2:1: error: bad `x`"),
            "{short}"
        );
        assert!(
            short.contains("… and 11 more warning(s)")
                && short.contains("    10 × the error string is also claimed by `…` (…)")
                && short.contains("     1 × body has N words"),
            "{short}"
        );
        let all = human_report(&diags, true);
        assert!(
            all.contains("content/e29.md") && !all.contains("more warning"),
            "{all}"
        );
    }

    #[test]
    fn line_col_counts_characters() {
        let t = "ab\ncdé\nx";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 7), (2, 4));
        assert_eq!(line_col(t, 8), (3, 1));
        // In order, backwards and back and forth (its cursor must not carry a column over).
        let index = LineIndex::new(t);
        let offsets: Vec<usize> = (0..=t.len() + 2)
            .filter(|&o| t.is_char_boundary(o.min(t.len())))
            .collect();
        let back_and_forth = offsets
            .iter()
            .zip(offsets.iter().rev())
            .flat_map(|(a, b)| [a, b]);
        for &offset in offsets
            .iter()
            .chain(offsets.iter().rev())
            .chain(back_and_forth)
        {
            assert_eq!(index.line_col(offset), line_col(t, offset), "at {offset}");
        }
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

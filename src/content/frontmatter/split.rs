//! Splitting an entry file into front-matter and body.

use crate::diagnostic::Diagnostic;
use std::path::Path;

/// Front-matter syntax, chosen by the opening delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// `---`
    Yaml,
    /// `+++`
    Toml,
}

/// A source file split into front-matter and body.
#[derive(Debug, Clone)]
pub struct SplitDocument<'a> {
    /// Syntax of the front-matter.
    pub syntax: Syntax,
    /// Front-matter text (between the delimiters).
    pub front: &'a str,
    /// 1-based line of the first front-matter line in the file.
    pub front_line: usize,
    /// Body text.
    pub body: &'a str,
    /// 1-based line of the first body line in the file.
    pub body_line: usize,
}

/// Splits `text` (LF line endings, no BOM) into front-matter and body.
pub fn split<'a>(text: &'a str, path: &Path) -> Result<SplitDocument<'a>, Diagnostic> {
    if text.trim().is_empty() {
        return Err(Diagnostic::error(path, 1, 1, "the file is empty")
            .with_hint("an entry needs front-matter between `---` lines and a body; `kbook new` writes a template"));
    }
    let first = text.lines().next().unwrap_or_default().trim_end();
    let (syntax, delim) = match first {
        "---" => (Syntax::Yaml, "---"),
        "+++" => (Syntax::Toml, "+++"),
        _ => {
            return Err(Diagnostic::error(path, 1, 1, "the file does not start with front-matter")
                .with_hint("start the file with a `---` line, the YAML fields (title, connector, kind, …), and another `---` line"));
        }
    };
    // The whole opening line, trailing blanks included: the front-matter starts on line 2.
    let start = text.split_inclusive('\n').next().map_or(0, str::len);
    let mut offset = start;
    for (line_no, line) in (2..).zip(text[offset..].split_inclusive('\n')) {
        if line.trim_end() == delim {
            let front = &text[start..offset];
            let body_start = offset + line.len();
            return Ok(SplitDocument {
                syntax,
                front,
                front_line: 2,
                body: &text[body_start.min(text.len())..],
                body_line: line_no + 1,
            });
        }
        offset += line.len();
    }
    Err(Diagnostic::error(
        path,
        1,
        1,
        format!("the front-matter opened here is never closed with a `{delim}` line"),
    )
    .with_hint(format!(
        "add a line `{delim}` after the last front-matter field"
    )))
}

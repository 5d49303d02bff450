//! `kbook import`: a kbook book from an existing docs tree (Hugo, Zola, Docusaurus, MkDocs,
//! mdBook).
//!
//! Each page becomes an entry; a FAQ page becomes one entry per question ([`faq`]). Front-matter
//! is mapped where it has a meaning in kbook ([`page`]), generator syntax is converted where
//! kbook has an equivalent ([`syntax`]), and error texts in questions and log-shaped code blocks
//! are proposed as `errors` ([`errors`]). Everything else is reported with its file and line:
//! nothing is dropped silently, and the source tree is only read.

mod errors;
mod faq;
mod front_matter;
mod images;
mod links;
mod page;
mod source;
mod syntax;
mod write;

use crate::diagnostic::LineIndex;
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

pub use errors::log_errors;
pub use page::ascii_slug;
pub use source::Generator;

/// What `kbook import` did, for the summary table and `--json`.
#[derive(Debug, Default, Serialize)]
pub struct ImportReport {
    /// The generator the source was read as.
    pub from: String,
    /// Markdown pages read.
    pub pages: usize,
    /// Entries written.
    pub entries: usize,
    /// Pages split into one entry per question.
    pub faq_pages: usize,
    /// Entries that came from those splits.
    pub faq_entries: usize,
    /// Connectors declared in book.toml (one per top-level section).
    pub connectors: Vec<String>,
    /// Every entry written: id, title, where it came from.
    pub written: Vec<WrittenEntry>,
    /// Error texts proposed as `errors`, for an author to review.
    pub proposed_errors: Vec<Proposal>,
    /// Front-matter keys with no meaning in kbook (not carried over).
    pub dropped_keys: Vec<Leftover>,
    /// Generator syntax kbook has no equivalent for (left in the text as it was).
    pub unconverted: Vec<Leftover>,
    /// Generator syntax converted (includes resolved, admonitions, highlight blocks).
    pub converted: usize,
    /// Images the pages show, copied into the book's `static/images/`.
    pub images: usize,
    /// Other things to look at: files that are not pages, text outside any question, ….
    pub notes: Vec<Leftover>,
    /// Pages that cannot be imported as they are (front-matter that cannot be read), each
    /// `file:line:column: what`: the import stops before writing anything.
    #[serde(skip)]
    pub(crate) unreadable: Vec<String>,
    /// Files of the tree a page includes (`{{#include}}`, `--8<--`): shown, so not files
    /// left behind.
    #[serde(skip)]
    pub(crate) included: Vec<String>,
}

/// One written entry.
#[derive(Debug, Clone, Serialize)]
pub struct WrittenEntry {
    /// Entry id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Connector slug.
    pub connector: String,
    /// Kind.
    pub kind: String,
    /// Source file (relative to the source root) and the line the entry starts on.
    pub source: String,
    /// The old address of the question (`page/#anchor`) when the entry came from a FAQ page.
    pub old_anchor: Option<String>,
    /// The file written, relative to the book.
    pub path: String,
}

/// An error text proposed for an entry.
#[derive(Debug, Clone, Serialize)]
pub struct Proposal {
    /// Entry id.
    pub entry: String,
    /// The text.
    pub text: String,
    /// Where it was found (`file:line`).
    pub at: String,
}

/// `file:line` of byte `offset` of a body (its `lines`), whose first line is `at.1` of the file
/// `at.0`.
pub(crate) fn line_at(at: &(String, usize), lines: &LineIndex<'_>, offset: usize) -> String {
    format!("{}:{}", at.0, at.1 + lines.line(offset) - 1)
}

/// `body` with each `(range, text)` edit made; edits never overlap, in any order.
pub(crate) fn apply_edits(body: &str, mut edits: Vec<(std::ops::Range<usize>, String)>) -> String {
    edits.sort_by_key(|(r, _)| r.start);
    let mut out = body.to_string();
    for (range, new) in edits.into_iter().rev() {
        out.replace_range(range, &new);
    }
    out
}

/// The edit of a raw HTML event written as it stands at `range` of a body (whose lines are
/// `lines`, first line at `at`): each `<a href>` and `<img src>` passed through `fix` (see
/// [`crate::render::raw_html::raw_html_links`]), whose warnings become notes at their lines.
pub(crate) fn raw_html_edit(
    html: &str,
    range: std::ops::Range<usize>,
    (at, lines): (&(String, usize), &LineIndex<'_>),
    notes: &mut Vec<Leftover>,
    fix: impl FnMut(&str, bool) -> (Option<String>, Option<(String, String)>),
) -> Option<(std::ops::Range<usize>, String)> {
    let (new, problems) = crate::render::raw_html::raw_html_links(html, fix);
    for (offset, what, _) in problems {
        notes.push(Leftover {
            at: line_at(at, lines, range.start + offset),
            what,
        });
    }
    new.map(|new| (range, new))
}

/// Something reported by file and line.
#[derive(Debug, Clone, Serialize)]
pub struct Leftover {
    /// `file:line` relative to the source root.
    pub at: String,
    /// What it is.
    pub what: String,
}

/// Why an import could not run.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The source tree is not what `--from` expects.
    #[error("{0}")]
    Source(String),
    /// The destination already holds a book or content.
    #[error(
        "{0} already has a book.toml, a content/ or a static/ directory; import into a new or empty directory (--into NEW_DIR)"
    )]
    Occupied(PathBuf),
    /// No page has anything to import.
    #[error("{}", nothing_to_import(pages_dir, *pages, *name_only, notes))]
    Nothing {
        /// The pages directory.
        pages_dir: PathBuf,
        /// Pages read.
        pages: usize,
        /// Section index pages without text, which only name their sections.
        name_only: usize,
        /// Why each was left out.
        notes: Vec<Leftover>,
    },
    /// Reading or writing failed.
    // (Not a `source`: the message already says it, and a chain would repeat it.)
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
}

/// Why nothing was imported: no page at all, or each page's note.
fn nothing_to_import(
    pages_dir: &Path,
    pages: usize,
    name_only: usize,
    notes: &[Leftover],
) -> String {
    const SHOWN: usize = 20;
    if pages == 0 {
        return format!(
            "{} holds no Markdown page: nothing to import (--pages names another directory)",
            pages_dir.display()
        );
    }
    let mut text = match pages {
        1 => "the one page read has nothing to import:".to_string(),
        n => format!("none of the {n} pages read has anything to import:"),
    };
    for n in notes.iter().take(SHOWN) {
        text.push_str(&format!("\n  {}", leftover_line(n)));
    }
    if notes.len() > SHOWN {
        text.push_str(&format!("\n  … and {} more", notes.len() - SHOWN));
    }
    if name_only > 0 {
        text.push_str(&format!(
            "\n  {name_only} section index page(s) without text, which only name their sections"
        ));
    }
    text
}

impl ImportError {
    fn io(path: &Path, source: std::io::Error) -> Self {
        ImportError::Io {
            path: path.to_path_buf(),
            error: source,
        }
    }
}

/// Reads the docs tree at `src` as `from` and writes a book into `into` (created if needed;
/// it must not already hold a book). `pages` (relative to `src`) replaces the generator's
/// pages directory, e.g. Hugo's `content.zh` of another language. The source is never
/// written to.
pub fn import(
    from: Generator,
    src: &Path,
    pages: Option<&Path>,
    into: &Path,
) -> Result<ImportReport, ImportError> {
    if ["book.toml", "content", "static"]
        .iter()
        .any(|p| into.join(p).exists())
    {
        return Err(ImportError::Occupied(into.to_path_buf()));
    }
    let tree = source::read_tree(from, src, pages)?;
    // A book inside the source tree would be read back as pages by the next import, and
    // published by the generator: it goes beside the tree.
    if let (Ok(into_abs), Ok(root)) = (into.canonicalize(), tree.root.canonicalize())
        && into_abs.starts_with(&root)
    {
        return Err(ImportError::Source(format!(
            "{} is inside the source tree {}: import into a folder outside it (--into)",
            into.display(),
            src.display()
        )));
    }
    let mut report = ImportReport {
        from: from.name().to_string(),
        pages: tree.pages.len(),
        notes: tree.notes.clone(),
        ..ImportReport::default()
    };
    let mut drafts = Vec::new();
    // Pages that are not UTF-8: every one is named, with where, before anything is written.
    let mut not_utf8 = Vec::new();
    for p in &tree.pages {
        let bytes = std::fs::read(&p.path).map_err(|e| ImportError::io(&p.path, e))?;
        let rel = display(&p.path, &tree.root);
        let text = match String::from_utf8(bytes) {
            Ok(text) => text.replace("\r\n", "\n"),
            Err(e) => {
                let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                // Valid UTF-8 up to there, so the prefix is text.
                let before = String::from_utf8_lossy(good);
                let line = before.matches('\n').count() + 1;
                let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                not_utf8.push(format!("{rel}:{line}:{column}: not UTF-8"));
                continue;
            }
        };
        let page = page::read(&text, &rel, p, from, &tree, &mut report);
        drafts.extend(page);
    }
    // Every page that cannot be imported as it is, named with where, before anything is
    // written (a page without its title and tags would pass unnoticed among the notes).
    if !not_utf8.is_empty() || !report.unreadable.is_empty() {
        let mut said = Vec::new();
        if !not_utf8.is_empty() {
            said.push(format!(
                "{} page(s) are not UTF-8:\n  {}\nre-encode them as UTF-8 (e.g. `iconv -f GB18030 -t UTF-8 page.md`)",
                not_utf8.len(),
                not_utf8.join("\n  ")
            ));
        }
        if !report.unreadable.is_empty() {
            said.push(format!(
                "{} page(s) have front-matter that cannot be read:\n  {}\nfix it in the source",
                report.unreadable.len(),
                report.unreadable.join("\n  ")
            ));
        }
        return Err(ImportError::Source(format!(
            "nothing was imported:\n{}\nthen import again",
            said.join("\n")
        )));
    }
    write::write_book(into, from, &tree, drafts, &mut report)?;
    Ok(report)
}

/// `path` relative to `root`, with `/` separators, for reports.
fn display(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.to_string_lossy().replace('\\', "/")
}

impl fmt::Display for ImportReport {
    /// The summary table `kbook import` prints, then each reported item.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = [
            ("pages read", self.pages),
            ("entries written", self.entries),
            ("FAQ pages split", self.faq_pages),
            ("entries from FAQ splits", self.faq_entries),
            ("connectors", self.connectors.len()),
            ("proposed errors", self.proposed_errors.len()),
            ("syntax converted", self.converted),
            ("images copied", self.images),
            ("dropped front-matter keys", self.dropped_keys.len()),
            ("unconverted syntax", self.unconverted.len()),
            ("other notes", self.notes.len()),
        ];
        writeln!(
            f,
            "| {:<26} | {:>7} |",
            format!("import from {}", self.from),
            "count"
        )?;
        writeln!(f, "|{:-<28}|{:->9}|", "", "")?;
        for (what, n) in rows {
            writeln!(f, "| {what:<26} | {n:>7} |")?;
        }
        let sections: [(&str, Vec<String>); 4] = [
            (
                "Proposed errors (review them in each entry's `errors`)",
                self.proposed_errors
                    .iter()
                    .map(|p| format!("{}  {}  {}", p.at, p.entry, p.text))
                    .collect(),
            ),
            (
                "Dropped front-matter keys",
                self.dropped_keys.iter().map(leftover_line).collect(),
            ),
            (
                "Unconverted syntax (left as it was)",
                self.unconverted.iter().map(leftover_line).collect(),
            ),
            ("Notes", self.notes.iter().map(leftover_line).collect()),
        ];
        for (title, lines) in sections {
            if lines.is_empty() {
                continue;
            }
            writeln!(f, "\n{title}:")?;
            for l in lines {
                writeln!(f, "  {l}")?;
            }
        }
        Ok(())
    }
}

fn leftover_line(l: &Leftover) -> String {
    format!("{}  {}", l.at, l.what)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arbitrary text made of the pieces the import looks for (headings, fences, shortcodes,
    /// admonitions, includes, details blocks, traces, CJK, multi-byte case changes) never
    /// makes a step panic.
    #[test]
    fn no_step_panics_on_arbitrary_pages() {
        const PIECES: [&str; 30] = [
            "# ",
            "## Q1: ",
            "### ",
            "?",
            "？",
            "\n",
            "\n\n",
            "```",
            "~~~",
            "`",
            "{{< note >}}",
            "{{< /note >}}",
            "{{% notice warning %}}",
            ":::tip[x]",
            ":::",
            "!!! note \"t\"",
            "    ",
            "{{#include a.txt:2:}}",
            "--8<-- \"x\"",
            "<details><summary>",
            "</summary>",
            "</details>",
            "Caused by: java.io.IOException: x",
            "\tat a.B.c(B.java:1)",
            "报错",
            "为什么",
            "İ",
            "ẞ",
            "[a](b.md#c)",
            "reports an error ",
        ];
        let dir = std::env::temp_dir();
        let tree = source::SourceTree::new(&dir);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..3000 {
            let n = (next() % 40) as usize;
            let text: String = (0..n).map(|_| PIECES[(next() % 30) as usize]).collect();
            for (_, g) in Generator::ALL {
                let c = syntax::convert(g, &text, &dir.join("p.md"), &tree, "p.md", 1);
                let _ = faq::split(&c.text, false);
                let _ = faq::split(&c.text, true);
            }
            let _ = errors::propose(&text, std::slice::from_ref(&text), &text, "p.md", (1, 1));
            let mut notes = Vec::new();
            let _ = links::rewrite(
                &text,
                "a/p.md",
                ("a", "p"),
                &links::PageTargets::default(),
                &("p".to_string(), 1),
                &mut notes,
            );
        }
    }
}

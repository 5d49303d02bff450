//! The bad-input catalogue: one hostile or broken book per test, built by the real `kbook`
//! binary. Every failing case checks the exit code, the `path:line:column: error:` message,
//! that nothing was written, and that the previous site is unchanged. Text fixtures live in
//! `tests/fixtures/<case>/`; binary, huge and special files (BOM, invalid UTF-8, NUL, 50 MB,
//! symlinks, FIFOs, unreadable files) are made at test time.

#![cfg(unix)]

mod bytes;
mod file_system;
mod front_matter;
mod limits;
mod templates;

use crate::common::{
    assert_previous_site_intact, build_site, copy_dir, fixture, kbook_command, walk,
    write_previous_site,
};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Upper bound for a build of a tiny hostile book (alias bombs, deep nesting, 50 MB files).
const BOUNDED: Duration = Duration::from_secs(20);

/// A book in a temp dir with a previous site in `out/` that a failed build must not touch.
struct Case {
    dir: tempfile::TempDir,
    book: PathBuf,
    out: PathBuf,
}

impl Case {
    /// A book holding the fixture `name` (an empty book when `name` is empty).
    fn new(name: &str) -> Case {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("book");
        std::fs::create_dir_all(book.join("content/kafka")).unwrap();
        if !name.is_empty() {
            copy_dir(&fixture(name), &book);
        }
        let out = dir.path().join("out");
        write_previous_site(&out);
        Case { dir, book, out }
    }

    /// A book with one valid entry plus the files given (paths relative to the book).
    fn with(files: &[(&str, &[u8])]) -> Case {
        let c = Case::new("");
        c.write("content/kafka/fine.md", GOOD.as_bytes());
        for (path, bytes) in files {
            c.write(path, bytes);
        }
        c
    }

    fn write(&self, path: &str, bytes: &[u8]) {
        let p = self.book.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    fn build(&self, extra: &[&str]) -> (Output, Duration) {
        let t = Instant::now();
        let o = build_site(&self.book, &self.out, extra);
        (o, t.elapsed())
    }
}

const GOOD: &str = "---\ntitle: \"Fine\"\nconnector: kafka\nkind: concept\n---\nA fine entry.\n";

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// The build fails with exit code 1, in bounded time, reporting each `expected` text; every
/// error line has the `path:line:column: error:` shape; nothing is written; the previous
/// site is untouched; no temporary directory is left.
fn assert_fails_with(c: &Case, expected: &[&str]) -> String {
    fails(c, expected, true)
}

/// [`assert_fails_with`] for problems that have no line: a missing directory, a template
/// error Tera reports without a position.
fn assert_fails_without_position(c: &Case, expected: &[&str]) -> String {
    fails(c, expected, false)
}

fn fails(c: &Case, expected: &[&str], positioned: bool) -> String {
    let (o, took) = c.build(&[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "expected exit 1, stderr:\n{err}");
    assert!(took < BOUNDED, "took {took:?}:\n{err}");
    for e in expected {
        assert!(err.contains(e), "missing `{e}` in:\n{err}");
    }
    for line in err
        .lines()
        .filter(|l| positioned && l.contains(": error: "))
    {
        let (head, _) = line.split_once(": error: ").unwrap();
        let mut parts = head.rsplitn(3, ':');
        let (col, ln) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        assert!(
            col.parse::<usize>().is_ok_and(|c| c > 0) && ln.parse::<usize>().is_ok_and(|l| l > 0),
            "an error without `path:line:column`: {line}"
        );
    }
    assert!(err.contains("nothing was written"), "{err}");
    assert_previous_site_intact(&c.out);
    err
}

/// The build succeeds and writes the site.
fn assert_builds(c: &Case) -> String {
    let (o, took) = c.build(&["--deny-warnings"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(took < BOUNDED, "took {took:?}");
    assert!(!c.out.join("kafka/old.html").exists(), "site not replaced");
    stderr(&o)
}

fn read(c: &Case, page: &str) -> String {
    std::fs::read_to_string(c.out.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

// ---------------------------------------------------------------- all at once

/// One book with many of the problems above reports every one of them in a single run.
#[test]
fn every_problem_is_reported_in_one_run() {
    let c = Case::new("unknown-kind");
    for f in [
        "bad-date",
        "missing-fields",
        "not-a-mapping",
        "unknown-version-key",
        "bad-toml-syntax",
    ] {
        copy_dir(&fixture(f), &c.book);
    }
    c.write("content/kafka/nul.md", b"---\0\n");
    c.write("content/kafka/empty.md", b"");
    let err = assert_fails_with(
        &c,
        &[
            "kind.md:4:7",
            "dates.md:5:10",
            "bare.md:1:1",
            "list.md:2:1",
            "vkey.md:8:5",
            "toml.md:4:",
            "nul.md:1:4",
            "empty.md:1:1",
        ],
    );
    // vkey.md has two problems: the unknown key, and so neither `affected` nor `fixed`.
    assert!(err.contains("11 error(s)"), "{err}");
}

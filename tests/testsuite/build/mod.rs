//! Integration tests: the real `kbook` binary on fixture books under `tests/fixtures/`.

mod diagnostics;
mod search;
mod site;

use crate::common::{
    assert_previous_site_intact, build_site as build, copy_dir, fixture, kbook_command as kbook,
    snapshot, walk, write_previous_site,
};
use std::path::{Path, PathBuf};
use std::process::Output;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// A book copied into a temp dir, with a previous site in `out/` that a failed build must
/// leave untouched.
struct Case {
    _dir: tempfile::TempDir,
    book: PathBuf,
    out: PathBuf,
}

fn case(name: &str) -> Case {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    copy_dir(&fixture(name), &book);
    let out = dir.path().join("out");
    write_previous_site(&out);
    Case {
        _dir: dir,
        book,
        out,
    }
}

fn assert_fails_with(c: &Case, expected: &[&str]) {
    let o = build(&c.book, &c.out, &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "expected exit 1, stderr:\n{err}");
    for e in expected {
        assert!(err.contains(e), "missing `{e}` in:\n{err}");
    }
    assert!(err.contains("nothing was written"), "{err}");
    assert_previous_site_intact(&c.out);
}

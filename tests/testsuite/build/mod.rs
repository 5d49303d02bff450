//! Integration tests: the real `kbook` binary on fixture books under `tests/fixtures/`.

mod diagnostics;
mod search;
mod site;

use crate::common::{
    build_site as build, copy_dir, fixture, kbook_command as kbook, snapshot, walk,
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
    std::fs::create_dir_all(out.join("kafka")).unwrap();
    std::fs::write(out.join("index.html"), "previous site").unwrap();
    std::fs::write(out.join("kafka/old.html"), "previous entry").unwrap();
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
    let snap = snapshot(&c.out);
    assert_eq!(snap.len(), 2, "previous output changed: {:?}", snap.keys());
    assert_eq!(snap["index.html"], b"previous site");
    assert_eq!(snap["kafka/old.html"], b"previous entry");
    let parent = c.out.parent().unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(parent)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().contains("kbook-"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary directories left: {leftovers:?}"
    );
}

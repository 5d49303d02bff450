//! `kbook import` on small docs trees of each generator (tests/fixtures/import/): the entries it
//! writes (ids, titles, FAQ splits, proposed errors), what it reports, that the result passes
//! `kbook check`, that the source is untouched, and that a pasted error finds the split entry.

use crate::common::{
    chromium, file_url, fixture, kbook_command, run_ok, serve, snapshot, url_encode,
};
use serde_json::Value;
use std::path::Path;

mod commands;
mod generators;
mod hugo;

/// Imports fixture `name` as `from` into a fresh directory; returns it and the JSON report.
fn import(from: &str, name: &str) -> (tempfile::TempDir, Value) {
    let src = fixture(&format!("import/{name}"));
    let before = snapshot(&src);
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    let report = import_tree(from, &src, &book);
    assert_eq!(snapshot(&src), before, "the import changed the source tree");
    run_ok(kbook_command().args(["check", "--book"]).arg(&book));
    (dir, report)
}

/// Imports the tree `src` as `from` into `book`, which must succeed; the JSON report.
fn import_tree(from: &str, src: &Path, book: &Path) -> Value {
    let out = kbook_command()
        .args(["import", "--from", from, "--json", "--into"])
        .arg(book)
        .arg(src)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "import --from {from} failed:\n{stderr}"
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The written entries as (id, title, kind, connector).
fn entries(report: &Value) -> Vec<(String, String, String, String)> {
    report["written"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap().to_string();
            (s("id"), s("title"), s("kind"), s("connector"))
        })
        .collect()
}

fn ids(report: &Value) -> Vec<String> {
    entries(report).into_iter().map(|e| e.0).collect()
}

/// Proposed errors of entry `id`.
fn proposed(report: &Value, id: &str) -> Vec<String> {
    report["proposed_errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["entry"] == id)
        .map(|p| p["text"].as_str().unwrap().to_string())
        .collect()
}

/// The `what` of reported items of `list` at `file:line` locations containing `at`.
fn reported(report: &Value, list: &str, at: &str) -> Vec<String> {
    report[list]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["at"].as_str().unwrap().contains(at))
        .map(|l| l["what"].as_str().unwrap().to_string())
        .collect()
}

fn entry_text(book: &Path, connector: &str, id: &str) -> String {
    std::fs::read_to_string(book.join(format!("content/{connector}/{id}.md"))).unwrap()
}

/// The first hit's id for `query` in the built book.
fn first_hit(book: &Path, query: &str) -> String {
    let dest = book.join("site");
    run_ok(
        kbook_command()
            .args(["build", "--book"])
            .arg(book)
            .arg("--dest")
            .arg(&dest),
    );
    let out = run_ok(
        kbook_command()
            .args(["search", "--json", "--book"])
            .arg(book)
            .arg("--site")
            .arg(&dest)
            .arg(query),
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["hits"][0]["id"].as_str().unwrap_or("").to_string()
}

//! Broken fixture books: the exit code, each problem reported with its position, all of
//! them in one run, warnings and `--format json`.

use super::*;

#[test]
fn yaml_syntax_error() {
    assert_fails_with(
        &case("bad-yaml-syntax"),
        &[
            "content/kafka/broken.md:",
            "error: invalid YAML front-matter",
        ],
    );
}

#[test]
fn missing_required_field() {
    assert_fails_with(
        &case("missing-field"),
        &["content/kafka/no-kind.md:1:1: error: missing required field `kind`"],
    );
}

#[test]
fn wrong_types() {
    assert_fails_with(
        &case("wrong-type"),
        &[
            "content/kafka/wrong.md:5:1: error: `tags` must be a list, found a string",
            "content/kafka/wrong.md:6:10: error: `yesterday` is not a valid date",
        ],
    );
}

#[test]
fn unknown_key_with_suggestion() {
    assert_fails_with(
        &case("unknown-key"),
        &[
            "content/kafka/unknown.md:5:1: error: unknown front-matter key `relatd`",
            "hint: did you mean `related`?",
        ],
    );
}

#[test]
fn duplicate_id() {
    assert_fails_with(
        &case("duplicate-id"),
        &["content/kafka/b.md:2:1: error: duplicate id `same-id`: content/kafka/a.md uses it too"],
    );
}

#[test]
fn unknown_related_id() {
    assert_fails_with(
        &case("unknown-related"),
        &["content/kafka/rel.md:5:17: error: `related` names an unknown entry `no-such-entry`"],
    );
}

#[test]
fn invalid_version_data() {
    assert_fails_with(
        &case("bad-version-range"),
        &[
            "content/kafka/ver.md:7:5: error: invalid version range: the range `>=8.0.9, <8.0.5` matches no version",
            "content/kafka/ver.md:9:5: error: invalid fixed version",
        ],
    );
}

#[test]
fn two_pages_one_output_path() {
    assert_fails_with(
        &case("output-collision"),
        &[
            "content/kafka/index.md:1:1: error: this entry writes `kafka/index.html`",
            "content/kafka/alias.md:5:1: error: an alias writes `errors.html`",
        ],
    );
}

#[test]
fn empty_body() {
    assert_fails_with(
        &case("empty-body"),
        &["content/kafka/empty.md:5:1: error: the entry has no body"],
    );
}

#[test]
fn broken_links_and_anchors() {
    assert_fails_with(
        &case("broken-link"),
        &[
            "content/kafka/links.md:8:5: error: link to a missing entry `missing-entry.md`",
            "content/kafka/links.md:8:37: error: link to a missing anchor `#nope` in `fine.md`",
        ],
    );
}

#[test]
fn non_utf8_file() {
    let c = case("non-utf8");
    std::fs::write(
        c.book.join("content/kafka/bad.md"),
        b"---\ntitle: \"caf\xe9\"\nconnector: kafka\nkind: concept\n---\nbody\n",
    )
    .unwrap();
    assert_fails_with(
        &c,
        &["content/kafka/bad.md:2:12: error: the file is not valid UTF-8"],
    );
}

#[test]
fn unknown_connector() {
    assert_fails_with(
        &case("unknown-connector"),
        &[
            "content/kafka/conn.md:3:12: error: unknown connector `kafak`",
            "did you mean `kafka`?",
        ],
    );
}

#[test]
fn unknown_book_toml_key() {
    assert_fails_with(
        &case("bad-book-toml"),
        &[
            "book.toml:5:1: error: unknown field `site_url`",
            "hint: did you mean `site-url`?",
        ],
    );
}

#[test]
fn all_problems_are_reported_together() {
    // One book holding several broken entries reports each of them in one run.
    let c = case("unknown-related");
    copy_dir(&fixture("wrong-type"), &c.book);
    copy_dir(&fixture("unknown-key"), &c.book);
    assert_fails_with(
        &c,
        &[
            "rel.md:5:17",
            "wrong.md:5:1",
            "wrong.md:6:10",
            "unknown.md:5:1",
            "4 error(s)",
        ],
    );
}

#[test]
fn warnings_pass_unless_denied() {
    let c = case("warning-only");
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "content/kafka/err.md:4:1: warning: an entry of kind `error` has no `errors`"
        ),
        "{}",
        stderr(&o)
    );
    // An error string of one common word, in any script; an identifier is one word too.
    let err = stderr(&o);
    let words: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("is one common word"))
        .map(|l| l.split(": warning: ").next().unwrap_or_default())
        .collect();
    assert_eq!(
        words,
        ["content/kafka/words.md:7:6", "content/kafka/words.md:9:6"],
        "{err}"
    );
    // An entry whose folder names another connector than its `connector:`.
    assert!(
        err.contains("content/kafka/moved.md:3:12: warning: the entry is in the folder `kafka` but names connector `mysql`"),
        "{err}"
    );
    let c = case("warning-only");
    let o = build(&c.book, &c.out, &["--deny-warnings"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("(warnings denied)"));
}

#[test]
fn json_diagnostics() {
    let c = case("unknown-key");
    let o = kbook()
        .args(["check", "--message-format", "json", "--book"])
        .arg(&c.book)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let line = stderr(&o).lines().next().unwrap_or_default().to_string();
    let v: serde_json::Value =
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    assert_eq!(v["level"], "error");
    assert_eq!(v["path"], "content/kafka/unknown.md");
    assert_eq!(v["line"], 5);
    assert_eq!(v["column"], 1);
    assert_eq!(v["hint"], "did you mean `related`?");
}

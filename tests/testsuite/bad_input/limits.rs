//! Resource exhaustion: alias bombs, deep nesting, huge front-matter and entries, refused
//! quickly with the limit named.

use super::*;

#[test]
fn yaml_alias_bomb_is_refused_quickly() {
    // 9^9 "lol"s if expanded: the YAML parser's repetition limit stops it.
    assert_fails_with(
        &Case::new("yaml-billion-laughs"),
        &[
            "content/kafka/lol.md:",
            "error: invalid YAML front-matter",
            "repetition limit",
        ],
    );
}

#[test]
fn deeply_nested_yaml_is_refused() {
    let depth = 20_000;
    let text = format!(
        "---\ntitle: \"Deep\"\nconnector: kafka\nkind: concept\ntags: {}{}\n---\nBody.\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let c = Case::with(&[("content/kafka/deep.md", text.as_bytes())]);
    assert_fails_with(
        &c,
        &[
            "content/kafka/deep.md:5:71: error: the front-matter nests lists or mappings more than 64 levels deep",
        ],
    );
}

#[test]
fn deeply_nested_toml_is_refused() {
    let depth = 20_000;
    let text = format!(
        "+++\ntitle = \"Deep\"\nconnector = \"kafka\"\nkind = \"concept\"\ntags = {}{}\n+++\nBody.\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let c = Case::with(&[("content/kafka/deep.md", text.as_bytes())]);
    assert_fails_with(
        &c,
        &[
            "content/kafka/deep.md:5:72: error: the front-matter nests lists or mappings more than 64 levels deep",
        ],
    );
}

#[test]
fn huge_front_matter_is_refused_before_parsing() {
    let text = format!(
        "---\ntitle: \"Big\"\nconnector: kafka\nkind: concept\nerrors:\n{}---\nBody.\n",
        "  - \"an error string that goes on and on\"\n".repeat(5_000)
    );
    let c = Case::with(&[("content/kafka/big.md", text.as_bytes())]);
    assert_fails_with(
        &c,
        &[
            "content/kafka/big.md:1:1: error: the front-matter is",
            "byte limit",
        ],
    );
}

#[test]
fn fifty_megabyte_entry_is_refused_with_the_limit() {
    let mut text = GOOD.as_bytes().to_vec();
    text.resize(50 * 1024 * 1024, b'a');
    let c = Case::with(&[("content/kafka/huge.md", &text)]);
    let err = assert_fails_with(
        &c,
        &[
            "content/kafka/huge.md:1:1: error: the file is larger than the limit for an entry (4194304 bytes)",
        ],
    );
    assert!(err.contains("max-entry-bytes"), "{err}");
}

#[test]
fn entry_size_limit_is_configurable() {
    let mut text = GOOD.as_bytes().to_vec();
    text.extend(std::iter::repeat_n(b'b', 3000));
    let c = Case::with(&[
        ("content/kafka/sized.md", &text),
        ("book.toml", b"[kbook]\nmax-entry-bytes = 2000\n"),
    ]);
    assert_fails_with(
        &c,
        &[
            "content/kafka/sized.md:1:1: error: the file is larger than the limit for an entry (2000 bytes)",
        ],
    );
    c.write("book.toml", b"[kbook]\nmax-entry-bytes = 10000\n");
    assert_builds(&c);
    assert!(c.out.join("kafka/sized.html").exists());
}

#[test]
fn bad_limit_type_in_book_toml() {
    let c = Case::with(&[("book.toml", b"[kbook]\nmax-entry-bytes = \"big\"\n")]);
    assert_fails_with(
        &c,
        &["book.toml:2:19: error: `max-entry-bytes`: invalid type"],
    );
}

/// A book.toml with errors does not hide the entries' problems: one run reports both, with the
/// tables of book.toml that could be read (here the `[kbook]` kinds beside a broken `[book]`).
#[test]
fn book_toml_errors_and_entry_errors_in_one_run() {
    let c = Case::with(&[
        (
            "book.toml",
            b"[book]\ntitle = Unquoted\n[kbook]\nkinds = [\"runbook\"]\n",
        ),
        (
            "content/kafka/ran.md",
            b"---\ntitle: \"Ran\"\nconnector: kafka\nkind: runbook\n---\nText.\n",
        ),
        (
            "content/kafka/broken.md",
            b"---\ntitle: [unclosed\nconnector: kafka\nkind: concept\n---\nText.\n",
        ),
        (
            "content/kafka/linking.md",
            b"---\ntitle: \"Linking\"\nconnector: kafka\nkind: concept\n---\nSee [gone](missing.md).\n",
        ),
    ]);
    let err = assert_fails_with(
        &c,
        &[
            "book.toml:2:9: error: string values must be quoted",
            "content/kafka/broken.md:2:",
            "content/kafka/linking.md:6:",
        ],
    );
    assert!(
        !err.contains("ran.md"),
        "the kinds that were read hold:\n{err}"
    );
    // A value book.toml's checks refuse leaves everything else read, the kinds too.
    c.write(
        "book.toml",
        b"[kbook]\nkinds = [\"runbook\"]\n[output.html]\nsite-url = \"kb\"\n",
    );
    let err = assert_fails_with(
        &c,
        &[
            "book.toml:4:1: error: site-url `kb`",
            "content/kafka/broken.md:2:",
        ],
    );
    assert!(!err.contains("ran.md"), "{err}");
    // Where the entries are cannot be read: they are not checked, and that is said.
    c.write("book.toml", b"[book]\nsrc = notquoted\n");
    std::fs::rename(c.book.join("content"), c.book.join("docs")).unwrap();
    let err = assert_fails_with(&c, &["book.toml:2:7: error:"]);
    assert!(
        err.contains("warning: the entries were not checked"),
        "{err}"
    );
}

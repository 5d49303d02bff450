//! Front-matter that does not parse or does not validate: each error class with its
//! position and what to do.

use super::*;

#[test]
fn yaml_syntax() {
    assert_fails_with(
        &Case::new("bad-yaml-syntax"),
        &[
            "content/kafka/broken.md:",
            "error: invalid YAML front-matter",
        ],
    );
}

#[test]
fn toml_syntax() {
    assert_fails_with(
        &Case::new("bad-toml-syntax"),
        &[
            "content/kafka/toml.md:4:",
            "error: invalid TOML front-matter",
        ],
    );
}

#[test]
fn front_matter_not_a_mapping() {
    assert_fails_with(
        &Case::new("not-a-mapping"),
        &[
            "content/kafka/list.md:2:1: error: front-matter must be a mapping of fields, found a list",
        ],
    );
}

#[test]
fn wrong_types() {
    assert_fails_with(
        &Case::new("wrong-type"),
        &[
            "content/kafka/wrong.md:5:1: error: `tags` must be a list, found a string",
            "content/kafka/wrong.md:6:10: error: `yesterday` is not a valid date",
        ],
    );
}

#[test]
fn unknown_top_level_key() {
    assert_fails_with(
        &Case::new("unknown-key"),
        &[
            "content/kafka/unknown.md:5:1: error: unknown front-matter key `relatd`",
            "did you mean `related`?",
        ],
    );
}

#[test]
fn unknown_key_in_a_version_item() {
    assert_fails_with(
        &Case::new("unknown-version-key"),
        &[
            "content/kafka/vkey.md:8:5: error: unknown key `fixd`",
            "did you mean `fixed`?",
        ],
    );
}

#[test]
fn error_source_not_a_url() {
    assert_fails_with(
        &Case::new("error-source-not-a-url"),
        &[
            "content/kafka/src.md:7:5: error: `source` in errors item 1 is not an http(s) URL: `kafka.apache.org/documentation`",
            "starting with `https://`",
        ],
    );
}

#[test]
fn error_mapping_without_text() {
    assert_fails_with(
        &Case::new("error-without-text"),
        &[
            "content/kafka/notext.md:7:5: error: errors item 2 has no `text`",
            "add `text: \"…\"`",
        ],
    );
}

#[test]
fn unknown_key_in_an_error_item() {
    assert_fails_with(
        &Case::new("unknown-error-key"),
        &[
            "content/kafka/ekey.md:7:5: error: unknown key `sorce` in errors item 1",
            "did you mean `source`?",
        ],
    );
}

#[test]
fn every_required_field_missing() {
    let err = assert_fails_with(
        &Case::new("missing-fields"),
        &[
            "content/kafka/bare.md:1:1: error: missing required field `title`",
            "content/kafka/bare.md:1:1: error: missing required field `connector`",
            "content/kafka/bare.md:1:1: error: missing required field `kind`",
        ],
    );
    assert!(err.contains("3 error(s)"), "{err}");
}

#[test]
fn duplicate_ids() {
    assert_fails_with(
        &Case::new("duplicate-id"),
        &["content/kafka/b.md:2:1: error: duplicate id `same-id`: content/kafka/a.md uses it too"],
    );
}

#[test]
fn bad_version_ranges() {
    assert_fails_with(
        &Case::new("bad-version-range"),
        &[
            "content/kafka/ver.md:7:5: error: invalid version range",
            "content/kafka/ver.md:9:5: error: invalid fixed version",
        ],
    );
}

#[test]
fn bad_dates() {
    assert_fails_with(
        &Case::new("bad-date"),
        &["content/kafka/dates.md:5:10: error: `2026-13-40` is not a valid date"],
    );
}

#[test]
fn unknown_kind() {
    assert_fails_with(
        &Case::new("unknown-kind"),
        &["content/kafka/kind.md:4:7: error: unknown kind `eror`"],
    );
}

#[test]
fn explicit_id_not_a_slug() {
    assert_fails_with(
        &Case::new("bad-explicit-id"),
        &["content/kafka/ok-name.md:2:", "error: ", "Not A Slug!"],
    );
}

#[test]
fn unclosed_front_matter() {
    assert_fails_with(
        &Case::new("unclosed-front-matter"),
        &[
            "content/kafka/open.md:1:1: error: the front-matter opened here is never closed with a `---` line",
        ],
    );
}

#[test]
fn no_front_matter() {
    assert_fails_with(
        &Case::new("no-front-matter"),
        &["content/kafka/plain.md:1:1: error: the file does not start with front-matter"],
    );
}

#[test]
fn duplicate_yaml_key() {
    assert_fails_with(
        &Case::new("duplicate-yaml-key"),
        &[
            "content/kafka/dupkey.md:4:",
            "error: invalid YAML front-matter",
            "title",
        ],
    );
}

#[test]
fn complex_yaml_key() {
    assert_fails_with(
        &Case::new("complex-yaml-key"),
        &["content/kafka/complex.md:2:1: error: front-matter keys must be plain words"],
    );
}

#[test]
fn empty_body() {
    assert_fails_with(
        &Case::new("empty-body"),
        &["content/kafka/empty.md:5:1: error: the entry has no body"],
    );
}

#[test]
fn unsafe_link_schemes() {
    let body = "---\ntitle: T\nconnector: kafka\nkind: concept\n---\n[a](javascript:alert(1))\n\n[b]( JaVaScRiPt:alert(1))\n\n[c](data:text/html,x)\n\n[d](jav&#x09;ascript:alert(1))\n\n[e](&#x01;javascript:alert(1))\n\n[f][r]\n\n[r]: java&#x0A;script:alert(1)\n\n![g](javascript:alert(1))\n";
    let c = Case::with(&[("content/kafka/links.md", body.as_bytes())]);
    assert_fails_with(
        &c,
        &[
            "content/kafka/links.md:6:1: error: unsafe link `javascript:alert(1)`",
            "content/kafka/links.md:8:1: error: unsafe link",
            "content/kafka/links.md:10:1: error: unsafe link `data:text/html,x`",
            "content/kafka/links.md:12:1: error: unsafe link `jav\tascript:alert(1)`",
            "content/kafka/links.md:14:1: error: unsafe link `\u{1}javascript:alert(1)`",
            "content/kafka/links.md:16:1: error: unsafe link `java\nscript:alert(1)`",
            "content/kafka/links.md:20:1: error: unsafe image source `javascript:alert(1)`",
        ],
    );
}

/// An entry that cannot be parsed is reported once, in its own file: the entries that link
/// to it or list it in `related` are not told it is missing.
#[test]
fn links_to_an_entry_that_does_not_parse_are_not_reported_missing() {
    let c = Case::with(&[
        (
            "content/kafka/broken.md",
            b"---\ntitle: \"Unclosed\nconnector: kafka\nkind: concept\n---\nBody.\n",
        ),
        (
            "content/kafka/linking.md",
            b"---\ntitle: \"Linking\"\nconnector: kafka\nkind: concept\nrelated: [broken]\n---\nSee [the broken one](broken.md).\n",
        ),
    ]);
    let err = assert_fails_with(&c, &["content/kafka/broken.md"]);
    assert!(!err.contains("content/kafka/linking.md"), "{err}");
}

/// An unquoted `3.10` is the number 3.1 to YAML and TOML: the release written must not turn
/// silently into another. A number that keeps its digits (`3.1`) is that version.
#[test]
fn unquoted_versions_that_a_number_changes() {
    let c = Case::with(&[
        (
            "content/kafka/yaml.md",
            b"---\ntitle: \"Yaml\"\nconnector: kafka\nkind: behavior\nversions:\n  - product: vvr\n    affected: 3.10\n  - product: flink\n    fixed: 3.1\n---\nbody\n",
        ),
        (
            "content/kafka/toml.md",
            b"+++\ntitle = \"Toml\"\nconnector = \"kafka\"\nkind = \"behavior\"\n[[versions]]\nproduct = \"vvr\"\nfixed = 2.20\n+++\nbody\n",
        ),
    ]);
    let err = assert_fails_with(
        &c,
        &[
            "content/kafka/yaml.md:7:5: error: `affected: 3.10` is read as the number 3.1, not as the version 3.10",
            "quote versions: `affected: \"3.10\"`",
            "content/kafka/toml.md:7:1: error: `fixed = 2.20` is read as the number 2.2",
            "quote versions: `fixed = \"2.20\"`",
        ],
    );
    assert!(!err.contains("yaml.md:9"), "{err}");
}

/// An alias with a query or another site's address names no page a host can serve; each is
/// placed at its own text.
#[test]
fn aliases_no_host_can_serve() {
    let c = Case::with(&[(
        "content/kafka/al.md",
        b"---\ntitle: \"Aliases\"\nconnector: kafka\nkind: concept\naliases: [\"old/ok%20page.html\", \"old/x.html?y=1\", \"https://e.org/x.html\"]\n---\nbody\n",
    )]);
    assert_fails_with(
        &c,
        &[
            "content/kafka/al.md:5:34: error: alias `old/x.html?y=1` is not a path inside the site",
            "drop the `?…` part",
            "content/kafka/al.md:5:52: error: alias `https://e.org/x.html` is not a path inside the site",
            "an old address of this site",
        ],
    );
}

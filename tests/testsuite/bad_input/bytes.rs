//! Encodings and bytes: BOM and CRLF accepted (with right positions), invalid UTF-8, NUL
//! bytes and empty files refused.

use super::*;

#[test]
fn utf8_bom_is_accepted() {
    let text = format!("\u{feff}{}", GOOD.replace("Fine", "With BOM"));
    let c = Case::with(&[("content/kafka/bom.md", text.as_bytes())]);
    assert_builds(&c);
    assert!(read(&c, "kafka/bom.html").contains("With BOM"));
}

#[test]
fn crlf_line_endings_are_accepted() {
    let yaml = "---\r\ntitle: \"CRLF\"\r\nconnector: kafka\r\nkind: concept\r\ntags: [a, b]\r\n---\r\n## Symptom\r\n\r\nText.\r\n";
    let toml = "+++\r\ntitle = \"CRLF TOML\"\r\nconnector = \"kafka\"\r\nkind = \"concept\"\r\n+++\r\nText.\r\n";
    let c = Case::with(&[
        ("content/kafka/crlf.md", yaml.as_bytes()),
        ("content/kafka/crlf-toml.md", toml.as_bytes()),
    ]);
    assert_builds(&c);
    let page = read(&c, "kafka/crlf.html");
    assert!(
        page.contains("id=\"symptom\"") && !page.contains('\r'),
        "{page}"
    );
    assert!(read(&c, "kafka/crlf-toml.html").contains("CRLF TOML"));
}

#[test]
fn crlf_positions_are_still_right() {
    let text = "---\r\ntitle: \"T\"\r\nconnector: kafka\r\nkind: eror\r\n---\r\nBody.\r\n";
    let c = Case::with(&[("content/kafka/crlf-bad.md", text.as_bytes())]);
    assert_fails_with(
        &c,
        &["content/kafka/crlf-bad.md:4:7: error: unknown kind `eror`"],
    );
}

#[test]
fn invalid_utf8() {
    let c = Case::with(&[(
        "content/kafka/latin1.md",
        b"---\ntitle: \"T\"\nconnector: kafka\nkind: concept\n---\nCaf\xe9 au lait\n",
    )]);
    assert_fails_with(
        &c,
        &["content/kafka/latin1.md:6:4: error: the file is not valid UTF-8"],
    );
}

#[test]
fn nul_byte() {
    let c = Case::with(&[(
        "content/kafka/nul.md",
        b"---\ntitle: \"T\"\nconnector: kafka\nkind: concept\n---\nab\0cd\n",
    )]);
    assert_fails_with(
        &c,
        &["content/kafka/nul.md:6:3: error: the file contains a NUL byte"],
    );
}

#[test]
fn empty_file() {
    let c = Case::with(&[
        ("content/kafka/empty.md", b""),
        ("content/kafka/blank.md", b"\n \n\t\n"),
    ]);
    assert_fails_with(
        &c,
        &[
            "content/kafka/empty.md:1:1: error: the file is empty",
            "content/kafka/blank.md:1:1: error: the file is empty",
        ],
    );
}

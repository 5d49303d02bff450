//! The bad-input catalogue: one hostile or broken book per test, built by the real `kbook`
//! binary. Every failing case checks the exit code, the `path:line:column: error:` message,
//! that nothing was written, and that the previous site is unchanged. Text fixtures live in
//! `tests/fixtures/<case>/`; binary, huge and special files (BOM, invalid UTF-8, NUL, 50 MB,
//! symlinks, FIFOs, unreadable files) are made at test time.

#![cfg(unix)]

use crate::common::{build_site, copy_dir, fixture, kbook_command, snapshot, walk};
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
        std::fs::create_dir_all(out.join("kafka")).unwrap();
        std::fs::write(out.join("index.html"), "previous site").unwrap();
        std::fs::write(out.join("kafka/old.html"), "previous entry").unwrap();
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
    assert_previous_site_intact(c);
    err
}

fn assert_previous_site_intact(c: &Case) {
    let snap = snapshot(&c.out);
    assert_eq!(snap.len(), 2, "previous output changed: {:?}", snap.keys());
    assert_eq!(snap["index.html"], b"previous site");
    assert_eq!(snap["kafka/old.html"], b"previous entry");
    let leftovers: Vec<_> = std::fs::read_dir(c.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().contains("kbook-"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary directories left: {leftovers:?}"
    );
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

// ---------------------------------------------------------------- front-matter error classes

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

// ---------------------------------------------------------------- resource exhaustion

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
    assert_fails_with(&c, &["book.toml:2:19: error: invalid type"]);
}

// ---------------------------------------------------------------- encodings and bytes

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

// ---------------------------------------------------------------- the file system

#[test]
fn symlink_loop_is_refused() {
    let c = Case::with(&[]);
    let k = c.book.join("content/kafka");
    std::os::unix::fs::symlink(k.join("b.md"), k.join("a.md")).unwrap();
    std::os::unix::fs::symlink(k.join("a.md"), k.join("b.md")).unwrap();
    std::os::unix::fs::symlink(&k, k.join("again")).unwrap();
    assert_fails_with(
        &c,
        &[
            "content/kafka/a.md:1:1: error: symbolic links are not followed",
            "content/kafka/b.md:1:1: error: symbolic links are not followed",
            "content/kafka/again:1:1: error: symbolic links are not followed",
        ],
    );
}

#[test]
fn symlinks_leaving_the_book_are_refused() {
    let c = Case::with(&[]);
    let outside = c.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.md"), GOOD).unwrap();
    let k = c.book.join("content/kafka");
    std::os::unix::fs::symlink(outside.join("secret.md"), k.join("secret.md")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", k.join("passwd.md")).unwrap();
    std::os::unix::fs::symlink(&outside, c.book.join("content/elsewhere")).unwrap();
    assert_fails_with(
        &c,
        &[
            "content/kafka/secret.md:1:1: error: symbolic links are not followed",
            "content/kafka/passwd.md:1:1: error: symbolic links are not followed",
            "content/elsewhere:1:1: error: symbolic links are not followed",
        ],
    );
}

#[test]
fn fifo_named_like_an_entry_is_refused_not_read() {
    let c = Case::with(&[]);
    let fifo = c.book.join("content/kafka/pipe.md");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    // Reading a FIFO would block forever; the bounded time in assert_fails_with checks that.
    assert_fails_with(
        &c,
        &["content/kafka/pipe.md:1:1: error: not a regular file"],
    );
}

/// File names that are not slugs: accepted with an explicit `id:`, otherwise a clear error.
#[test]
fn file_names_with_spaces_and_non_ascii() {
    let c = Case::with(&[
        ("content/kafka/My Entry.md", GOOD.as_bytes()),
        ("content/kafka/fehler-überlauf.md", GOOD.as_bytes()),
    ]);
    assert_fails_with(
        &c,
        &[
            "content/kafka/My Entry.md:1:1: error: the file name `My Entry` is not a valid id",
            "content/kafka/fehler-überlauf.md:1:1: error: the file name `fehler-überlauf` is not a valid id",
            "set `id:` in the front-matter",
        ],
    );
    let with_id = |id: &str| GOOD.replace("---\ntitle", &format!("---\nid: {id}\ntitle"));
    c.write("content/kafka/My Entry.md", with_id("my-entry").as_bytes());
    c.write(
        "content/kafka/fehler-überlauf.md",
        with_id("fehler-ueberlauf").as_bytes(),
    );
    assert_builds(&c);
    assert!(c.out.join("kafka/my-entry.html").exists());
    assert!(c.out.join("kafka/fehler-ueberlauf.html").exists());
}

#[test]
fn two_files_with_the_same_url() {
    // Same stem in two folders, same connector: both would write kafka/shared.html.
    assert_fails_with(
        &Case::new("same-url"),
        &[
            "content/more/shared.md:1:1: error: duplicate id `shared`: content/kafka/shared.md uses it too",
        ],
    );
}

#[test]
fn alias_onto_another_entry() {
    assert_fails_with(
        &Case::new("alias-onto-entry"),
        &[
            "content/kafka/thief.md:5:1: error: an alias writes `kafka/target.html`, which content/kafka/target.md writes too",
        ],
    );
}

#[test]
fn anchored_aliases_share_a_page_but_not_an_anchor_or_an_entry_page() {
    let c = Case::new("alias-onto-entry");
    let entry = |title: &str, aliases: &str| {
        format!(
            "---\ntitle: \"{title}\"\nconnector: kafka\nkind: concept\naliases: [{aliases}]\n---\nBody.\n"
        )
    };
    // One old page, its anchors to two entries and the page itself to a third: one redirect page.
    c.write(
        "content/kafka/thief.md",
        entry("Intro", "\"old/faq/\"").as_bytes(),
    );
    c.write(
        "content/kafka/q1.md",
        entry("Q1", "\"old/faq/#q1\"").as_bytes(),
    );
    c.write(
        "content/kafka/q2.md",
        entry("Q2", "\"old/faq/#q2\"").as_bytes(),
    );
    assert_builds(&c);
    let page = std::fs::read_to_string(c.out.join("old/faq/index.html")).unwrap();
    assert!(
        page.contains("data-kbook-anchor=\"q2\" href=\"../../kafka/q2.html\""),
        "{page}"
    );
    assert!(page.contains("url=../../kafka/thief.html"), "{page}");
    // The same anchor twice, and an anchor on a page an entry writes.
    let c = Case::new("alias-onto-entry");
    c.write(
        "content/kafka/thief.md",
        entry("Intro", "\"old/faq/\"").as_bytes(),
    );
    c.write(
        "content/kafka/q1.md",
        entry("Q1", "\"old/faq/#q1\"").as_bytes(),
    );
    c.write(
        "content/kafka/q2.md",
        entry("Q2", "\"old/faq/#q1\", \"kafka/target.html#x\"").as_bytes(),
    );
    assert_fails_with(
        &c,
        &[
            "content/kafka/q2.md:5:1: error: an alias writes `old/faq/index.html#q1`, which content/kafka/q1.md writes too",
            "content/kafka/q2.md:5:1: error: an alias redirects from `kafka/target.html`, which content/kafka/target.md writes as a page",
        ],
    );
}

#[test]
fn broken_template_syntax_points_at_the_template_line() {
    assert_fails_with(
        &Case::new("broken-template"),
        &["templates/entry.html:6:", "error: template error"],
    );
}

/// Tera reports runtime errors (an unknown variable) without a position: the message names
/// the template file and the variable.
#[test]
fn template_runtime_error_names_the_template_and_variable() {
    assert_fails_without_position(
        &Case::new("broken-template-runtime"),
        &[
            "templates/entry.html: error: template error: Failed to render 'entry.html': Variable `entry.no_such_field` not found",
        ],
    );
}

/// A failure while rendering pages still reports the warnings found before it.
#[test]
fn template_runtime_error_keeps_the_warnings() {
    let c = Case::new("broken-template-runtime");
    c.write(
        "content/kafka/err.md",
        b"---\ntitle: \"Error without errors\"\nconnector: kafka\nkind: error\n---\nbody\n",
    );
    assert_fails_without_position(
        &c,
        &[
            "content/kafka/err.md:4:1: warning: an entry of kind `error` has no `errors`",
            "templates/entry.html: error: template error",
        ],
    );
}

/// The effective user id, from the owner of a file we create.
fn euid(dir: &Path) -> u32 {
    let probe = dir.join("euid-probe");
    std::fs::write(&probe, "").unwrap();
    let uid = std::fs::metadata(&probe).unwrap().uid();
    std::fs::remove_file(probe).unwrap();
    uid
}

/// An unreadable entry and an unreadable folder. Root reads anything, so under root the
/// build runs as `nobody` through `setpriv` (util-linux); without it the case is skipped with
/// a message rather than passing vacuously.
#[test]
fn unreadable_file_and_folder() {
    let c = Case::with(&[("content/kafka/locked.md", GOOD.as_bytes())]);
    std::fs::create_dir_all(c.book.join("content/sealed")).unwrap();
    std::fs::write(c.book.join("content/sealed/inside.md"), GOOD).unwrap();
    let mut run_as: Vec<String> = Vec::new();
    if euid(c.dir.path()) == 0 {
        if !Path::new("/usr/bin/setpriv").exists() {
            eprintln!(
                "SKIPPED: running as root and /usr/bin/setpriv is missing, so permissions cannot be denied"
            );
            return;
        }
        run_as = [
            "/usr/bin/setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
        ]
        .map(String::from)
        .to_vec();
        // `nobody` must reach the book and may write beside `out` (it never does here).
        for p in walk(c.dir.path()) {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        for d in [
            c.dir.path().to_path_buf(),
            c.book.clone(),
            c.book.join("content"),
            c.book.join("content/kafka"),
            c.out.clone(),
            c.out.join("kafka"),
        ] {
            std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o777)).unwrap();
        }
    }
    std::fs::set_permissions(
        c.book.join("content/kafka/locked.md"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    std::fs::set_permissions(
        c.book.join("content/sealed"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    let mut cmd = match run_as.split_first() {
        Some((prog, args)) => {
            let mut cmd = Command::new(prog);
            cmd.args(args).arg(env!("CARGO_BIN_EXE_kbook"));
            cmd
        }
        None => kbook_command(),
    };
    let o = cmd
        .arg("build")
        .arg("--book")
        .arg(&c.book)
        .arg("--dest")
        .arg(&c.out)
        .output()
        .unwrap();
    std::fs::set_permissions(
        c.book.join("content/sealed"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("content/kafka/locked.md:1:1: error: cannot read the file: Permission denied"),
        "{err}"
    );
    assert!(
        err.contains("content/sealed:1:1: error: cannot read"),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert_previous_site_intact(&c);
}

#[test]
fn missing_content_directory() {
    let c = Case::new("");
    std::fs::remove_dir_all(c.book.join("content")).unwrap();
    assert_fails_without_position(
        &c,
        &["content: error: the content directory does not exist"],
    );
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

//! Integration tests: the real `kbook` binary on fixture books under `tests/fixtures/`.

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

fn read(dir: &Path, p: &str) -> String {
    std::fs::read_to_string(dir.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// Every relative `href`/`src` in every HTML page points at a file that exists.
fn assert_links_resolve(site: &Path) {
    let mut broken = Vec::new();
    for page in walk(site)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
    {
        let html = std::fs::read_to_string(&page).unwrap();
        // 404.html may carry `<base href>` (from site-url) so it works at any missing path.
        let html = match html.find("<base href=\"") {
            Some(i) => format!("{}{}", &html[..i], &html[i + 12..]),
            None => html,
        };
        for attr in ["href=\"", "src=\""] {
            for chunk in html.split(attr).skip(1) {
                let url = chunk
                    .split('"')
                    .next()
                    .unwrap_or_default()
                    .replace("&#x2F;", "/")
                    .replace("&amp;", "&");
                if url.is_empty()
                    || url.starts_with('#')
                    || url.contains("://")
                    || url.starts_with("mailto:")
                {
                    continue;
                }
                let path = url.split(['#', '?']).next().unwrap_or_default();
                let target = page.parent().unwrap().join(path);
                if !target.exists() {
                    broken.push(format!(
                        "{} -> {url}",
                        page.strip_prefix(site).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn good_book_builds_a_complete_site() {
    let c = case("good");
    let o = build(&c.book, &c.out, &["--deny-warnings"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("built 3 entries"), "{}", stderr(&o));
    let out = &c.out;
    assert!(
        !out.join("kafka/old.html").exists(),
        "the previous site must be replaced"
    );
    let entry = read(out, "kafka/kafka-offset-commit.html");
    assert!(
        entry.contains("href=\"kafka-ssl-handshake.html#solution\""),
        "internal link not rewritten"
    );
    assert!(entry.contains("href=\"../mysql/mysql-incorrect-string.html\""));
    assert!(entry.contains("<div class=\"admonition note\""));
    assert!(entry.contains("<table>"));
    assert!(entry.contains("type=\"checkbox\""));
    assert!(entry.contains("footnote-definition"));
    assert!(entry.contains("<del>strike</del>"));
    assert!(
        entry.contains("https://git.example.org/kb/edit/main/content/kafka/kafka-offset-commit.md"),
        "edit link"
    );
    let ssl = read(out, "kafka/kafka-ssl-handshake.html");
    assert!(
        ssl.contains("SSL handshake fails: &lt;unknown&gt; CA"),
        "title must be escaped"
    );
    assert!(ssl.contains("javax.net.ssl.SSLHandshakeException: PKIX path building failed"));
    // An error given as `{text, source}` (TOML here, YAML in the MySQL entry) shows its text
    // with a link to the source; a plain string gets no link.
    assert!(ssl.contains("<code>unable to find valid certification path to requested target</code></pre><a class=\"error-source\" href=\"https://github.com/openjdk/jdk/blob/master/src/java.base/share/classes/sun/security/provider/certpath/SunCertPathBuilder.java\""), "{ssl}");
    assert_eq!(ssl.matches("class=\"error-source\"").count(), 1);
    let mysql = read(out, "mysql/mysql-incorrect-string.html");
    assert!(mysql.contains("<code>Incorrect string value</code></pre><a class=\"error-source\" href=\"https://dev.mysql.com/doc/mysql-errors/8.0/en/server-error-reference.html#error_er_truncated_wrong_value_for_field\""), "{mysql}");
    assert!(ssl.contains("&gt;=8.0.5, &lt;8.0.9"), "versions table");
    assert!(ssl.contains("class=\"hl-"), "highlighted code");
    assert!(
        ssl.contains("rel=\"prev\""),
        "prev link within the connector"
    );
    let errors = read(out, "errors.html");
    let a = errors.find("java.sql.BatchUpdateException").unwrap();
    let b = errors.find("javax.net.ssl.SSLHandshakeException").unwrap();
    assert!(a < b, "error index is sorted A–Z");
    assert!(
        errors.contains("\\xF0\\x9F\\x98\\x80"),
        "error text shown verbatim"
    );
    assert!(
        errors.contains("<code>Incorrect string value</code>")
            && errors.contains(
                "<code>unable to find valid certification path to requested target</code>"
            ),
        "errors written as a mapping are listed by their text"
    );
    assert!(
        !errors.contains("dev.mysql.com"),
        "the index lists texts, not sources"
    );
    let home = read(out, "index.html");
    assert!(
        home.find(">MySQL").unwrap() < home.find(">Message Queue for Kafka").unwrap(),
        "configured connector order"
    );
    let connector = read(out, "kafka/index.html");
    assert!(
        connector.contains("Concept") && connector.contains("Error"),
        "grouped by kind"
    );
    let sitemap = read(out, "sitemap.xml");
    assert!(sitemap.contains("<loc>https://kb.example.org/docs/kafka/kafka-offset-commit.html</loc><lastmod>2026-03-01</lastmod>"), "{sitemap}");
    let feed = read(out, "atom.xml");
    assert!(
        feed.find("SSL handshake").unwrap() < feed.find("Offsets are committed").unwrap(),
        "feed newest first"
    );
    assert!(feed.contains("<updated>2026-05-02T00:00:00Z</updated>"));
    let redirect = read(out, "old/offsets.html");
    assert!(
        redirect.contains("url=../kafka/kafka-offset-commit.html"),
        "{redirect}"
    );
    assert!(read(out, "tags.html").contains("id=\"tag-ssl\""));
    assert!(
        read(out, "opensearch.xml")
            .contains("https://kb.example.org/docs/search.html?q={searchTerms}")
    );
    assert!(out.join("404.html").exists() && out.join("search.html").exists());
    assert!(
        walk(&out.join("search"))
            .iter()
            .any(|p| p.to_string_lossy().ends_with(".bin")),
        "search index written"
    );
    assert_links_resolve(out);
}

#[test]
fn builds_are_deterministic() {
    for book in [
        fixture("good"),
        Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf(),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        for d in [&a, &b] {
            let o = build(&book, d, &[]);
            assert!(o.status.success(), "{}", stderr(&o));
        }
        let (sa, sb) = (snapshot(&a), snapshot(&b));
        assert_eq!(sa.keys().collect::<Vec<_>>(), sb.keys().collect::<Vec<_>>());
        for (k, v) in &sa {
            assert!(
                v == &sb[k],
                "{k} differs between two builds of {}",
                book.display()
            );
        }
    }
}

#[test]
fn bundled_book_passes_strict_check() {
    let o = kbook()
        .args([
            "check",
            "--deny-warnings",
            "--book",
            env!("CARGO_MANIFEST_DIR"),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("checked 76 entries"), "{}", stderr(&o));
}

#[test]
fn init_and_new_scaffold_a_working_book() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("kb");
    let o = kbook().arg("init").arg(&book).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = build(&book, &book.join("book"), &["--deny-warnings"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        book.join("book/example/example-connection-refused.html")
            .exists()
    );
    let again = kbook().arg("init").arg(&book).output().unwrap();
    assert!(!again.status.success(), "init must not overwrite a book");

    let o = kbook()
        .args(["new", "example/timeout-on-connect", "--book"])
        .arg(&book)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = read(&book, "content/example/timeout-on-connect.md");
    for key in [
        "id:",
        "title:",
        "connector: example",
        "kind:",
        "errors:",
        "versions:",
        "tags:",
        "related:",
        "updated:",
        "aliases:",
    ] {
        assert!(text.contains(key), "scaffold lacks {key}:\n{text}");
    }
    let o = kbook()
        .args(["new", "Bad Name/x", "--book"])
        .arg(&book)
        .output()
        .unwrap();
    assert!(!o.status.success());
}

/// `kbook search --version`: an entry that does not affect the reader's version is still
/// listed, after the others, and marked; one that does says so and names the fix.
#[test]
fn search_with_a_version_lists_other_versions_last_and_marks_them() {
    let c = case("good");
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Matches the SSL entry best, and the others a little ("kafka", "commit", "ssl").
    let q = "javax.net.ssl.SSLHandshakeException: PKIX path building failed kafka commit";
    let search = |extra: &[&str]| {
        let o = kbook()
            .arg("search")
            .arg("--site")
            .arg(&c.out)
            .args(extra)
            .arg(q)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["--json"];
        args.extend_from_slice(extra);
        serde_json::from_str(&search(&args)).unwrap()
    };
    let ids = |v: &serde_json::Value| -> Vec<String> {
        v["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["id"].as_str().unwrap().to_string())
            .collect()
    };
    let plain = json(&[]);
    assert_eq!(ids(&plain)[0], "kafka-ssl-handshake");
    assert!(ids(&plain).len() >= 2, "{plain}");

    let past_fix = json(&["--version", "vvr=8.0.11"]);
    let got = ids(&past_fix);
    assert_eq!(got.last().map(String::as_str), Some("kafka-ssl-handshake"));
    let mut same = got.clone();
    same.sort();
    let mut before = ids(&plain);
    before.sort();
    assert_eq!(same, before, "a version must not hide or add entries");
    let hit = past_fix["hits"].as_array().unwrap().last().unwrap();
    assert_eq!(hit["version_match"], "fixed");
    assert_eq!(hit["fixed_in"], "8.0.9");
    let text = search(&["--version", "vvr=8.0.11"]);
    let mark = "[not your version] does not affect vvr 8.0.11 (fixed in 8.0.9)";
    assert!(text.contains(mark), "{text}");
    let first = |t: &str| {
        t.lines()
            .find(|l| l.starts_with(" 1. "))
            .unwrap_or("")
            .to_string()
    };
    assert!(!first(&text).contains("SSL handshake"), "{text}");

    let affected = search(&["--version", "vvr=8.0.7"]);
    assert!(first(&affected).contains("SSL handshake"), "{affected}");
    assert!(
        affected.contains("affects vvr 8.0.7; fixed in 8.0.9")
            && !affected.contains("[not your version]"),
        "{affected}"
    );
    let bad = kbook()
        .args(["search", "--version", "vvr=eight", "--site"])
        .arg(&c.out)
        .arg(q)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("bad --version"), "{}", stderr(&bad));
}

/// `kbook search` finds the site where `kbook build` wrote it because both read book.toml
/// the same way: a book without book.toml is built into `book/` and searched there, and a
/// book.toml the build rejects is rejected by search too (it used to have a reader of its
/// own that failed without book.toml and skipped unknown keys).
#[test]
fn search_reads_book_toml_as_the_build_does() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    copy_dir(&fixture("good"), &book);
    let toml = std::fs::read_to_string(book.join("book.toml")).unwrap();
    std::fs::remove_file(book.join("book.toml")).unwrap();
    let search = || {
        kbook()
            .args(["search", "--json", "--book"])
            .arg(&book)
            .arg("SSLHandshakeException")
            .output()
            .unwrap()
    };
    let o = kbook()
        .args(["build", "--book"])
        .arg(&book)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(book.join("book/index.html").is_file());
    let o = search();
    assert!(o.status.success(), "{}", stderr(&o));
    let hits: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(hits["hits"][0]["id"], "kafka-ssl-handshake", "{hits}");

    std::fs::write(
        book.join("book.toml"),
        format!("{toml}\n[build]\nbuild-dir = \"book\"\nbuild-dri = \"elsewhere\"\n"),
    )
    .unwrap();
    let o = search();
    assert!(!o.status.success(), "a bad book.toml was accepted");
    assert!(stderr(&o).contains("build-dri"), "{}", stderr(&o));
}

/// `symptoms`, the reader's words for a problem in any language, are searched and listed on
/// the entry page; an entry without them finds nothing for those words.
#[test]
fn symptoms_are_searched_and_shown() {
    let c = case("good");
    let search = |q: &str| -> Vec<String> {
        let o = kbook()
            .args(["search", "--json", "--site"])
            .arg(&c.out)
            .arg(q)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["id"].as_str().unwrap().to_string())
            .collect()
    };
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(search("表情符号写不进去").is_empty());

    let path = c.book.join("content/mysql/mysql-incorrect-string.md");
    let text = std::fs::read_to_string(&path).unwrap().replacen(
        "tags: [charset]",
        "tags: [charset]\nsymptoms: [\"表情符号写不进去\", \"emoji turn into question marks\"]",
        1,
    );
    std::fs::write(&path, text).unwrap();
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(search("表情符号写不进去")[0], "mysql-incorrect-string");
    assert_eq!(search("question marks")[0], "mysql-incorrect-string");
    let page = std::fs::read_to_string(c.out.join("mysql/mysql-incorrect-string.html")).unwrap();
    assert!(
        page.contains("<li>表情符号写不进去</li>")
            && page.contains("emoji turn into question marks"),
        "symptoms missing from the entry page"
    );
}

/// Output piped into a reader that stops early (`kbook search … | head`) ends the command
/// quietly and successfully; a write that fails otherwise (a full disk) is an error message,
/// never a panic.
#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    let c = case("good");
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The reader goes away before the command has written anything.
    let into_closed_pipe = |cmd: &mut std::process::Command| {
        let mut child = cmd
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    };
    into_closed_pipe(
        kbook()
            .args(["search", "--explain", "--site"])
            .arg(&c.out)
            .arg("kafka SSLHandshakeException"),
    );
    into_closed_pipe(kbook().args(["completions", "bash"]));

    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    if let Ok(full) = full {
        let o = kbook()
            .args(["search", "--site"])
            .arg(&c.out)
            .arg("kafka")
            .stdout(full)
            .output()
            .unwrap();
        assert!(!o.status.success());
        let err = stderr(&o);
        assert!(
            err.contains("No space left") && !err.contains("panicked"),
            "{err}"
        );
    }
}

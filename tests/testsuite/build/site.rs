//! A good book builds a complete site with links that resolve, the same bytes each time;
//! the bundled book passes `--strict`; `kbook init` and `kbook new` scaffold a working book.

use super::*;

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
    // Described by its own description, not the book's.
    assert!(
        connector.contains("<meta name=\"description\" content=\"Kafka source and sink"),
        "{}",
        connector
            .lines()
            .find(|l| l.contains("name=\"description\""))
            .unwrap_or("no description")
    );
    let sitemap = read(out, "sitemap.xml");
    assert!(sitemap.contains("<loc>https://kb.example.org/docs/kafka/kafka-offset-commit.html</loc><lastmod>2026-03-01</lastmod>"), "{sitemap}");
    // The search page has no content of its own for a search engine to list.
    assert!(!sitemap.contains("search.html"), "{sitemap}");
    assert!(read(out, "search.html").contains("<meta name=\"robots\" content=\"noindex\">"));
    let feed = read(out, "atom.xml");
    assert!(
        feed.find("SSL handshake").unwrap() < feed.find("Offsets are committed").unwrap(),
        "feed newest first"
    );
    assert!(feed.contains("<updated>2026-05-02T00:00:00Z</updated>"));
    // Feed readers and link previews show what an entry is about: its first error.
    assert!(
        feed.contains(
            "<summary>javax.net.ssl.SSLHandshakeException: PKIX path building failed</summary>"
        ),
        "{feed}"
    );
    let entry = read(out, "kafka/kafka-ssl-handshake.html");
    for tag in [
        "<meta name=\"description\" content=\"javax.net.ssl.SSLHandshakeException: PKIX path building failed\">",
        "<meta property=\"og:type\" content=\"article\">",
        "<link rel=\"canonical\" href=\"https://kb.example.org/docs/kafka/kafka-ssl-handshake.html\">",
    ] {
        assert!(entry.contains(tag), "{tag} missing");
    }
    // An entry without errors or symptoms is described by its first words.
    let concept = read(out, "kafka/kafka-offset-commit.html");
    assert!(
        concept.contains(
            "<meta name=\"description\" content=\"Offsets go to Kafka when a checkpoint completes."
        ),
        "{concept}"
    );
    assert!(!read(out, "404.html").contains("rel=\"canonical\""));
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
        "# language:",
    ] {
        assert!(text.contains(key), "scaffold lacks {key}:\n{text}");
    }
    assert!(
        text.contains("\n## Symptom\n\n## Cause\n\n## Solution\n"),
        "{text}"
    );
    assert!(text.contains("title: \"Timeout on connect\""), "{text}");
    // The scaffold passes `kbook check` (a reminder to add the error text is a warning).
    let o = kbook()
        .args(["check", "--book"])
        .arg(&book)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // An id another folder already has is refused.
    std::fs::create_dir_all(book.join("content/other")).unwrap();
    std::fs::copy(
        book.join("content/example/timeout-on-connect.md"),
        book.join("content/other/elsewhere.md"),
    )
    .unwrap();
    let o = kbook()
        .args(["new", "example/elsewhere", "--book"])
        .arg(&book)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("already has the id `elsewhere`"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(book.join("content/other")).unwrap();
    // A Chinese book's entries get their sections in Chinese.
    let zh = dir.path().join("zh");
    let o = kbook()
        .args(["init", "--language", "zh-CN"])
        .arg(&zh)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = kbook()
        .args(["new", "example/x", "--book"])
        .arg(&zh)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = read(&zh, "content/example/x.md");
    assert!(
        text.contains("\n## 现象\n\n## 原因\n\n## 解决方法\n"),
        "{text}"
    );
    let o = kbook()
        .args(["new", "Bad Name/x", "--book"])
        .arg(&book)
        .output()
        .unwrap();
    assert!(!o.status.success());
    // A connector book.toml does not declare, and a folder without a book, are refused
    // before anything is created.
    let o = kbook()
        .args(["new", "kafka/x", "--book"])
        .arg(&book)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("(known: example)"));
    assert!(!book.join("content/kafka").exists());
    let nowhere = book.join("no-book");
    let o = kbook()
        .args(["new", "example/x", "--book"])
        .arg(&nowhere)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("has no book.toml"));
    assert!(!nowhere.exists());
}

/// The error index has one group for errors that do not start with a Latin letter (digits
/// sort before `A`, Han after `z`), last, and every group's anchor is its own.
#[test]
fn error_index_groups_other_first_characters_once_at_the_end() {
    let c = case("good");
    std::fs::write(
        c.book.join("content/mysql/mysql-mixed-errors.md"),
        "---\ntitle: \"Mixed errors\"\nconnector: mysql\nkind: error\nerrors:\n  - \"1213 deadlock found\"\n  - \"写入失败：主键重复\"\n  - \"Zeta failed\"\nupdated: 2026-03-01\n---\n## Symptom\n\nText.\n",
    )
    .unwrap();
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let errors = read(&c.out, "errors.html");
    let ids: Vec<&str> = errors
        .split("<h2 id=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect();
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
    assert_eq!(ids.last(), Some(&"letter-#"), "{ids:?}");
    let other = errors.rfind("<h2 id=\"letter-#\"").unwrap();
    for text in ["1213 deadlock found", "写入失败：主键重复"] {
        assert!(
            errors.find(text).unwrap() > other,
            "{text} is in the last group"
        );
    }
    assert!(errors.find("Zeta failed").unwrap() < other);
    // Listings name a connector as book.toml does, as entry pages do.
    assert!(
        errors.contains("<span class=\"badge connector\">MySQL</span>"),
        "{errors}"
    );
}

/// The book's `root/` lands at the site's root as it is (hidden files too, editors' backups
/// not); a file the site writes itself is refused, naming it, and nothing is written.
#[test]
fn root_folder_files_land_at_the_site_root() {
    let c = case("good");
    let root = c.book.join("root");
    std::fs::create_dir_all(root.join(".well-known")).unwrap();
    std::fs::write(root.join("CNAME"), "kb.example.org\n").unwrap();
    std::fs::write(root.join(".nojekyll"), "").unwrap();
    std::fs::write(root.join("robots.txt~"), "backup").unwrap();
    std::fs::write(root.join(".well-known/security.txt"), "Contact: x\n").unwrap();
    let o = build(&c.book, &c.out, &["--deny-warnings"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&c.out, "CNAME"), "kb.example.org\n");
    assert!(c.out.join(".nojekyll").is_file());
    assert_eq!(read(&c.out, ".well-known/security.txt"), "Contact: x\n");
    assert!(!c.out.join("robots.txt~").exists());
    assert!(c.out.join("index.html").is_file());

    std::fs::write(root.join("index.html"), "<p>mine</p>").unwrap();
    std::fs::create_dir_all(root.join("search")).unwrap();
    std::fs::write(root.join("search/manifest.json"), "{}").unwrap();
    let o = build(&c.book, &c.out, &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("root/index.html:1:1: error: the site writes `index.html` itself"),
        "{err}"
    );
    assert!(
        err.contains("root/search/manifest.json:1:1: error:"),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert!(
        read(&c.out, "index.html").contains("<html"),
        "the previous site stays"
    );

    // Reported with the book's other problems, not after them.
    std::fs::remove_dir_all(root.join("search")).unwrap();
    std::fs::write(
        c.book.join("content/kafka/wrong-kind.md"),
        "---\ntitle: \"Wrong\"\nconnector: kafka\nkind: nope\n---\nText.\n",
    )
    .unwrap();
    let err = stderr(&build(&c.book, &c.out, &[]));
    assert!(err.contains("root/index.html:1:1: error:"), "{err}");
    assert!(err.contains("unknown kind `nope`"), "{err}");
    // A site inside root/ would publish itself.
    let o = build(&c.book, &c.book.join("root/site"), &[]);
    assert!(
        stderr(&o).contains("is inside the book's root directory"),
        "{}",
        stderr(&o)
    );
    // A page an entry's alias makes is named with that entry, whatever the case.
    std::fs::create_dir_all(root.join("OLD")).unwrap();
    std::fs::write(root.join("OLD/Offsets.html"), "mine").unwrap();
    let err = stderr(&build(&c.book, &c.out, &[]));
    assert!(
        err.contains("root/OLD/Offsets.html:1:1: error: the site writes `old/offsets.html` itself (the names differ only in case or accent encoding: one name on Windows and macOS disks), for the alias `old/offsets.html` of content/kafka/kafka-offset-commit.md"),
        "{err}"
    );
    assert!(err.contains("change that alias in its entry"), "{err}");
    std::fs::remove_dir_all(root.join("OLD")).unwrap();
    // The sitemap is the site's own with `site-url`, and the book's own without it.
    std::fs::remove_file(c.book.join("content/kafka/wrong-kind.md")).unwrap();
    std::fs::remove_file(root.join("index.html")).unwrap();
    std::fs::write(root.join("sitemap.xml"), "<urlset/>").unwrap();
    let err = stderr(&build(&c.book, &c.out, &[]));
    assert!(
        err.contains("root/sitemap.xml:1:1: error: the site writes `sitemap.xml` itself"),
        "{err}"
    );
    let toml = read(&c.book, "book.toml");
    let without: String = toml
        .lines()
        .filter(|l| !l.starts_with("site-url"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(without, toml);
    std::fs::write(c.book.join("book.toml"), without).unwrap();
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&c.out, "sitemap.xml"), "<urlset/>");
}

/// In the single file a page's ids are prefixed with its entry's (`<entry>--<heading>`): an
/// entry whose id is another's heading id so prefixed, or one the file uses itself, would take
/// its links, and is refused before either offline output is written. Text that only looks
/// like an id (`<div id="app">` in inline code) is no id. The build then fails before the
/// new site replaces the previous one.
#[test]
fn single_file_refuses_an_entry_id_that_is_another_entrys_heading() {
    let c = case("good");
    let single = c.out.with_file_name("kb.html");
    let zip = c.out.with_file_name("kb.zip");
    let offline = |c: &Case| {
        build(
            &c.book,
            &c.out,
            &[
                "--single-file",
                single.to_str().unwrap(),
                "--bundle",
                zip.to_str().unwrap(),
            ],
        )
    };
    for (file, body) in [("kafka/app.md", "Kafka"), ("mysql/app-too.md", "MySQL")] {
        std::fs::write(
            c.book.join("content").join(file),
            format!("---\ntitle: \"{body}\"\nconnector: {}\nkind: concept\n---\nUse `<div id=\"app\">` here, id=\"kafka-ssl-handshake\".\n", file.split('/').next().unwrap()),
        )
        .unwrap();
    }
    let o = offline(&c);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_file(&single).unwrap();
    std::fs::remove_file(&zip).unwrap();
    for (entry, says) in [
        (
            "kafka-offset-commit--answer",
            "`kafka-offset-commit--answer` would be both the id of a heading or element of kafka/kafka-offset-commit.html and the id of the page mysql/kafka-offset-commit--answer.html: rename the entry of mysql/kafka-offset-commit--answer.html",
        ),
        (
            "main",
            "`main` would be both one the single file uses for itself and the id of the page mysql/main.html: rename the entry of mysql/main.html",
        ),
    ] {
        let path = c.book.join(format!("content/mysql/{entry}.md"));
        std::fs::write(
            &path,
            "---\ntitle: \"Clash\"\nconnector: mysql\nkind: concept\n---\nText.\n",
        )
        .unwrap();
        let o = offline(&c);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("the single-file book cannot be made")
                && stderr(&o).contains("nothing was written"),
            "{}",
            stderr(&o)
        );
        assert!(!single.exists() && !zip.exists());
        // The build failed: the site is the previous one, without the clashing entry.
        assert!(
            !c.out.join(format!("mysql/{entry}.html")).exists(),
            "the site was replaced by a build that failed"
        );
        std::fs::remove_file(&path).unwrap();
    }
}

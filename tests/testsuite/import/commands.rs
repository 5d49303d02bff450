//! What `kbook import` refuses, and an imported FAQ searched in Chromium.

use super::*;

#[test]
fn import_refuses_an_existing_book_and_a_wrong_source() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("book.toml"), "[book]\ntitle = \"x\"\n").unwrap();
    let out = kbook_command()
        .args(["import", "--from", "hugo", "--into"])
        .arg(dir.path())
        .arg(fixture("import/hugo"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("already has a book.toml") && err.contains("--into"),
        "{err}"
    );
    assert!(!dir.path().join("content").exists());

    // A tree another generator's configuration marks is named as such, whichever layout
    // the wrong `--from` would accept.
    for wrong in ["mkdocs", "zola", "docusaurus"] {
        let out = kbook_command()
            .args(["import", "--from", wrong, "--into"])
            .arg(dir.path().join("new"))
            .arg(fixture("import/hugo"))
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("looks like a hugo site (hugo.toml)") && err.contains("--from hugo"),
            "{wrong}: {err}"
        );
        // A failed import leaves no folder behind where there was none.
        assert!(!dir.path().join("new").exists());
    }
    // Without another generator's mark, the missing configuration is named.
    let bare = tempfile::tempdir().unwrap();
    std::fs::create_dir(bare.path().join("docs")).unwrap();
    let out = kbook_command()
        .args(["import", "--from", "mkdocs", "--into"])
        .arg(dir.path().join("new"))
        .arg(bare.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("mkdocs.yml"));
}

/// A tree with no page, or only pages without text, is an error that says why, once, and
/// leaves nothing in the destination.
#[test]
fn import_of_nothing_says_why() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(
        src.path().join("docusaurus.config.js"),
        "module.exports = {};\n",
    )
    .unwrap();
    std::fs::create_dir(src.path().join("docs")).unwrap();
    let import = |into: &std::path::Path| {
        let out = kbook_command()
            .args(["import", "--from", "docusaurus", "--into"])
            .arg(into)
            .arg(src.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success(), "{err}");
        assert!(
            std::fs::read_dir(into).unwrap().next().is_none(),
            "left files"
        );
        err
    };
    let dest = tempfile::tempdir().unwrap();
    let err = import(dest.path());
    assert!(err.contains("holds no Markdown page"), "{err}");

    std::fs::write(
        src.path().join("docs/empty.md"),
        "---\ntitle: Empty\n---\n\n",
    )
    .unwrap();
    std::fs::write(
        src.path().join("docs/hidden.md"),
        "---\ntitle: Hidden\n---\n\n<!-- draft\n\nnot done\n",
    )
    .unwrap();
    let err = import(dest.path());
    assert!(err.contains("none of the 2 pages read"), "{err}");
    assert!(err.contains("docs/empty.md:"), "{err}");
    assert!(err.contains("docs/hidden.md:"), "{err}");
    // An error is said once (it was printed twice, as its message and as its cause).
    assert_eq!(err.matches("no text").count(), 2, "{err}");
    assert_eq!(
        err.lines().filter(|l| l.starts_with("error:")).count(),
        1,
        "{err}"
    );

    // Section index pages without text name their sections and make no entry: said too.
    let hugo = tempfile::tempdir().unwrap();
    std::fs::write(hugo.path().join("hugo.toml"), "title = \"x\"\n").unwrap();
    std::fs::create_dir_all(hugo.path().join("content/docs/kafka")).unwrap();
    for (page, title) in [("docs", "Docs"), ("docs/kafka", "Kafka")] {
        let text = format!("---\ntitle: {title}\n---\n");
        std::fs::write(hugo.path().join(format!("content/{page}/_index.md")), text).unwrap();
    }
    let dest = tempfile::tempdir().unwrap();
    let out = kbook_command()
        .args(["import", "--from", "hugo", "--into"])
        .arg(dest.path())
        .arg(hugo.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("none of the 2 pages read")
            && err.contains("2 section index page(s) without text"),
        "{err}"
    );
}

#[test]
fn imported_faq_is_searched_in_chromium_over_http_and_file() {
    let (dir, r) = import("mdbook", "mdbook");
    let book = dir.path().join("book");
    let dest = dir.path().join("site");
    run_ok(
        kbook_command()
            .args(["build", "--book"])
            .arg(&book)
            .arg("--dest")
            .arg(&dest),
    );
    let expect = "why-does-the-sink-report-duplicate-entry-errors";
    assert!(ids(&r).iter().any(|i| i == expect));
    let q = url_encode("java.sql.BatchUpdateException: Duplicate entry '77' for key 'PRIMARY'");
    let c = chromium();
    for base in [serve(dest.clone()), format!("{}/", file_url(&dest))] {
        c.open(&format!("{base}search.html?q={q}"));
        let first = c.wait_for("(() => { const li = document.querySelector('#kbook-search-page-results .kbook-result'); return li && li.dataset.id; })()");
        assert_eq!(first, expect, "{base}");
        // The result opens the question's page, with the answer's text.
        let href =
            c.eval("document.querySelector('#kbook-search-page-results .kbook-result a').href");
        c.open(href.as_str().unwrap());
        let text = c
            .wait_for("document.querySelector('main') && document.querySelector('main').innerText");
        assert!(
            text.as_str().unwrap().contains("Declare the same key"),
            "{text}"
        );
        // The old FAQ page's address and its question anchors lead to the entries.
        for (old, expect) in [
            (
                "faq.html#q2-where-are-the-taskmanager-logs",
                "where-are-the-taskmanager-logs",
            ),
            (
                "faq.html",
                "why-does-the-sink-report-duplicate-entry-errors",
            ),
        ] {
            c.open(&format!("{base}{old}"));
            let at = c.wait_for(&format!(
                "location.pathname.endsWith('/{expect}.html') && location.pathname"
            ));
            assert!(
                at.as_str()
                    .unwrap()
                    .ends_with(&format!("general/{expect}.html")),
                "{old}: {at}"
            );
        }
        c.assert_no_errors(&base);
    }
}

/// Pages that are not UTF-8 are all named with their line and column, and nothing is written.
#[test]
fn import_names_every_page_that_is_not_utf8() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("mkdocs.yml"), "site_name: x\n").unwrap();
    let docs = src.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    std::fs::write(docs.join("a.md"), "# Ok\n\nfine\n").unwrap();
    std::fs::write(docs.join("b.md"), b"# Caf\xe9 errors\n\nx\n").unwrap();
    std::fs::write(docs.join("c.md"), b"line one\nsecond \xff\n").unwrap();
    // Front-matter that cannot be read is named in the same round, at its line and column.
    std::fs::write(
        docs.join("d.md"),
        "---\ntitle: Fine\ntags: [a, b\n---\n# D\n\ntext\n",
    )
    .unwrap();
    std::fs::write(
        docs.join("e.md"),
        "+++\ntitle = \"x\"\ntitle = \"y\"\n+++\ntext\n",
    )
    .unwrap();
    let dest = tempfile::tempdir().unwrap();
    let into = dest.path().join("book");
    let out = kbook_command()
        .args(["import", "--from", "mkdocs", "--into"])
        .arg(&into)
        .arg(src.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2 page(s) are not UTF-8")
            && err.contains("docs/b.md:1:6: not UTF-8")
            && err.contains("docs/c.md:2:8: not UTF-8")
            && err.contains("iconv"),
        "{err}"
    );
    assert!(
        err.contains("2 page(s) have front-matter that cannot be read")
            && err.contains("docs/d.md:3:7: front-matter cannot be read")
            && err.contains("docs/e.md:3:1: front-matter cannot be read"),
        "{err}"
    );
    assert!(!into.exists());
    // A book inside the source tree is refused: the next import would read it back.
    std::fs::remove_file(docs.join("b.md")).unwrap();
    std::fs::remove_file(docs.join("c.md")).unwrap();
    std::fs::remove_file(docs.join("d.md")).unwrap();
    std::fs::remove_file(docs.join("e.md")).unwrap();
    let inside = docs.join("kb");
    let out = kbook_command()
        .args(["import", "--from", "mkdocs", "--into"])
        .arg(&inside)
        .arg(src.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is inside the source tree"), "{err}");
    assert!(!inside.exists());
    // A file as the destination is named as such.
    let file = dest.path().join("afile");
    std::fs::write(&file, "x").unwrap();
    let out = kbook_command()
        .args(["import", "--from", "mkdocs", "--into"])
        .arg(&file)
        .arg(src.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("afile is a file: --into takes a folder"),
        "{err}"
    );
}

/// Pages of one title in different folders are reported, with both places.
#[test]
fn import_reports_entries_a_reader_cannot_tell_apart() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("mkdocs.yml"), "site_name: x\n").unwrap();
    for dir in ["db", "network"] {
        let d = src.path().join("docs/trouble").join(dir);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("errors.md"), format!("# Errors\n\nAbout {dir}.\n")).unwrap();
    }
    let dest = tempfile::tempdir().unwrap();
    let r = import_tree("mkdocs", src.path(), &dest.path().join("book"));
    let notes: Vec<String> = r["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            format!(
                "{}  {}",
                n["at"].as_str().unwrap(),
                n["what"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        notes.iter().any(|n| n
            == "docs/trouble/db/errors.md:1  2 entries are titled `Errors` (also docs/trouble/network/errors.md:1): give them titles a reader can tell apart"),
        "{notes:#?}"
    );
}

/// A symbolic link in the tree is not followed, and the report says so.
#[test]
fn import_names_the_links_it_does_not_follow() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(
        src.path().join("docusaurus.config.js"),
        "module.exports = {};\n",
    )
    .unwrap();
    let docs = src.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    std::fs::write(
        docs.join("a.md"),
        "# Timeouts\n\nThe broker is unreachable.\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(docs.join("a.md"), docs.join("b.md")).unwrap();
    std::os::unix::fs::symlink(&docs, docs.join("again")).unwrap();
    let dest = tempfile::tempdir().unwrap();
    let report = import_tree("docusaurus", src.path(), &dest.path().join("book"));
    let linked: Vec<&str> = report["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| {
            n["what"]
                .as_str()
                .is_some_and(|w| w.contains("symbolic link"))
        })
        .filter_map(|n| n["at"].as_str())
        .collect();
    assert_eq!(linked, ["docs/again", "docs/b.md"], "{report}");
    assert_eq!(report["entries"], 1);
}

/// mdBook's redirects become aliases of the pages they lead to.
#[test]
fn import_keeps_mdbooks_redirects_as_aliases() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(
        src.path().join("book.toml"),
        "[book]\ntitle = \"Ops\"\nauthors = [\"Ann\", \"Bo\"]\ndescription = \"Runbooks.\"\nsrc = \"src\"\n\n[output.html]\ngit-repository-url = \"https://git.example.org/ops\"\nedit-url-template = \"https://git.example.org/ops/edit/{path}\"\n\n[output.html.redirect]\n\"/old/setup.html\" = \"guide/setup.html\"\n\"/older.html\" = \"guide/setup.html#install\"\n\"/gone.html\" = \"https://example.org/\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(src.path().join("src/guide")).unwrap();
    std::fs::write(
        src.path().join("src/SUMMARY.md"),
        "- [Setup](guide/setup.md)\n",
    )
    .unwrap();
    std::fs::write(
        src.path().join("src/guide/setup.md"),
        "# Setup\n\n## Install\n\nRun the installer.\n",
    )
    .unwrap();
    let dest = tempfile::tempdir().unwrap();
    let book = dest.path().join("book");
    let out = kbook_command()
        .args(["import", "--from", "mdbook", "--into"])
        .arg(&book)
        .arg(src.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let entry = std::fs::read_to_string(book.join("content/guide/setup.md")).unwrap();
    assert!(
        entry.contains("\"old/setup.html\"") && entry.contains("\"older.html\""),
        "{entry}"
    );
    assert!(!entry.contains("gone.html"), "{entry}");
    // The book's description, authors and repository carry over.
    let toml = std::fs::read_to_string(book.join("book.toml")).unwrap();
    assert!(
        toml.contains("authors = [\"Ann\", \"Bo\"]")
            && toml.contains("description = \"Runbooks.\"")
            && toml.contains("git-repository-url = \"https://git.example.org/ops\""),
        "{toml}"
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("edit-url-template not carried over"),
        "{said}"
    );
    // The page's old address is its entry's own: no note about an alias not kept.
    assert!(!said.contains("not kept as an alias"), "{said}");
    run_ok(kbook_command().args(["check", "--book"]).arg(&book));
}

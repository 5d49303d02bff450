//! `kbook import` on small docs trees of each generator (tests/fixtures/import/): the entries it
//! writes (ids, titles, FAQ splits, proposed errors), what it reports, that the result passes
//! `kbook check`, that the source is untouched, and that a pasted error finds the split entry.

use crate::common::{
    chromium, file_url, fixture, kbook_command, run_ok, serve, snapshot, url_encode,
};
use serde_json::Value;
use std::path::Path;

/// Imports fixture `name` as `from` into a fresh directory; returns it and the JSON report.
fn import(from: &str, name: &str) -> (tempfile::TempDir, Value) {
    let src = fixture(&format!("import/{name}"));
    let before = snapshot(&src);
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    let out = kbook_command()
        .args(["import", "--from", from, "--json", "--into"])
        .arg(&book)
        .arg(&src)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "import --from {from} failed:\n{stderr}"
    );
    assert_eq!(snapshot(&src), before, "the import changed the source tree");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    run_ok(kbook_command().args(["check", "--book"]).arg(&book));
    (dir, report)
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

#[test]
fn hugo_faq_is_split_with_shortcodes_converted_and_leftovers_reported() {
    let (dir, r) = import("hugo", "hugo");
    let book = dir.path().join("book");
    assert_eq!(
        ids(&r),
        [
            "how-to-upgrade-the-connector",
            "kafka-faq",
            "why-does-the-consumer-fail-with-timeoutexception",
            "how-do-i-reset-the-consumer-group-offsets",
            "why-is-the-lag-growing-after-a-restart",
            "sasl-authentication-fails",
        ]
    );
    assert_eq!(
        (r["faq_pages"].as_u64(), r["faq_entries"].as_u64()),
        (Some(1), Some(3))
    );
    let e = entries(&r);
    assert_eq!(e[0].2, "howto");
    assert_eq!(e[3].1, "How do I reset the consumer group offsets?");
    assert_eq!(e[3].2, "howto");
    assert_eq!(e[1].3, "kafka");
    assert_eq!(r["connectors"], serde_json::json!(["guides", "kafka"]));
    let toml = std::fs::read_to_string(book.join("book.toml")).unwrap();
    assert!(
        toml.contains("\"Kafka connector\"") || toml.contains("'Kafka connector'"),
        "{toml}"
    );
    assert!(toml.contains("Pipeline Ops Docs"), "{toml}");
    // The question's old address, the page's aliases and tags.
    assert_eq!(
        r["written"][2]["old_anchor"],
        "kafka/faq/#q1-why-does-the-consumer-fail-with-timeoutexception"
    );
    let intro = entry_text(&book, "kafka", "kafka-faq");
    assert!(
        intro.contains("old/kafka-faq/") && intro.contains("kafka/faq/"),
        "{intro}"
    );
    let q1 = entry_text(
        &book,
        "kafka",
        "why-does-the-consumer-fail-with-timeoutexception",
    );
    assert!(
        q1.contains(
            "aliases: [\"kafka/faq/#q1-why-does-the-consumer-fail-with-timeoutexception\"]"
        ),
        "{q1}"
    );
    assert!(
        intro.contains("tags: [kafka, faq]") && intro.contains("updated: 2024-05-02"),
        "{intro}"
    );
    // Shortcodes: highlight and note converted, youtube reported where it is.
    let reset = entry_text(&book, "kafka", "how-do-i-reset-the-consumer-group-offsets");
    assert!(
        reset.contains("```shell\nkafka-consumer-groups.sh"),
        "{reset}"
    );
    let lag = entry_text(&book, "kafka", "why-is-the-lag-growing-after-a-restart");
    assert!(lag.contains("> [!NOTE]\n> Restoring"), "{lag}");
    assert!(
        lag.contains("[the SASL page](sasl-authentication-fails.md)"),
        "{lag}"
    );
    let sasl = entry_text(&book, "kafka", "sasl-authentication-fails");
    assert!(sasl.contains("> [!WARNING]\n> **Secrets**"), "{sasl}");
    // Docs keep option references in raw HTML tables: their text is searched too.
    assert_eq!(
        first_hit(&book, "credential refresh buffer seconds"),
        "sasl-authentication-fails"
    );
    assert_eq!(
        reported(&r, "unconverted", "content/kafka/sasl.md:").len(),
        1
    );
    assert!(reported(&r, "unconverted", "content/kafka/sasl.md:25")[0].contains("youtube"));
    // Site parameters take their configured value; one the configuration lacks is reported.
    let upgrade = entry_text(&book, "guides", "how-to-upgrade-the-connector");
    assert!(upgrade.contains("current release is 3.2.0;"), "{upgrade}");
    let missing = reported(&r, "unconverted", "content/guides/upgrade.md:7");
    assert!(
        missing.len() == 1 && missing[0].contains("param changelogURL"),
        "{missing:?}"
    );
    // Proposed errors: the code span of the question and the trace's exception line.
    assert_eq!(
        proposed(&r, "why-does-the-consumer-fail-with-timeoutexception"),
        [
            "org.apache.kafka.common.errors.TimeoutException: Timeout of 60000ms expired before the position for partition orders-0 could be determined"
        ]
    );
    assert_eq!(
        proposed(&r, "sasl-authentication-fails"),
        [
            "org.apache.kafka.common.errors.SaslAuthenticationException: Authentication failed: Invalid username or password"
        ]
    );
    // Dropped keys and files that are not pages are reported.
    assert!(
        reported(&r, "dropped_keys", "kafka/faq.md")
            .iter()
            .any(|w| w.starts_with("weight"))
    );
    assert!(
        reported(&r, "dropped_keys", "guides/upgrade.md")
            .iter()
            .any(|w| w.starts_with("draft"))
    );
    // Images the pages show are copied (and no longer reported as files left behind); one
    // that is not in the tree keeps its link and is reported.
    assert_eq!(r["images"], 2);
    assert!(
        sasl.contains("![The login flow](../static/images/content/kafka/diagram.png)"),
        "{sasl}"
    );
    assert!(
        sasl.contains("![Architecture](../static/images/images/arch.png)"),
        "{sasl}"
    );
    assert!(
        book.join("static/images/content/kafka/diagram.png")
            .is_file()
    );
    assert!(book.join("static/images/images/arch.png").is_file());
    assert!(reported(&r, "notes", "diagram.png").is_empty());
    assert!(
        reported(&r, "notes", "content/kafka/sasl.md")
            .iter()
            .any(|n| n.contains("missing.png"))
    );
    // The split entry answers a paste of its error.
    assert_eq!(
        first_hit(
            &book,
            "org.apache.kafka.common.errors.TimeoutException: Timeout of 60000ms expired before the position for partition payments-3 could be determined"
        ),
        "why-does-the-consumer-fail-with-timeoutexception"
    );
}

#[test]
fn hugo_pages_of_another_language_with_pages_option() {
    let src = fixture("import/hugo");
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("zh");
    let out = run_ok(
        kbook_command()
            .args([
                "import",
                "--from",
                "hugo",
                "--pages",
                "content.zh",
                "--json",
                "--into",
            ])
            .arg(&book)
            .arg(&src),
    );
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = entries(&r);
    let titles: Vec<&str> = e.iter().map(|e| e.1.as_str()).collect();
    assert_eq!(
        titles,
        [
            "作业报错 Timeout of 60000ms expired before the position for partition orders-0 could be determined，怎么办？",
            "如何重置消费组的位点？",
        ],
        "the licence-style comment is no introduction: {e:?}"
    );
    assert_eq!(e[1].2, "howto");
    assert_eq!(
        proposed(&r, &e[0].0),
        [
            "Timeout of 60000ms expired before the position for partition orders-0 could be determined"
        ]
    );
    let toml = std::fs::read_to_string(book.join("book.toml")).unwrap();
    assert!(toml.contains("language = \"zh\""), "{toml}");
    run_ok(kbook_command().args(["check", "--book"]).arg(&book));
}

#[test]
fn zola_details_blocks_become_questions() {
    let (dir, r) = import("zola", "zola");
    let book = dir.path().join("book");
    assert_eq!(
        ids(&r),
        [
            "the-jdbc-driver-class-is-missing",
            "mysql-questions",
            "why-do-i-see-access-denied-for-user-when-the-job-starts",
            "how-do-i-read-only-new-changes",
        ]
    );
    assert_eq!(r["faq_entries"], 2);
    let e = entries(&r);
    assert_eq!(e[0].2, "troubleshooting");
    let faq = entry_text(&book, "mysql", "mysql-questions");
    assert!(
        faq.contains("> [!NOTE]") && faq.contains("tags: [mysql, cdc]"),
        "{faq}"
    );
    assert_eq!(
        proposed(
            &r,
            "why-do-i-see-access-denied-for-user-when-the-job-starts"
        ),
        ["java.sql.SQLException: Access denied for user 'flink'@'10.0.0.7' (using password: YES)"]
    );
    assert_eq!(
        proposed(&r, "the-jdbc-driver-class-is-missing"),
        ["java.lang.ClassNotFoundException: com.mysql.cj.jdbc.Driver"]
    );
    let leftovers = reported(&r, "unconverted", "content/mysql/");
    assert!(
        leftovers.iter().any(|w| w.contains("youtube")),
        "{leftovers:?}"
    );
    assert!(leftovers.iter().any(|w| w.contains("@/")), "{leftovers:?}");
    assert_eq!(
        first_hit(
            &book,
            "java.lang.ClassNotFoundException: com.mysql.cj.jdbc.Driver"
        ),
        "the-jdbc-driver-class-is-missing"
    );
}

#[test]
fn docusaurus_chinese_faq_admonitions_and_mdx() {
    let (dir, r) = import("docusaurus", "docusaurus");
    let book = dir.path().join("book");
    let e = entries(&r);
    let titles: Vec<&str> = e.iter().map(|e| e.1.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Introduction",
            "常见问题",
            "为什么作业重启后数据重复？",
            "如何查看 checkpoint 失败的原因？",
            "TaskManager runs out of memory"
        ]
    );
    // Titles without ASCII words get ids from the file name and a digest of the title (not
    // its position: reordered questions keep their addresses).
    let suffix = e[2].0.strip_prefix("faq-").unwrap_or("");
    assert!(
        suffix.len() == 6 && suffix.bytes().all(|b| b.is_ascii_hexdigit()),
        "{}",
        e[2].0
    );
    assert_eq!(e[3].0, "checkpoint");
    assert_eq!((e[0].2.as_str(), e[3].2.as_str()), ("concept", "howto"));
    assert_eq!(e[1].3, "troubleshooting");
    let toml = std::fs::read_to_string(book.join("book.toml")).unwrap();
    assert!(
        toml.contains("故障排查") && toml.contains("Stream Docs"),
        "{toml}"
    );
    assert_eq!(
        proposed(&r, "checkpoint"),
        [
            "org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired before completing."
        ]
    );
    let oom = entry_text(&book, "troubleshooting", "taskmanager-runs-out-of-memory");
    assert!(
        oom.contains("updated: 2024-02-02")
            && oom.contains("docs/oom/")
            && oom.contains("> [!WARNING]"),
        "{oom}"
    );
    let faq = reported(&r, "unconverted", "troubleshooting/faq.mdx");
    assert_eq!(
        faq.iter().filter(|w| w.contains("import")).count(),
        2,
        "{faq:?}"
    );
    assert!(faq.iter().any(|w| w.contains("MDX component")), "{faq:?}");
    // A page that only shows another page (`<Oom />`) is no entry of its own (the titles
    // above), and says so.
    let shared = reported(&r, "notes", "troubleshooting/oom-shared.mdx");
    assert!(
        shared
            .iter()
            .any(|w| w.contains("only shows MDX components")),
        "{shared:?}"
    );
    assert_eq!(
        first_hit(&book, "Checkpoint expired before completing"),
        "checkpoint"
    );
}

#[test]
fn mkdocs_nav_snippets_and_admonitions() {
    let (dir, r) = import("mkdocs", "mkdocs");
    let book = dir.path().join("book");
    assert_eq!(
        ids(&r),
        [
            "connection-refused-to-the-database",
            "how-do-i-set-the-parallelism-of-the-sink",
            "why-does-the-job-restart-every-few-minutes",
            "welcome",
        ]
    );
    let toml = std::fs::read_to_string(book.join("book.toml")).unwrap();
    assert!(
        toml.contains("Connector Handbook") && toml.contains("\"FAQ\""),
        "{toml}"
    );
    let sink = entry_text(&book, "faq", "how-do-i-set-the-parallelism-of-the-sink");
    assert!(sink.contains("'sink.parallelism' = '4'"), "{sink}");
    assert!(sink.contains("> [!NOTE]\n> **Defaults**"), "{sink}");
    assert_eq!(
        proposed(&r, "why-does-the-job-restart-every-few-minutes"),
        ["java.io.IOException: Failed to deserialize consumer record due to"]
    );
    assert_eq!(
        proposed(&r, "connection-refused-to-the-database"),
        ["java.net.ConnectException: Connection refused (Connection refused)"]
    );
    assert!(
        reported(&r, "unconverted", "faq/errors.md")
            .iter()
            .any(|w| w.contains("content tab"))
    );
}

#[test]
fn mdbook_includes_are_resolved_and_missing_ones_reported() {
    let (dir, r) = import("mdbook", "mdbook");
    let book = dir.path().join("book");
    assert_eq!(
        ids(&r),
        [
            "introduction",
            "checkpoints-expire-before-completing",
            "why-does-the-sink-report-duplicate-entry-errors",
            "where-are-the-taskmanager-logs",
            "can-i-change-the-state-backend-of-a-running-job",
        ]
    );
    assert_eq!(
        (r["faq_pages"].as_u64(), r["faq_entries"].as_u64()),
        (Some(1), Some(3))
    );
    let dup = entry_text(
        &book,
        "general",
        "why-does-the-sink-report-duplicate-entry-errors",
    );
    assert!(
        dup.contains("java.sql.BatchUpdateException: Duplicate entry '1001'"),
        "{dup}"
    );
    assert_eq!(
        proposed(&r, "why-does-the-sink-report-duplicate-entry-errors"),
        ["java.sql.BatchUpdateException: Duplicate entry '1001' for key 'PRIMARY'"]
    );
    let timeouts = entry_text(&book, "checkpoints", "checkpoints-expire-before-completing");
    assert!(
        timeouts.contains("execution.checkpointing.timeout: 30 min"),
        "{timeouts}"
    );
    assert!(
        !timeouts.contains("ANCHOR") && !timeouts.contains("state.backend"),
        "{timeouts}"
    );
    assert!(
        timeouts.contains("aliases: [\"checkpoints/timeouts.html\"]"),
        "{timeouts}"
    );
    let missing = reported(&r, "unconverted", "src/faq.md:19");
    assert!(
        missing.len() == 1 && missing[0].contains("not found"),
        "{missing:?}"
    );
    assert!(!reported(&r, "unconverted", "checkpoints/timeouts.md:3").is_empty());
    assert_eq!(
        first_hit(
            &book,
            "Caused by: java.sql.BatchUpdateException: Duplicate entry '42' for key 'PRIMARY'"
        ),
        "why-does-the-sink-report-duplicate-entry-errors"
    );
}

#[test]
fn a_section_index_faq_with_statement_questions_and_bold_questions_are_split() {
    // Hugo: the section's own `_index.md` is its FAQ, named so; two of its four headings ask
    // in a question's words, the others state the problem.
    let (_dir, r) = import("hugo", "hugo-faq-index");
    let e = entries(&r);
    let titles: Vec<&str> = e.iter().map(|e| e.1.as_str()).collect();
    assert_eq!(
        titles,
        [
            "FAQ",
            "导入失败：too many filtered rows",
            "当字段为 NULL 时比较结果为 NULL",
            "How do I check which version runs?",
            "This error \"table is locked\" occurs when I run ALTER",
            "Setting up the service",
        ]
    );
    assert_eq!(
        (r["faq_pages"].as_u64(), r["faq_entries"].as_u64()),
        (Some(1), Some(4))
    );
    // The index page still names its section.
    assert!(e.iter().all(|e| e.3 == "help"));
    assert_eq!(r["connectors"], serde_json::json!(["help"]));
    // MkDocs: questions as bold paragraphs, one spread over two lines.
    let (dir, r) = import("mkdocs", "mkdocs-bold");
    let e = entries(&r);
    let titles: Vec<&str> = e.iter().map(|e| e.1.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Can I run the operator on bare metal?",
            "Why does the operator not use StatefulSets?",
            "What happens when the operator pod dies?",
        ]
    );
    let text = entry_text(&dir.path().join("book"), &e[1].3, &e[1].0);
    assert!(
        text.contains("volumes of each instance") && !text.contains("operator pod"),
        "{text}"
    );
}

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

    let out = kbook_command()
        .args(["import", "--from", "mkdocs", "--into"])
        .arg(dir.path().join("new"))
        .arg(fixture("import/hugo"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mkdocs.yml"), "{err}");
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

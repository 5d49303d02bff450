//! The other generators' trees (Zola, Docusaurus, MkDocs, mdBook) and FAQ forms that split.

use super::*;

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
    // An `@/` link is pointed at its entry, so it is not reported as left as it was.
    assert!(!leftovers.iter().any(|w| w.contains("@/")), "{leftovers:?}");
    assert!(
        entry_text(&book, "mysql", "the-jdbc-driver-class-is-missing")
            .contains("See [the FAQ](mysql-questions.md)")
    );
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
    // Its tabs read as their labels over their text.
    assert!(!faq.iter().any(|w| w.contains("MDX component")), "{faq:?}");
    let written: String = walkdir::WalkDir::new(book.join("content"))
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert!(
        written.contains("**ui**\n\n打开 Checkpoints 页。"),
        "{written}"
    );
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
    // A content tab reads as its label over its body.
    let refused = entry_text(&book, "faq", "connection-refused-to-the-database");
    assert!(
        refused.contains("**MySQL**\n\nCheck port 3306."),
        "{refused}"
    );
    assert!(reported(&r, "unconverted", "faq/errors.md").is_empty());
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
    // A file a page includes is shown by it: no note calls it left behind.
    let notes = r["notes"].to_string();
    assert!(!notes.contains("settings.txt"), "{notes}");
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
    // Its old address is the connector's page now, and the report says so.
    assert!(
        r["notes"].as_array().unwrap().iter().any(|n| n["what"]
            == "old address `help/` not kept as an alias: it is the page kbook writes for the connector `help`"),
        "{}",
        r["notes"]
    );
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

//! Hugo docs trees: a FAQ page split into questions, and the pages of another language.

use super::*;

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
    // Hugo served the translation below its language's code: so do its old addresses.
    let written = walk_md(&book.join("content"));
    assert!(
        written
            .iter()
            .any(|t| t.contains("aliases: [\"zh/kafka/faq/")),
        "{written:#?}"
    );
    assert!(!written.iter().any(|t| t.contains("aliases: [\"kafka/faq/")));
    run_ok(kbook_command().args(["check", "--book"]).arg(&book));
}

/// The text of every Markdown file below `dir`.
fn walk_md(dir: &std::path::Path) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect()
}

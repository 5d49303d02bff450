//! Connectors named in the query: by name, alias, logger or package, against title overlap,
//! error texts shared between connectors, and generic errors.

use super::*;

/// Two entries about the same event; only one belongs to the connector the question names, and
/// the other one's title matches more of the question's words.
fn scaling_pair() -> BookIndex {
    let docs = vec![
        entry(
            "logs-shard-count",
            "logs",
            "What happens to the source when the shard count changes",
            &[],
            "Changing the shard count of a store restarts the job once. The shard count is read at startup.",
            "",
        ),
        entry(
            "topics-resharded",
            "topics",
            "A topic was resharded and the job keeps failing",
            &[],
            "The topics connector does not see a new shard count. Restart the job after the change.",
            "",
        ),
        entry(
            "logs-permissions",
            "logs",
            "Missing permission on the store",
            &[],
            "Grant read access.",
            "",
        ),
        entry(
            "topics-permissions",
            "topics",
            "Missing permission on the topic",
            &[],
            "Grant subscribe access.",
            "",
        ),
    ];
    index_of(&docs)
}

#[test]
fn a_named_connector_outweighs_title_overlap() {
    let idx = scaling_pair();
    let q = "changed topics shard count restart needed";
    let off = Tuning {
        connector_mentions: false,
        ..Tuning::default()
    };
    assert_part_decides(&idx, q, "topics-resharded", off, "logs-shard-count");
}

/// In a book where most entries are about one connector, its name is a common word and adds
/// little to a score: a question naming it still prefers that connector's entry to another
/// connector's entry with more of the question's other words.
#[test]
fn a_named_connector_counts_even_when_its_name_is_common() {
    let mut docs = vec![
        entry(
            "wide-visibility",
            "wide",
            "When rows written by the job become visible in the wide store",
            &[],
            "With exactly-once on, sink data becomes visible when the checkpoint that covers it completes.",
            "",
        ),
        entry(
            "narrow-visibility",
            "narrow",
            "Does the checkpoint decide when data appears in the narrow store?",
            &[],
            "Rows appear after each checkpoint.",
            "",
        ),
    ];
    docs.extend(fillers(
        40,
        "wide",
        "Another wide store question",
        "Something else about the wide store.",
    ));
    let idx = index_of(&docs);
    let q = "wide exactly-once sink data only appears after checkpoint";
    let off = Tuning {
        connector_hit_boost: 0.0,
        ..Tuning::default()
    };
    assert_part_decides(&idx, q, "wide-visibility", off, "narrow-visibility");
}

/// The connector's name in one entry's error text makes that entry no likelier the answer
/// than the connector's other entries: a word naming a connector is not matched in the
/// signature field (its ranking effect is measured on real users' queries, see
/// `Tuning::connector_mentions`).
#[test]
fn a_named_connector_is_not_matched_in_error_texts() {
    let mut docs = vec![
        entry(
            "lake-materializer",
            "lake",
            "The lake sink rejects the materializer operator",
            &["Lake sink: materializer rejected"],
            "Turn the materializer off for lake sinks.",
            "",
        ),
        entry(
            "lake-visibility",
            "lake",
            "Why rows show up in the lake only after a checkpoint",
            &[],
            "The lake sink commits files at each checkpoint: data it is writing is seen after it.",
            "",
        ),
    ];
    docs.extend(fillers(
        20,
        "other",
        "Another connector topic",
        "Something else.",
    ));
    let idx = index_of(&docs);
    let sig_clauses = |tuning: Tuning| {
        explain_lines(
            &idx,
            "[Bug] Lake isn't writing data",
            tuning,
            "lake-materializer",
        )
        .iter()
        .filter(|l| l.split_whitespace().nth(1) == Some("sig"))
        .count()
    };
    assert_eq!(sig_clauses(Tuning::default()), 0);
    let off = Tuning {
        connector_mentions: false,
        ..Tuning::default()
    };
    assert_eq!(sig_clauses(off), 1);
}

/// A question names two connectors: the one it reads from and the one it writes to. The
/// rarer name alone must not decide which entry answers.
#[test]
fn two_named_connectors_share_the_weight_of_a_mention() {
    let mut docs = vec![
        entry(
            "streams-new-partitions",
            "streams",
            "Adding partitions to a streams topic",
            &[],
            "New partitions of a streams topic are found by partition discovery.",
            "",
        ),
        entry(
            "tables-upsert",
            "tables",
            "The tables sink inserts new keys and updates existing ones",
            &[],
            "With a primary key declared the tables sink updates the row of an existing key and inserts a new key.",
            "",
        ),
    ];
    docs.extend(fillers(
        4,
        "tables",
        "Another tables topic",
        "Something else about tables.",
    ));
    let idx = index_of(&docs);
    let q = "streams to tables: update the row when the primary key exists";
    assert_eq!(
        top_with(&idx, q, Tuning::default()).as_deref(),
        Some("tables-upsert")
    );
    // One hyphenated name is one connector: its parts do not count as two more.
    docs.push(entry(
        "streams-tables-rows",
        "streams-tables",
        "Rows of the bridge arrive late",
        &[],
        "The bridge copies each topic into a table.",
        "",
    ));
    let idx = index_of(&docs);
    assert_eq!(
        top_with(
            &idx,
            "streams-tables: update the row when the key exists",
            Tuning::default()
        )
        .as_deref(),
        Some("streams-tables-rows")
    );
}

#[test]
fn a_connector_named_in_a_logger_or_by_an_alias_counts() {
    let idx = open();
    let confident = |q: &str| top_confident(&idx, q, Tuning::default());
    // The logger names Kafka; reading the paste drops it, agreement still sees it.
    let logged = "[2024-01-02 03:04:05,678][ERROR][org.example.kafka.reader.Poller] read failed\njava.io.EOFException: SSL peer shut down incorrectly";
    assert_eq!(confident(logged), ("ssl-peer-shut-down".to_string(), false));

    // An alias of the hit's connector agrees with it; one of another connector does not.
    let mut docs = fixture();
    for d in &mut docs {
        if d.connector == "mysql" {
            d.connector_aliases = vec!["mariadb".into()];
        }
        if d.connector == "kafka" {
            d.connector_aliases = vec!["ckafka".into()];
        }
    }
    let idx = index_of(&docs);
    let confident = |q: &str| top_confident(&idx, q, Tuning::default());
    let error = "java.io.EOFException: SSL peer shut down incorrectly";
    assert_eq!(
        confident(&format!("{error}\nwhile reading from mariadb")),
        ("ssl-peer-shut-down".to_string(), true)
    );
    assert_eq!(
        confident(&format!("{error}\nwhile reading from ckafka")),
        ("ssl-peer-shut-down".to_string(), false)
    );
    // An alias names its connector in the query as the slug does: the query finds that
    // connector's entries, which it could not without the slug written beside it.
    let r = idx.search("mariadb", &SearchOptions::default()).unwrap();
    assert!(!r.hits.is_empty());
    assert!(
        r.hits.iter().all(|h| h.connector == "mysql"),
        "{:?}",
        r.hits
    );
    let off = SearchOptions {
        tuning: Tuning {
            alias_slugs: false,
            ..Tuning::default()
        },
        ..Default::default()
    };
    assert!(idx.search("mariadb", &off).unwrap().hits.is_empty());
}

/// An alias in a query decides between two connectors' entries about the same event.
#[test]
fn an_alias_in_the_query_names_its_connector() {
    let mut docs: Vec<EntryDoc> = Vec::new();
    for (slug, alias) in [("logs", "lgx"), ("topics", "tpx")] {
        let mut d = entry(
            &format!("{slug}-shard-count"),
            slug,
            &format!("The {slug} source fails after the shard count changes"),
            &[],
            "The shard count is read at startup; restart the job after changing it.",
            "",
        );
        d.tags = vec![slug.to_string()];
        d.connector_aliases = vec![alias.to_string()];
        docs.push(d);
    }
    let idx = index_of(&docs);
    for (q, want) in [
        ("shard count changed on tpx", "topics-shard-count"),
        ("shard count changed on lgx", "logs-shard-count"),
        ("tpx_reader: shard count changed", "topics-shard-count"),
    ] {
        assert_eq!(
            top_with(&idx, q, Tuning::default()).as_deref(),
            Some(want),
            "{q}"
        );
    }

    // The slug is a query word beside the alias, not text: a quoted phrase with the alias in
    // it still matches the entry that has the phrase as written.
    let mut docs: Vec<EntryDoc> = ["phrase", "scattered"]
        .iter()
        .map(|id| {
            let body = if *id == "phrase" {
                "Restart the tpx reader once the resharding is over."
            } else {
                "The reader restarts once tpx finishes the resharding."
            };
            let mut d = entry(id, "topics", "After resharding", &[], body, "");
            d.connector_aliases = vec!["tpx".to_string()];
            d
        })
        .collect();
    docs.push(entry(
        "other",
        "logs",
        "Unrelated",
        &[],
        "Nothing here.",
        "",
    ));
    let idx = index_of(&docs);
    assert_eq!(
        top_with(&idx, "\"tpx reader\" resharding", Tuning::default()).as_deref(),
        Some("phrase")
    );
}

#[test]
fn an_error_pasted_from_another_connector_is_not_confident() {
    let idx = open();
    let confident = |q: &str, tuning: Tuning| top_confident(&idx, q, tuning);
    let error = "java.io.EOFException: SSL peer shut down incorrectly";
    let from_kafka = format!("{error}\nwhile reading from kafka");
    let from_mysql = format!("{error}\nwhile reading from mysql");
    // The entry is still the closest, but it belongs to MySQL and the reader runs Kafka.
    assert_eq!(
        confident(&from_kafka, Tuning::default()),
        ("ssl-peer-shut-down".to_string(), false)
    );
    assert_eq!(
        confident(&from_mysql, Tuning::default()),
        ("ssl-peer-shut-down".to_string(), true)
    );
    assert_eq!(
        confident(error, Tuning::default()),
        ("ssl-peer-shut-down".to_string(), true)
    );
    let off = Tuning {
        connector_agreement: false,
        ..Tuning::default()
    };
    assert_eq!(
        confident(&from_kafka, off),
        ("ssl-peer-shut-down".to_string(), true)
    );
}

/// A message the JVM prints for many causes, documented by one connector's entry, is a
/// confident answer only when the query also names that connector; the entry's own messages
/// need no name.
#[test]
fn a_generic_error_is_confident_only_with_its_connector_named() {
    let mut oom = entry(
        "logs-heap-on-recovery",
        "logs",
        "Out of heap when the logs source recovers with a large batch",
        &[
            "java.lang.OutOfMemoryError: Java heap space",
            "LogBatchTooLargeException: batch exceeds the limit",
        ],
        "After a failover the logs source reads a large batch at once and the heap runs out.",
        "",
    );
    oom.generic_errors = vec!["java.lang.OutOfMemoryError: Java heap space".into()];
    let docs = vec![
        oom,
        entry("other", "tables", "Something else", &[], "Unrelated.", ""),
        entry(
            "third",
            "tables",
            "Another thing",
            &[],
            "Unrelated too.",
            "",
        ),
    ];
    let idx = index_of(&docs);
    let bare = "java.lang.OutOfMemoryError: Java heap space";
    let named = "logs source after restart: java.lang.OutOfMemoryError: Java heap space";
    let own = "LogBatchTooLargeException: batch exceeds the limit";
    let off = Tuning {
        generic_errors: false,
        ..Tuning::default()
    };
    assert_eq!(
        top_confident(&idx, bare, Tuning::default()),
        ("logs-heap-on-recovery".to_string(), false)
    );
    assert_eq!(
        top_confident(&idx, bare, off),
        ("logs-heap-on-recovery".to_string(), true)
    );
    assert_eq!(
        top_confident(&idx, named, Tuning::default()),
        ("logs-heap-on-recovery".to_string(), true)
    );
    assert_eq!(
        top_confident(&idx, own, Tuning::default()),
        ("logs-heap-on-recovery".to_string(), true)
    );
    // The entry's own message with the generic one beside it is still confident.
    assert_eq!(
        top_confident(
            &idx,
            &format!("{own}\nCaused by: {bare}"),
            Tuning::default()
        ),
        ("logs-heap-on-recovery".to_string(), true)
    );
}

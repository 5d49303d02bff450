//! Indexes a small fixture book and checks ranking of pasted errors, determinism, robustness.

use kbook_search::version::{Version, VersionMatch, VersionRange, VersionSpec};
use kbook_search::{BookIndex, EntryDoc, SearchOptions, Tuning, build_packed_index};

fn entry(
    id: &str,
    connector: &str,
    title: &str,
    errors: &[&str],
    body: &str,
    code: &str,
) -> EntryDoc {
    EntryDoc {
        id: id.into(),
        url: format!("{connector}/{id}.html"),
        title: title.into(),
        connector: connector.into(),
        connector_aliases: Vec::new(),
        kind: "error".into(),
        errors: errors.iter().map(|s| s.to_string()).collect(),
        generic_errors: Vec::new(),
        body: body.into(),
        code: code.into(),
        tags: vec![],
        symptoms: vec![],
        versions: vec![],
    }
}

/// `n` entries of `connector` about nothing the tests ask: ids `{connector}-other-{i}`, titles
/// `{title} {i}`, one body.
fn fillers(n: usize, connector: &str, title: &str, body: &str) -> Vec<EntryDoc> {
    (0..n)
        .map(|i| {
            let id = format!("{connector}-other-{i}");
            entry(&id, connector, &format!("{title} {i}"), &[], body, "")
        })
        .collect()
}

fn fixture() -> Vec<EntryDoc> {
    let mut v = vec![
        entry(
            "mysql-communications-link-failure",
            "mysql",
            "Communications link failure when connecting to MySQL",
            &["com.mysql.cj.jdbc.exceptions.CommunicationsException: Communications link failure"],
            "The driver could not reach the MySQL server. Check the network, the whitelist and the port 3306.",
            "SHOW VARIABLES LIKE 'wait_timeout';",
        ),
        entry(
            "kafka-commit-offsets",
            "kafka",
            "Offsets are not committed to Kafka",
            &[
                "CommitFailedException: Commit cannot be completed since the group has already rebalanced",
            ],
            "Offsets are committed on checkpoints. Enable checkpointing and check max.poll.interval.ms.",
            "properties.max.poll.interval.ms = 600000",
        ),
        entry(
            "ssl-peer-shut-down",
            "mysql",
            "SSL peer shut down incorrectly",
            &[
                "javax.net.ssl.SSLException: SSL peer shut down incorrectly",
                "java.io.EOFException: SSL peer shut down incorrectly",
            ],
            "The TLS handshake was cut by the server. Disable SSL with useSSL=false or upgrade the driver.",
            "jdbc:mysql://host:3306/db?useSSL=false",
        ),
        entry(
            "datahub-no-permission-listshard",
            "datahub",
            "No permission for dhs:ListShard",
            &[
                "NoPermissionException: You have no permission to perform this action. Action: dhs:ListShard",
            ],
            "Grant the RAM user the ListShard action on the project.",
            "",
        ),
        entry(
            "maxcompute-authorization-failed-4019",
            "maxcompute",
            "Authorization Failed [4019]",
            &[
                "ErrorMessage=Authorization Failed [4019], You have NO privilege 'odps:CreateInstance' on {acs:odps:*:projects/p}",
            ],
            "The account lacks the CreateInstance privilege in the MaxCompute project.",
            "",
        ),
        entry(
            "checkpoint-timeout",
            "general",
            "Checkpoint expired before completing",
            &["Checkpoint expired before completing."],
            "Checkpoints time out when back pressure slows barriers. Increase the checkpoint timeout or fix back pressure.",
            "execution.checkpointing.timeout: 30min",
        ),
    ];
    v[1].versions = vec![VersionSpec {
        product: "vvr".into(),
        affected: Some(VersionRange::parse(">=8.0.5, <8.0.9").unwrap()),
        fixed: Some(Version::parse("8.0.9").unwrap()),
    }];
    v
}

/// An index of `docs`.
fn index_of(docs: &[EntryDoc]) -> BookIndex {
    BookIndex::open(build_packed_index(docs).unwrap()).unwrap()
}

/// An entry about something else, so that terms of a small fixture are not in every entry.
fn unrelated() -> EntryDoc {
    entry(
        "other",
        "logs",
        "Missing permission",
        &[],
        "Grant read access.",
        "",
    )
}

fn open() -> BookIndex {
    index_of(&fixture())
}

fn top(idx: &BookIndex, q: &str) -> String {
    let r = idx.search(q, &SearchOptions::default()).unwrap();
    r.hits.first().map(|h| h.id.clone()).unwrap_or_default()
}

#[test]
fn builds_are_byte_identical() {
    let a = build_packed_index(&fixture()).unwrap();
    let b = build_packed_index(&fixture()).unwrap();
    assert_eq!(a, b);
}

#[test]
fn ranks_pasted_errors_and_traces() {
    let idx = open();
    assert_eq!(idx.num_docs(), 6);
    let trace = "2023-05-01 10:00:00,123 ERROR [Source: mysql-cdc (1/1)] o.a.f.r.t.Task - Job failed\n\
        org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy\n\
        \tat org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:138)\n\
        \tat org.apache.flink.runtime.scheduler.DefaultScheduler.handleTaskFailure(DefaultScheduler.java:233)\n\
        Caused by: java.io.EOFException: SSL peer shut down incorrectly\n\
        \tat sun.security.ssl.SSLSocketInputRecord.decodeInputRecord(SSLSocketInputRecord.java:167)\n\
        \t... 25 more";
    assert_eq!(top(&idx, trace), "ssl-peer-shut-down");
    assert_eq!(
        top(
            &idx,
            "NoPermissionException: You have no permission to perform this action. Action: dhs:ListShard"
        ),
        "datahub-no-permission-listshard"
    );
    assert_eq!(
        top(
            &idx,
            "ErrorMessage=Authorization Failed [4019], You have NO privilege'ODPS:***'"
        ),
        "maxcompute-authorization-failed-4019"
    );
    assert_eq!(
        top(&idx, "CommunicationsException"),
        "mysql-communications-link-failure"
    );
    assert_eq!(top(&idx, "checkpoint timeout"), "checkpoint-timeout");
    // Typo tolerance (short queries and typed words).
    assert_eq!(top(&idx, "rebalancd commit"), "kafka-commit-offsets");
}

#[test]
fn results_carry_display_data() {
    let idx = open();
    let opts = SearchOptions {
        explain: true,
        ..Default::default()
    };
    let r = idx
        .search(
            "java.io.EOFException: SSL peer shut down incorrectly",
            &opts,
        )
        .unwrap();
    assert!(r.confident);
    let h = &r.hits[0];
    assert_eq!(h.url, "mysql/ssl-peer-shut-down.html");
    assert_eq!(
        h.matched_error.as_deref(),
        Some("java.io.EOFException: SSL peer shut down incorrectly")
    );
    assert!(h.explain.as_deref().unwrap().contains("sig"));
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.contains("\"snippet\""));
    // Highlights are char offsets inside the snippet text.
    let r = idx.search("handshake", &SearchOptions::default()).unwrap();
    let s = &r.hits[0].snippet;
    let chars: Vec<char> = s.text.chars().collect();
    let (a, b) = s.highlights[0];
    assert_eq!(
        chars[a..b].iter().collect::<String>().to_lowercase(),
        "handshake"
    );
}

#[test]
fn filters_by_connector_kind_and_version() {
    let idx = open();
    let opts = SearchOptions {
        connector: Some("kafka".into()),
        ..Default::default()
    };
    let r = idx.search("SSL peer shut down commit", &opts).unwrap();
    assert!(r.hits.iter().all(|h| h.connector == "kafka"));
    assert!(!r.hits.is_empty());
    let opts = SearchOptions {
        kind: Some("howto".into()),
        ..Default::default()
    };
    assert!(idx.search("commit", &opts).unwrap().hits.is_empty());
    let v = |s: &str| Some(("vvr".to_string(), Version::parse(s).unwrap()));
    let affected = idx
        .search(
            "CommitFailedException",
            &SearchOptions {
                version: v("8.0.7"),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(affected.hits[0].id, "kafka-commit-offsets");
    assert_eq!(affected.hits[0].fixed_in.as_deref(), Some("8.0.9"));
    let fixed = idx
        .search(
            "CommitFailedException",
            &SearchOptions {
                version: v("8.0.11"),
                ..Default::default()
            },
        )
        .unwrap();
    // Not hidden: listed after the entries that may apply, marked, with the fix it has.
    let last = fixed.hits.last().unwrap();
    assert_eq!(last.id, "kafka-commit-offsets");
    assert_eq!(last.version_match, Some(VersionMatch::Fixed));
    assert_eq!(last.fixed_in.as_deref(), Some("8.0.9"));
}

/// With a reader's version, the hits are the same as without one, in the same order, except
/// that entries which do not apply to that version move below the rest (order kept in both
/// groups) and every hit says how it relates to the version.
#[test]
fn a_version_demotes_and_marks_but_never_hides() {
    let mut docs = fixture();
    // Several version-bound entries that all match "SSL peer shut down", so both groups have
    // more than one member and the order inside each group is checked.
    for i in 0..6 {
        let mut e = entry(
            &format!("ssl-variant-{i}"),
            "mysql",
            &format!("SSL peer shut down incorrectly, variant {i}"),
            &["javax.net.ssl.SSLException: SSL peer shut down incorrectly"],
            &"The TLS handshake was cut by the server. ".repeat(i + 1),
            "",
        );
        e.versions = vec![VersionSpec {
            product: "vvr".into(),
            affected: Some(
                VersionRange::parse(if i % 2 == 0 { "<8.0.9" } else { ">=8.0.5" }).unwrap(),
            ),
            fixed: (i % 2 == 0).then(|| Version::parse("8.0.9").unwrap()),
        }];
        docs.push(e);
    }
    let idx = index_of(&docs);
    let q = "javax.net.ssl.SSLException: SSL peer shut down incorrectly handshake";
    let plain = idx
        .search(
            q,
            &SearchOptions {
                limit: 20,
                ..Default::default()
            },
        )
        .unwrap();
    assert!(plain.hits.len() >= 7, "{:?}", plain.hits);
    assert!(plain.hits.iter().all(|h| h.version_match.is_none()));
    // kafka-commit-offsets (">=8.0.5, <8.0.9", fixed 8.0.9) matches a little too.
    for (reader, expect_demoted) in [("8.0.11", 4), ("8.0.1", 4), ("8.0.7", 0)] {
        let opts = SearchOptions {
            limit: 20,
            version: Some(("vvr".into(), Version::parse(reader).unwrap())),
            ..Default::default()
        };
        let r = idx.search(q, &opts).unwrap();
        let ids =
            |hits: &[kbook_search::Hit]| hits.iter().map(|h| h.id.clone()).collect::<Vec<_>>();
        let applies = |h: &kbook_search::Hit| h.version_match.is_some_and(|m| m.applies());
        // Same set, and the order is the plain order stably partitioned.
        let expected: Vec<String> = {
            let (mut yes, no): (Vec<_>, Vec<_>) = r
                .hits
                .iter()
                .map(|h| {
                    (
                        plain.hits.iter().position(|p| p.id == h.id).unwrap(),
                        applies(h),
                    )
                })
                .partition(|(_, a)| *a);
            let mut no = no;
            yes.sort();
            no.sort();
            yes.into_iter()
                .chain(no)
                .map(|(i, _)| plain.hits[i].id.clone())
                .collect()
        };
        let mut sorted_plain = ids(&plain.hits);
        let mut sorted_got = ids(&r.hits);
        sorted_plain.sort();
        sorted_got.sort();
        assert_eq!(
            sorted_got, sorted_plain,
            "vvr {reader}: a hit was dropped or added"
        );
        assert_eq!(ids(&r.hits), expected, "vvr {reader}");
        assert_eq!(r.confident, plain.confident, "vvr {reader}");
        let demoted = r.hits.iter().filter(|h| !applies(h)).count();
        assert_eq!(demoted, expect_demoted, "vvr {reader}: {:?}", r.hits);
        let first_demoted = r
            .hits
            .iter()
            .position(|h| !applies(h))
            .unwrap_or(r.hits.len());
        assert!(
            r.hits[first_demoted..].iter().all(|h| !applies(h)),
            "vvr {reader}"
        );
        assert!(r.hits.iter().all(|h| h.version_match.is_some()));
        for h in &r.hits {
            let expect = match (h.id.strip_prefix("ssl-variant-"), reader) {
                (None, _) if h.id == "kafka-commit-offsets" => match reader {
                    "8.0.11" => VersionMatch::Fixed,
                    "8.0.1" => VersionMatch::NotAffected,
                    _ => VersionMatch::Affected,
                },
                (None, _) => VersionMatch::Unknown,
                (Some(n), "8.0.11") if n.parse::<usize>().unwrap() % 2 == 0 => VersionMatch::Fixed,
                (Some(_), "8.0.1" | "8.0.7") => {
                    if h.id.ends_with(['0', '2', '4']) || reader == "8.0.7" {
                        VersionMatch::Affected
                    } else {
                        VersionMatch::NotAffected
                    }
                }
                (Some(_), _) => VersionMatch::Affected,
            };
            assert_eq!(h.version_match, Some(expect), "{} at vvr {reader}", h.id);
        }
    }
}

#[test]
fn hostile_queries_never_fail() {
    let idx = open();
    let big = "Caused by: x ".repeat(80_000) + &"lorem ipsum ".repeat(10_000);
    let queries: Vec<String> = vec![
        "".into(),
        "   \n\t ".into(),
        "!!!???...,,,;;;".into(),
        "\"unbalanced quote".into(),
        "\"\"".into(),
        "title:foo body:\"bar\" AND OR NOT -x +y".into(),
        "[a TO b] {1 TO 5} [4019]".into(),
        "\u{0}\u{1}\u{7}\u{1b}[31mred\u{7f}".into(),
        "(((((((((".into(),
        "*:* ~2 ^3 foo~ bar^10".into(),
        big,
        "é漢字🙂".into(),
        String::from_utf8_lossy(&[0xff, 0xfe, b'a', 0xc3]).into_owned(),
    ];
    for q in &queries {
        let r = idx
            .search(
                q,
                &SearchOptions {
                    explain: true,
                    ..Default::default()
                },
            )
            .unwrap();
        assert!(r.hits.len() <= 10);
    }
    assert!(!idx.search("", &SearchOptions::default()).unwrap().confident);
}

#[test]
fn corrupt_or_truncated_indexes_are_errors() {
    let packed = build_packed_index(&fixture()).unwrap();
    assert!(BookIndex::open(Vec::new()).is_err());
    assert!(BookIndex::open(b"not an index at all, definitely not".to_vec()).is_err());
    for cut in [1, 8, 31, 32, 100, packed.len() / 2, packed.len() - 1] {
        assert!(
            BookIndex::open(packed[..cut].to_vec()).is_err(),
            "cut {cut}"
        );
    }
    for i in (0..packed.len()).step_by(97) {
        let mut bad = packed.clone();
        bad[i] ^= 0x5a;
        assert!(BookIndex::open(bad).is_err(), "flip {i}");
    }
}

fn top_with(idx: &BookIndex, q: &str, tuning: Tuning) -> Option<String> {
    let opts = SearchOptions {
        tuning,
        ..Default::default()
    };
    let r = idx.search(q, &opts).unwrap();
    r.hits.first().map(|h| h.id.clone())
}

/// The first hit for `q` is `on` with the shipped tuning and `off_top` with `off` (a part
/// switched off): the part decides the order.
fn assert_part_decides(idx: &BookIndex, q: &str, on: &str, off: Tuning, off_top: &str) {
    assert_eq!(top_with(idx, q, Tuning::default()).as_deref(), Some(on));
    assert_eq!(top_with(idx, q, off).as_deref(), Some(off_top));
}

/// The first hit's id and whether it is confident.
fn top_confident(idx: &BookIndex, q: &str, tuning: Tuning) -> (String, bool) {
    let opts = SearchOptions {
        tuning,
        ..Default::default()
    };
    let r = idx.search(q, &opts).unwrap();
    (r.hits[0].id.clone(), r.confident)
}

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

/// Two entries of one connector: one says the question in one symptom line, the other has
/// its words scattered over several.
fn symptom_docs() -> Vec<EntryDoc> {
    let mut one_line = entry(
        "queue-lag-reporting",
        "queue",
        "How the queue source reports its position",
        &[],
        "The source reports its position to the broker after each checkpoint.",
        "",
    );
    one_line.symptoms = vec![
        "consumer lag keeps growing although the job is not behind".into(),
        "position reported late".into(),
    ];
    let mut scattered = entry(
        "queue-slow-consumer",
        "queue",
        "When the queue source falls behind",
        &[],
        "A slow source falls behind the broker.",
        "",
    );
    scattered.symptoms = vec![
        "consumer is slow".into(),
        "lag alerts from the consumer".into(),
        "lag keeps growing every hour".into(),
        "the job keeps restarting".into(),
        "consumer lag in the dashboard".into(),
    ];
    let mut docs = vec![one_line, scattered];
    docs.extend(fillers(
        20,
        "queue",
        "Another queue question",
        "Something else about the queue.",
    ));
    docs
}

/// A question in the reader's words that one symptom line of an entry says whole outranks
/// an entry whose many symptom lines each share a word or two with it (BM25 over the lines
/// together prefers the repeated words).
#[test]
fn a_question_matching_one_symptom_line_wins() {
    let idx = index_of(&symptom_docs());
    let q = "consumer lag keeps growing but the job is not behind";
    let off = Tuning {
        symptom_weight: 0.0,
        ..Tuning::default()
    };
    assert_part_decides(&idx, q, "queue-lag-reporting", off, "queue-slow-consumer");
    // Explain names the line and its factor.
    let opts = SearchOptions {
        explain: true,
        ..Default::default()
    };
    let r = idx.search(q, &opts).unwrap();
    let explain = r.hits[0].explain.as_deref().unwrap_or("");
    assert!(
        explain.contains("symptom line  consumer lag keeps growing although the job is not behind"),
        "{explain}"
    );
}

/// A question with a question's punctuation (an aside in parentheses) is still typed words:
/// the parts for questions, such as symptom lines, apply to it.
#[test]
fn a_question_with_an_aside_in_parentheses_is_typed_words() {
    let idx = index_of(&symptom_docs());
    let q = "consumer lag keeps growing (the job is not behind)";
    let off = Tuning {
        punctuated_questions: false,
        ..Tuning::default()
    };
    assert_part_decides(&idx, q, "queue-lag-reporting", off, "queue-slow-consumer");
}

/// The error pasted alone is a confident answer; the same error quoted in a long question
/// about more than the error is not (see `Tuning::min_error_query_share`).
#[test]
fn a_long_question_quoting_an_error_is_not_a_confident_answer() {
    let mut docs = vec![entry(
        "pool-exhausted",
        "pool",
        "The pool sink fails: widget pool exhausted",
        &["Widget pool exhausted while allocating frames for the sink writer"],
        "Raise the widget pool size.",
        "",
    )];
    // The question's other words are the book's words, but not this entry's.
    docs.extend(fillers(
        10,
        "pool",
        "Another pool question",
        "The nightly job on the staging cluster restarted every worker twice, checked the \
         network and the disks, and still failed the same way every night around two in the \
         morning. What else could make it fail like this when it is already raised?",
    ));
    let idx = index_of(&docs);
    let error = "Widget pool exhausted while allocating frames for the sink writer";
    assert_eq!(
        top_confident(&idx, error, Tuning::default()),
        ("pool-exhausted".to_string(), true)
    );
    let question = format!(
        "The nightly job on the staging cluster failed with: {error}, and we already raised \
         the pool size as the docs suggest, restarted every worker twice, checked the network \
         and the disks, and it still fails the same way every night around two in the morning, \
         so what else could make the staging cluster fail like this when the pool size is \
         already raised and every worker was restarted twice"
    );
    assert_eq!(
        top_confident(&idx, &question, Tuning::default()),
        ("pool-exhausted".to_string(), false)
    );
    let off = Tuning {
        min_error_query_share: 0.0,
        ..Tuning::default()
    };
    assert_eq!(
        top_confident(&idx, &question, off),
        ("pool-exhausted".to_string(), true)
    );
}

/// The share rule is for the reader's sentences: one log record whose message goes on around
/// the error is the system's own line, and stays a confident answer; the same words typed
/// without the record's timestamp and level are a question about more than the error.
#[test]
fn a_log_record_around_an_error_is_not_a_question() {
    let mut docs = vec![entry(
        "pool-exhausted",
        "pool",
        "The pool sink fails: widget pool exhausted",
        &["Widget pool exhausted while allocating frames for the sink writer"],
        "Raise the widget pool size.",
        "",
    )];
    docs.extend(fillers(
        10,
        "pool",
        "Another pool question",
        "The nightly job on the staging cluster restarted every worker twice, checked the \
         network and the disks, and still failed the same way every night around two in the \
         morning after the backup window closed and the batch window opened.",
    ));
    let idx = index_of(&docs);
    let message = "The nightly job on the staging cluster restarted every worker twice, checked \
                   the network and the disks, and still failed the same way every night around \
                   two in the morning after the backup window closed and the batch window \
                   opened, every worker twice: Widget pool exhausted while allocating frames for \
                   the sink writer";
    let record = format!("2024-05-02 02:00:01,004 ERROR [worker-2] staging.Cluster - {message}");
    // The one line is nearly all this entry's words, which the other rule for one line
    // reads (`Tuning::word_confidence`); off, the share rule alone decides.
    let share_rule = || Tuning {
        word_confidence: false,
        ..Tuning::default()
    };
    assert_eq!(
        top_confident(&idx, &record, share_rule()),
        ("pool-exhausted".to_string(), true)
    );
    assert_eq!(
        top_confident(&idx, message, share_rule()),
        ("pool-exhausted".to_string(), false)
    );
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
        let opts = SearchOptions {
            tuning,
            explain: true,
            ..Default::default()
        };
        let r = idx.search("[Bug] Lake isn't writing data", &opts).unwrap();
        let hit = r.hits.iter().find(|h| h.id == "lake-materializer").unwrap();
        let explain = hit.explain.clone().unwrap_or_default();
        explain
            .lines()
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

/// The margin over the second hit is measured even when one hit is asked for: a tie is not
/// confident with one hit shown and unconfident with ten.
#[test]
fn one_hit_asked_for_still_measures_the_margin_over_the_second() {
    let docs = vec![
        entry(
            "sink-buffer-flush-rows",
            "tables",
            "Sink buffer flush rows and interval",
            &[],
            "How the sink buffers rows before a flush.",
            "",
        ),
        entry(
            "sink-buffer-flush-interval",
            "tables",
            "Sink buffer flush interval and rows",
            &[],
            "How long the sink buffers rows before a flush.",
            "",
        ),
        entry("other", "tables", "Something else", &[], "Unrelated.", ""),
    ];
    let idx = index_of(&docs);
    for q in [
        "sink buffer flush rows interval",
        "sink buffer flush interval",
        "something else",
    ] {
        let at = |limit: usize| {
            let opts = SearchOptions {
                limit,
                ..Default::default()
            };
            let r = idx.search(q, &opts).unwrap();
            (r.hits[0].id.clone(), r.confident, r.hits.len())
        };
        let (one, ten) = (at(1), at(10));
        assert_eq!((one.0.as_str(), one.1), (ten.0.as_str(), ten.1), "{q}");
        assert_eq!(one.2, 1, "{q}");
    }
    // Two entries in the same words: the first is not confident, however many are shown.
    let opts = SearchOptions {
        limit: 1,
        ..Default::default()
    };
    assert!(
        !idx.search("sink buffer flush rows interval", &opts)
            .unwrap()
            .confident
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

#[test]
fn last_word_matches_as_a_prefix() {
    let idx = open();
    // `rebal` is three edits from "rebalanced": only a prefix reaches it.
    assert_eq!(
        top_with(&idx, "rebal", Tuning::default()).as_deref(),
        Some("kafka-commit-offsets")
    );
    let off = Tuning {
        prefix_last_word: false,
        ..Tuning::default()
    };
    assert_eq!(top_with(&idx, "rebal", off), None);
    // A word followed by a space is finished.
    assert_eq!(top_with(&idx, "rebal ", Tuning::default()), None);
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

#[test]
fn a_misspelt_word_in_typed_words_still_finds_its_entry() {
    let docs = vec![
        entry(
            "no-ha",
            "general",
            "The job is gone after the JobManager fails: configure ZooKeeper high availability",
            &[],
            "Without high availability no standby JobManager takes over.",
            "",
        ),
        entry(
            "checkpoint-storage",
            "general",
            "Checkpoints vanish when the JobManager restarts",
            &[],
            "Checkpoint storage in JobManager memory is lost with it.",
            "",
        ),
        unrelated(),
    ];
    let idx = index_of(&docs);
    // `zookeper`: one letter missing; the other words are in both entries.
    let off = Tuning {
        typo_tolerance: false,
        ..Tuning::default()
    };
    assert_part_decides(
        &idx,
        "jobmanager zookeper",
        "no-ha",
        off.clone(),
        "checkpoint-storage",
    );
    // A typed question of any length, not only a few words typed so far.
    let question = "what should i set up so that the jobmanager comes back with zookeper";
    assert_part_decides(&idx, question, "no-ha", off, "checkpoint-storage");
}

#[test]
fn another_message_of_the_same_template_is_not_confident() {
    let docs = vec![
        entry(
            "four-byte-utf8",
            "mysql",
            "MySQL sink rejects emoji: Incorrect string value",
            &[
                "java.sql.BatchUpdateException: Incorrect string value: '\\xF0\\x9F\\x98\\x80' for column 'name' at row 1",
            ],
            "The column's character set is utf8, which holds no 4-byte characters.",
            "",
        ),
        // Makes the query's other words known to the book (confidence needs that).
        entry(
            "glossary",
            "logs",
            "Terms",
            &[],
            "Data truncation; datetime; operation_ts.",
            "",
        ),
    ];
    let idx = index_of(&docs);
    let confident = |q: &str, tuning: Tuning| top_confident(&idx, q, tuning);
    // MySQL's `Incorrect %s value` template: the tail is shared, the kind of value is not.
    let datetime = "java.sql.BatchUpdateException: Data truncation: Incorrect datetime value: \
                    '1970-01-01 00:00:00.0' for column 'operation_ts' at row 1";
    assert_eq!(
        confident(datetime, Tuning::default()),
        ("four-byte-utf8".to_string(), false)
    );
    let off = Tuning {
        no_divergence: false,
        ..Tuning::default()
    };
    assert_eq!(
        confident(datetime, off),
        ("four-byte-utf8".to_string(), true)
    );
    // The entry's own message stays confident.
    let string = "java.sql.BatchUpdateException: Incorrect string value: '\\xF0\\x9F\\x98\\x80' \
                  for column 'name' at row 1";
    assert_eq!(
        confident(string, Tuning::default()),
        ("four-byte-utf8".to_string(), true)
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

/// A reader may write a compound apart or together where the book does the other: typed
/// words also search the book's spelling.
#[test]
fn a_compound_spelt_the_other_way_finds_the_book_s_spelling() {
    let docs = vec![
        entry(
            "failover",
            "db",
            "What the job does on a failover of the instance",
            &[],
            "The job reconnects after the failover completes.",
            "",
        ),
        entry(
            "instance-restart",
            "db",
            "The instance restarts and the job does not reconnect",
            &[],
            "Restart the job when the instance is back.",
            "",
        ),
        entry(
            "bulk-indexer",
            "search",
            "Settings of the bulk indexer",
            &[],
            "The bulk indexer flushes every second.",
            "",
        ),
        entry(
            "index-settings",
            "search",
            "Index settings",
            &[],
            "Settings of an index: shards and replicas.",
            "",
        ),
    ];
    let idx = index_of(&docs);
    let off = Tuning {
        compounds: false,
        ..Tuning::default()
    };
    // Apart in the query, one word in the book.
    assert_part_decides(
        &idx,
        "will the job reconnect after a fail over of the instance",
        "failover",
        off.clone(),
        "instance-restart",
    );
    // One word in the query, apart in the book.
    assert_part_decides(
        &idx,
        "bulkindexer settings",
        "bulk-indexer",
        off,
        "index-settings",
    );
}

#[test]
fn chinese_question_words_do_not_pick_the_entry() {
    let docs = vec![
        entry(
            "howto-json",
            "topics",
            "如何读取嵌套的 JSON 消息，是否需要声明",
            &[],
            "如何声明：按字段声明嵌套的结构即可，是否嵌套都可以。",
            "",
        ),
        entry(
            "partitions-added",
            "topics",
            "主题变多后作业重新分配",
            &[],
            "作业按间隔发现新分区，再把分区分给读取任务。",
            "",
        ),
        entry("other", "logs", "权限不足", &[], "授予读取权限。", ""),
    ];
    let idx = index_of(&docs);
    // Only question words are shared with the first entry; 分区 with the second.
    let q = "如何是否分区的";
    let off = Tuning {
        stopwords: false,
        ..Tuning::default()
    };
    assert_part_decides(&idx, q, "partitions-added", off, "howto-json");
}

#[test]
fn one_line_in_the_entrys_own_words_is_confident() {
    let idx = open();
    let confident = |q: &str, tuning: Tuning| top_confident(&idx, q, tuning);
    let q = "offsets are not committed to kafka on checkpoints";
    assert_eq!(
        confident(q, Tuning::default()),
        ("kafka-commit-offsets".to_string(), true)
    );
    let off = Tuning {
        word_confidence: false,
        ..Tuning::default()
    };
    assert_eq!(
        confident(q, off),
        ("kafka-commit-offsets".to_string(), false)
    );
    // Several lines are a paste: only a documented error text they repeat gives confidence.
    assert_eq!(
        confident(
            "offsets are not committed\nto kafka on checkpoints",
            Tuning::default()
        ),
        ("kafka-commit-offsets".to_string(), false)
    );
    // Words from outside the book: not confident.
    assert!(
        !confident(
            "offsets not committed zxqv wplm trrk bnnq",
            Tuning::default()
        )
        .1
    );
}

#[test]
fn the_same_message_template_with_another_outcome_moves_down() {
    let docs = vec![
        entry(
            "int-to-long",
            "holo",
            "Integer cannot be cast to Long when a job reads the table",
            &["java.lang.ClassCastException: java.lang.Integer cannot be cast to java.lang.Long"],
            "The table declares BIGINT where the source holds INT.",
            "",
        ),
        entry(
            "long-to-int",
            "mysql",
            "ClassCastException java.lang.Long cannot be cast to java.lang.Integer: unsigned INT",
            &[],
            "An unsigned INT arrives as a Java Long; declared as INT it fails with \
             java.lang.ClassCastException: java.lang.Long cannot be cast to java.lang.Integer.",
            "",
        ),
        unrelated(),
    ];
    let idx = index_of(&docs);
    let q = "java.lang.ClassCastException: java.lang.Long cannot be cast to java.lang.Integer";
    let off = Tuning {
        diverge_penalty: 1.0,
        ..Tuning::default()
    };
    assert_part_decides(&idx, q, "long-to-int", off, "int-to-long");
    // The entry's own message still finds it first.
    let own = "java.lang.ClassCastException: java.lang.Integer cannot be cast to java.lang.Long";
    assert_eq!(
        top_with(&idx, own, Tuning::default()).as_deref(),
        Some("int-to-long")
    );
}

#[test]
fn one_word_of_an_error_text_weighs_less_than_the_error_repeated() {
    let docs = vec![
        entry(
            "driver-missing",
            "custom",
            "Custom connector cannot load its JDBC driver",
            &["Failed to get driver instance for jdbcUrl="],
            "The driver jar is not on the class path of the connector.",
            "",
        ),
        entry(
            "link-failure",
            "db",
            "The server stops answering: communications link failure",
            &[],
            "A network problem: packets sent, none came back from the server.",
            "",
        ),
        unrelated(),
    ];
    let idx = index_of(&docs);
    let q = "The last packet sent successfully to the server was 0 milliseconds ago. \
             The driver has not received any packets from the server.\n\
             \tat com.mysql.cj.jdbc.ConnectionImpl.createNewIO(ConnectionImpl.java:819)";
    let off = Tuning {
        sig_cover_weight: 0.0,
        ..Tuning::default()
    };
    assert_part_decides(&idx, q, "link-failure", off, "driver-missing");
    // The error text repeated still finds its entry.
    let own =
        "java.sql.SQLException: Failed to get driver instance for jdbcUrl=jdbc:mysql://db:3306/x";
    assert_eq!(
        top_with(&idx, own, Tuning::default()).as_deref(),
        Some("driver-missing")
    );
}

#[test]
fn the_parts_of_one_identifier_are_one_words_evidence() {
    // `MongoDB` is also mongo and db: without grouping, a page titled just `MongoDB` gets
    // the one query word three times over.
    let docs = vec![
        entry(
            "docs-page",
            "mongodb",
            "MongoDB",
            &[],
            "Options of the MongoDB source and how to set up MongoDB.",
            "",
        ),
        entry(
            "versions",
            "mongodb",
            "Which server versions the source can read",
            &[],
            "The change stream source supports servers from version 3.6 on; MongoDB 4.0 or \
             later is advised.",
            "",
        ),
        unrelated(),
    ];
    let idx = index_of(&docs);
    let q = "MongoDB 6.0 supported versions";
    let off = Tuning {
        part_groups: false,
        ..Tuning::default()
    };
    assert_part_decides(&idx, q, "versions", off, "docs-page");
}

#[test]
fn a_word_once_in_a_long_page_covers_less_than_in_a_short_entry() {
    // A long guide mentions every word of the question once; a short entry has most of
    // them. Counting a word as covered however weakly it matches lifts the guide.
    let filler =
        "The source reads the tables of the database and writes them downstream. ".repeat(64);
    let long = format!(
        "{filler}Each job creates a replication slot. {filler}A job may restart from a \
         checkpoint. {filler}A slot stays active while a job reads it. {filler}Monitor the lag."
    );
    let docs = vec![
        entry("guide", "postgres", "Postgres source guide", &[], &long, ""),
        entry(
            "slot-active",
            "postgres",
            "Another job holds it",
            &[],
            "The replication slot is still active: another job reads it. Stop that job, or give \
             this one a slot name of its own.",
            "",
        ),
        unrelated(),
    ];
    let idx = index_of(&docs);
    let q = "replication slot still active after restart from checkpoint";
    let off = Tuning {
        soft_coverage: false,
        ..Tuning::default()
    };
    assert_part_decides(&idx, q, "slot-active", off, "guide");
}

#[test]
fn a_page_many_times_longer_than_the_rest_weighs_less() {
    // A reference page many times longer than the book's entries (thirty short ones) mentions
    // the question's words here and there; the short entry about the question has them too.
    let para = "The source reads snapshot splits in parallel, then follows the binlog from the \
                offset the snapshot ended at; each reader keeps its own server id. ";
    let long = format!(
        "{}The server time zone must match the database; timestamps are converted with it. {}",
        para.repeat(30),
        para.repeat(30)
    );
    let mut docs = vec![
        entry("reference", "mysql", "MySQL source", &[], &long, ""),
        entry(
            "time-zone",
            "mysql",
            "Timestamps are eight hours off",
            &[],
            "Set the server time zone option to the database's zone.",
            "",
        ),
        unrelated(),
    ];
    for i in 0..30 {
        docs.push(entry(
            &format!("filler-{i}"),
            "logs",
            "Grant the role",
            &[],
            "Ask an administrator for the missing grant.",
            "",
        ));
    }
    let idx = index_of(&docs);
    let q = "mysql source timestamps wrong with server time zone in binlog phase";
    let off = Tuning {
        long_page_damping: 0.0,
        ..Tuning::default()
    };
    assert_part_decides(&idx, q, "time-zone", off, "reference");
}

#[test]
fn the_readers_lead_in_neither_outranks_nor_unsettles_the_pasted_error() {
    let docs = vec![
        entry(
            "job-fails-later",
            "general",
            "作业运行一段时间后报错怎么办",
            &[],
            "作业运行一段时间后报错时，先看日志里最早的异常，再看检查点和反压。",
            "",
        ),
        entry(
            "deadlock",
            "mysql",
            "MySQL sink writes fail with a deadlock",
            &["Deadlock found when trying to get lock; try restarting transaction"],
            "Concurrent writers lock the same index ranges in different orders.",
            "",
        ),
        unrelated(),
    ];
    let idx = index_of(&docs);
    let paste = "Deadlock found when trying to get lock; try restarting transaction";
    let q = format!("作业运行一段时间后报错，请问怎么解决？\n{paste}");
    assert_lead_in_is_the_readers(&idx, paste, &q);
}

/// The paste alone is a confident answer for `deadlock`; the reader's sentence before it (in
/// `q`) changes neither the first hit nor its confidence, unless its words are taken for the
/// paste's (the part switched off).
fn assert_lead_in_is_the_readers(idx: &BookIndex, paste: &str, q: &str) {
    let off = Tuning {
        reader_prose: false,
        ..Tuning::default()
    };
    let right = ("deadlock".to_string(), true);
    assert_eq!(top_confident(idx, paste, Tuning::default()), right);
    assert_eq!(top_confident(idx, q, Tuning::default()), right);
    assert_ne!(top_confident(idx, q, off), right);
}

#[test]
fn the_readers_english_lead_in_neither_outranks_nor_unsettles_the_pasted_error() {
    let docs = vec![
        entry(
            "restarts-after-upgrade",
            "general",
            "The job keeps restarting after an upgrade",
            &[],
            "After an upgrade the job restarts again and again: compare the state of last week.",
            "",
        ),
        entry(
            "deadlock",
            "mysql",
            "MySQL sink writes fail with a deadlock",
            &["Deadlock found when trying to get lock; try restarting transaction"],
            "Concurrent writers lock the same index ranges in different orders; the driver reports a java.sql.SQLException.",
            "",
        ),
        unrelated(),
    ];
    let idx = index_of(&docs);
    let paste =
        "java.sql.SQLException: Deadlock found when trying to get lock; try restarting transaction";
    // Its words are not the book's: taken for the paste's, they would unsettle the answer.
    let q =
        format!("Hi team, since our rollout on Tuesday we see crashes constantly. Log:\n{paste}");
    assert_lead_in_is_the_readers(&idx, paste, &q);
}

/// Tags hold the readers' words for a problem (symptoms): evidence for a typed question, weak
/// evidence for a pasted message, which the entry that explains it has in its text.
#[test]
fn a_paste_weighs_the_readers_words_less_than_a_question_does() {
    let mut files_gone = entry(
        "lake-files-gone",
        "lake",
        "Reading a table after its old snapshots expired",
        &[],
        "Old snapshots expire and their data files are removed; a reader still on them fails.",
        "",
    );
    files_gone.tags = vec!["data file deleted that was never added".into()];
    let docs = vec![
        files_gone,
        entry(
            "lake-commit-conflict",
            "lake",
            "Two writers commit to one table",
            &[],
            "Two jobs commit to one table: one deletes a file that the other job added.",
            "",
        ),
        unrelated(),
    ];
    let idx = index_of(&docs);
    let paste = "Caused by: java.lang.IllegalStateException: Trying to delete file part-0.orc \
                 which is not previously added.";
    let off = Tuning {
        paste_tags_factor: 1.0,
        ..Tuning::default()
    };
    assert_part_decides(&idx, paste, "lake-commit-conflict", off, "lake-files-gone");
    // A question in the readers' words still finds the entry whose symptoms they are.
    assert_eq!(
        top_with(
            &idx,
            "data file deleted that was never added",
            Tuning::default()
        )
        .as_deref(),
        Some("lake-files-gone")
    );
}

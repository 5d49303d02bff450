//! When the first hit is confident: the error repeated and its share of a line, a log
//! record, the margin over the second hit, the same template, one line in the entry's words.

use super::*;

/// The error of the pool entry, pasted.
const POOL_ERROR: &str = "Widget pool exhausted while allocating frames for the sink writer";

/// One entry documenting [`POOL_ERROR`] beside ten of the same connector whose body is
/// `filler`.
fn pool_docs(filler: &str) -> Vec<EntryDoc> {
    let mut docs = vec![entry(
        "pool-exhausted",
        "pool",
        "The pool sink fails: widget pool exhausted",
        &[POOL_ERROR],
        "Raise the widget pool size.",
        "",
    )];
    docs.extend(fillers(10, "pool", "Another pool question", filler));
    docs
}

fn pool_book(filler: &str) -> BookIndex {
    index_of(&pool_docs(filler))
}

/// The error pasted alone is a confident answer; the same error quoted in a long question
/// about more than the error is not (see `Tuning::min_error_query_share`).
#[test]
fn a_long_question_quoting_an_error_is_not_a_confident_answer() {
    // The question's other words are the book's words, but not this entry's.
    let idx = pool_book(
        "The nightly job on the staging cluster restarted every worker twice, checked the \
         network and the disks, and still failed the same way every night around two in the \
         morning. What else could make it fail like this when it is already raised?",
    );
    let error = POOL_ERROR;
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
    let idx = pool_book(
        "The nightly job on the staging cluster restarted every worker twice, checked the \
         network and the disks, and still failed the same way every night around two in the \
         morning after the backup window closed and the batch window opened.",
    );
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

/// Confidence speaks of the first hit shown: when the reader's version moves the confident
/// match below an entry that applies, the search is no longer confident; with a version the
/// match applies to, or none, it is.
#[test]
fn a_version_that_moves_the_match_down_drops_confidence() {
    let mut docs = pool_docs("The widget pool sink.");
    docs[0].versions = vec![VersionSpec {
        product: "vvr".into(),
        affected: Some(VersionRange::parse("<8.0.9").unwrap()),
        fixed: Some(Version::parse("8.0.9").unwrap()),
    }];
    let idx = index_of(&docs);
    let search = |version: Option<&str>| {
        let opts = SearchOptions {
            version: version.map(|v| ("vvr".to_string(), Version::parse(v).unwrap())),
            ..Default::default()
        };
        let r = idx.search(POOL_ERROR, &opts).unwrap();
        (r.hits[0].id.clone(), r.confident)
    };
    assert_eq!(search(None), ("pool-exhausted".to_string(), true));
    assert_eq!(search(Some("8.0.7")), ("pool-exhausted".to_string(), true));
    let (first, confident) = search(Some("8.0.11"));
    assert_ne!(first, "pool-exhausted");
    assert!(!confident);
}

/// A trace's frames in the Java runtime (reflection, threads) are every Java program's: they
/// do not make the paste mostly words the book lacks, while the frames of the program that
/// printed it still do (see `Tuning::runtime_frames`).
#[test]
fn the_java_runtime_s_frames_are_not_words_the_book_lacks() {
    let idx = pool_book("Something else about the pool.");
    let runtime = "\tat sun.reflect.NativeConstructorAccessorImpl.newInstance0(Native Method)\n\
        \tat sun.reflect.NativeConstructorAccessorImpl.newInstance(NativeConstructorAccessorImpl.java:62)\n\
        \tat sun.reflect.DelegatingConstructorAccessorImpl.newInstance(DelegatingConstructorAccessorImpl.java:45)\n\
        \tat java.lang.reflect.Constructor.newInstance(Constructor.java:423)\n\
        \tat java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)\n\
        \tat java.lang.Thread.run(Thread.java:748)";
    let trace = format!("{POOL_ERROR}\n{runtime}");
    let off = Tuning {
        runtime_frames: false,
        ..Tuning::default()
    };
    assert_part_gives_confidence(&idx, &trace, "pool-exhausted", off);
    // The same frames in another program's code: that program is not one the book knows.
    let own = runtime
        .replace("sun.reflect.", "com.acme.billing.")
        .replace("java.lang.reflect.", "com.acme.billing.")
        .replace("java.util.concurrent.", "com.acme.billing.")
        .replace("java.lang.", "com.acme.billing.");
    let other = format!("{POOL_ERROR}\n{own}");
    assert_eq!(
        top_confident(&idx, &other, Tuning::default()),
        ("pool-exhausted".to_string(), false)
    );
}

/// An entry of a section for every connector (failover, drivers) answers a query that names
/// another connector: the names of the query's own system do not disagree with it. The
/// section's slug is no connector's name either (`General error`). See
/// `Tuning::cross_connector`.
#[test]
fn an_entry_for_every_connector_agrees_with_any_connector_named() {
    const DRIVER_ERROR: &str = "Widget driver vanished from the loader before the first frame";
    let docs = |cross: bool| {
        let mut docs = vec![EntryDoc {
            cross_connector: cross,
            ..entry(
                "driver-vanished",
                "general",
                "A driver vanishes from the loader",
                &[DRIVER_ERROR],
                "Put the driver jar beside the job jar.",
                "",
            )
        }];
        docs.extend(fillers(
            6,
            "general",
            "Another failover question",
            "Restart it.",
        ));
        docs.extend(fillers(
            6,
            "kafka",
            "A Kafka question",
            "Kafka offsets and topics.",
        ));
        docs
    };
    let named = format!("kafka source: {DRIVER_ERROR}");
    let off = Tuning {
        cross_connector: false,
        ..Tuning::default()
    };
    assert_part_gives_confidence(
        &index_of(&docs(true)),
        &named,
        "driver-vanished",
        off.clone(),
    );
    // A section of one connector's entries still disagrees.
    assert_eq!(
        top_confident(&index_of(&docs(false)), &named, Tuning::default()),
        ("driver-vanished".to_string(), false)
    );

    // `general` in a message is a word, not the section: a Kafka entry's error still answers.
    let mut docs = docs(true);
    docs.push(entry(
        "kafka-lost",
        "kafka",
        "Kafka records go missing",
        &["Widget records lost between the broker and the frame writer"],
        "Check acks.",
        "",
    ));
    let idx = index_of(&docs);
    let q = "General error: Widget records lost between the broker and the frame writer";
    assert_part_gives_confidence(&idx, q, "kafka-lost", off);
}

/// Words a paste shares with an error text across the text's sentence end, where the paste
/// goes on in one sentence, are another message (see `Tuning::sentence_ends`); the message
/// itself, with its own sentence end, is still a confident answer.
#[test]
fn a_run_across_a_sentence_end_is_another_message() {
    let mut docs = vec![entry(
        "gauge-range",
        "gauge",
        "Gauge reader fails: value out of range",
        &["Value out of range. Value:"],
        "Use a wider type.",
        "",
    )];
    docs.extend(fillers(
        10,
        "gauge",
        "Another gauge question",
        "Tune the reader when a column of a row shows an error.",
    ));
    let idx = index_of(&docs);
    // In so small a book the line is also nearly all the entry's words, which the other rule
    // for one line reads (`Tuning::word_confidence`); off, the repeated error alone decides.
    let on = || Tuning {
        word_confidence: false,
        ..Tuning::default()
    };
    let other = "Error 1264 (22003): Out of range value for column 'me' at row 1";
    assert_eq!(
        top_confident(&idx, other, on()),
        ("gauge-range".to_string(), false)
    );
    let off = Tuning {
        sentence_ends: false,
        ..on()
    };
    assert_eq!(
        top_confident(&idx, other, off),
        ("gauge-range".to_string(), true)
    );
    assert_eq!(
        top_confident(
            &idx,
            "Value out of range. Value: 2147483648",
            Tuning::default()
        ),
        ("gauge-range".to_string(), true)
    );
}

/// A message of three words keeps its class (`java.net.SocketTimeoutException: Read timed
/// out`): pasted with the class, in a trace, it repeats the whole error; with another class
/// only its three words.
#[test]
fn a_three_word_message_repeated_with_its_class_is_confident() {
    let mut docs = vec![entry(
        "read-timeout",
        "pool",
        "Reads from the pool time out",
        &["java.net.SocketTimeoutException: Read timed out"],
        "The pool did not answer within the socket timeout.",
        "",
    )];
    docs.extend(fillers(
        10,
        "pool",
        "Another pool question",
        "Something else.",
    ));
    let idx = index_of(&docs);
    let trace = "Caused by: java.net.SocketTimeoutException: Read timed out\n\
        \tat java.net.SocketInputStream.socketRead0(Native Method)\n\
        \tat java.net.SocketInputStream.read(SocketInputStream.java:150)";
    assert_eq!(
        top_confident(&idx, trace, Tuning::default()),
        ("read-timeout".to_string(), true)
    );
    let other = "Caused by: java.io.InterruptedIOException: Read timed out\n\
        \tat java.net.SocketInputStream.socketRead0(Native Method)";
    assert_eq!(
        top_confident(&idx, other, Tuning::default()),
        ("read-timeout".to_string(), false)
    );
}

//! Pasted errors and traces: the message over its template's other outcomes, one word of an
//! error text against the error repeated, identifiers, and long pages.

use super::*;

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

/// `The MySQL server has …` holds no phrase `sql server`: the piece of a compound next to the
/// following word is no pair, so the product `SQL Server` gains nothing from it; whole words
/// written apart still pair.
#[test]
fn a_piece_of_a_compound_pairs_with_no_other_word() {
    let mut docs = vec![entry(
        "sql-server",
        "sqlserver",
        "SQL Server",
        &[],
        "Reading change data from SQL Server.",
        "",
    )];
    docs.extend(fillers(
        20,
        "other",
        "Another connector topic",
        "Something else.",
    ));
    let idx = index_of(&docs);
    let title_pairs = |q: &str| {
        explain_lines(&idx, q, Tuning::default(), "sql-server")
            .into_iter()
            .filter(|l| l.contains("title pair"))
            .collect::<Vec<_>>()
    };
    let timezone = "offset which does not match the configured timezone";
    assert!(title_pairs(&format!("The MySQL server has a timezone {timezone}")).is_empty());
    let whole = title_pairs(&format!("The SQL Server has a timezone {timezone}"));
    assert!(
        whole.iter().any(|l| l.contains("\"sql server\"")),
        "{whole:?}"
    );
}

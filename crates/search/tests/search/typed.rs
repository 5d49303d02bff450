//! Typed words and the reader's words: symptom lines, questions, prefixes and typos,
//! compounds, Chinese question words, and a reader's lead-in around a paste.

use super::*;

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
        off.clone(),
        "index-settings",
    );
}

/// A reader writes the release against the name (`kafka10Reader`, `flink1.13`): the name the
/// book has is still searched.
#[test]
fn a_name_with_a_release_glued_to_it_finds_the_name() {
    let mut docs = vec![
        entry(
            "queue-no-data",
            "queue",
            "The queue source reads nothing",
            &[],
            "Check the broker address and the start position.",
            "",
        ),
        entry(
            "session-restart",
            "general",
            "Nothing comes back after a restart",
            &[],
            "A session cluster keeps no job after a restart without high availability.",
            "",
        ),
    ];
    docs.extend(fillers(
        10,
        "other",
        "Another connector topic",
        "Something else.",
    ));
    let idx = index_of(&docs);
    let off = Tuning {
        compounds: false,
        ..Tuning::default()
    };
    assert_part_decides(
        &idx,
        "queue10Reader reads nothing after a restart",
        "queue-no-data",
        off.clone(),
        "session-restart",
    );
    assert_part_decides(
        &idx,
        "Queue2.1 reads nothing after a restart",
        "queue-no-data",
        off,
        "session-restart",
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

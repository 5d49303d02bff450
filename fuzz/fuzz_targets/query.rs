//! The query side: the paste splitter, every analyzer, and the query builder with filters,
//! run against a small fixed index. Any text is a valid query.
#![no_main]

use kbook_search::analysis::Analyzer;
use kbook_search::{BookIndex, EntryDoc, SearchOptions, analyze, paste::split_paste};
use libfuzzer_sys::fuzz_target;

#[path = "shared/snippet_bounds.rs"]
mod snippet_bounds;
use std::sync::OnceLock;

fn index() -> &'static BookIndex {
    static I: OnceLock<BookIndex> = OnceLock::new();
    I.get_or_init(|| {
        let docs = vec![
            EntryDoc {
                id: "kafka-offsets".into(),
                url: "kafka/kafka-offsets.html".into(),
                title: "Committing offsets fails".into(),
                connector: "kafka".into(),
                connector_aliases: Vec::new(),
                cross_connector: false,
                kind: "error".into(),
                errors: vec!["org.apache.kafka.clients.consumer.CommitFailedException: Commit cannot be completed since the group has already rebalanced".into()],
                generic_errors: Vec::new(),
                body: "The consumer group rebalanced because max.poll.interval.ms=300000 was exceeded.".into(),
                code: "props.put(\"max.poll.records\", 500);".into(),
                tags: vec!["consumer".into()],
                symptoms: vec!["consumer lag keeps growing".into(), "偏移量不提交".into()],
                versions: Vec::new(),
            },
            EntryDoc {
                id: "jdbc-batch".into(),
                url: "mysql/jdbc-batch.html".into(),
                title: "Batch insert fails on duplicate key".into(),
                connector: "mysql".into(),
                connector_aliases: Vec::new(),
                cross_connector: false,
                kind: "error".into(),
                errors: vec!["java.sql.BatchUpdateException: Duplicate entry '42' for key 'PRIMARY'".into(), "[4019] unbalanced quotes at 10.0.0.1".into()],
                generic_errors: Vec::new(),
                body: "A primary key conflict in the sink table.".into(),
                code: String::new(),
                tags: vec!["sink".into(), "sql".into()],
                symptoms: Vec::new(),
                versions: Vec::new(),
            },
        ];
        let packed = kbook_search::build_packed_index(&docs).expect("fixed index builds");
        BookIndex::open(packed).expect("fixed index opens")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let q = String::from_utf8_lossy(rest);
    let paste = split_paste(&q);
    if let Some(i) = paste.root_cause {
        assert!(i < paste.lines.len());
    }
    for a in [
        Analyzer::Prose,
        Analyzer::Code,
        Analyzer::Sig,
        Analyzer::Ident,
    ] {
        let _ = analyze(&q, a);
    }
    let mut opts = SearchOptions {
        limit: usize::from(flags >> 4),
        explain: flags & 1 != 0,
        ..SearchOptions::default()
    };
    if flags & 2 != 0 {
        opts.connector = Some("kafka".into());
    }
    if flags & 4 != 0 {
        opts.kind = Some("ERROR".into());
    }
    if flags & 8 != 0 {
        opts.version = kbook_search::version::parse_product_version("vvr=8.0.7").ok();
    }
    let results = index()
        .search(&q, &opts)
        .expect("searching a valid index never fails");
    snippet_bounds::assert_highlights_in_snippets(&results);
});

use super::stem::{STEM_CACHE_ENTRIES, STEM_CACHE_WORD_BYTES};
use super::*;
use tantivy::tokenizer::{TokenStream, Tokenizer};

fn texts(s: &str, a: Analyzer) -> Vec<String> {
    analyze(s, a).into_iter().map(|t| t.text).collect()
}

#[test]
fn splits_camel_case_and_keeps_whole() {
    let t = texts("BatchUpdateException", Analyzer::Code);
    assert_eq!(
        t,
        vec!["batch", "update", "exception", "batchupdateexception"]
    );
    assert_eq!(
        analyze_parts("HTTPServerError S3Client", Analyzer::Code),
        vec!["http", "server", "error", "s3", "client"]
    );
}

#[test]
fn splits_dotted_snake_kebab_and_colon() {
    let t = texts("com.mysql.cj.jdbc", Analyzer::Code);
    assert_eq!(t, vec!["com", "mysql", "cj", "jdbc", "com.mysql.cj.jdbc"]);
    let t = texts("dhs:ListShard", Analyzer::Code);
    assert!(t.contains(&"dhs:listshard".to_string()));
    assert!(t.contains(&"listshard".to_string()));
    assert!(t.contains(&"list".to_string()) && t.contains(&"shard".to_string()));
    assert_eq!(
        analyze_parts("MAX_POLL_RECORDS upsert-kafka", Analyzer::Code),
        vec!["max", "poll", "records", "upsert", "kafka"]
    );
    assert!(texts("MAX_POLL_RECORDS", Analyzer::Code).contains(&"max_poll_records".to_string()));
}

#[test]
fn positions_are_consecutive_over_parts() {
    let toks = analyze("BatchUpdateException: Duplicate entry", Analyzer::Code);
    let p: Vec<(String, usize)> = toks
        .iter()
        .filter(|t| t.part)
        .map(|t| (t.text.clone(), t.pos))
        .collect();
    assert_eq!(
        p.iter().map(|x| x.1).collect::<Vec<_>>(),
        vec![0, 1, 2, 3, 4]
    );
    let whole = toks
        .iter()
        .find(|t| t.text == "batchupdateexception")
        .unwrap();
    assert_eq!(whole.pos, 0);
    assert_eq!(
        &"BatchUpdateException: Duplicate entry"[whole.from..whole.to],
        "BatchUpdateException"
    );
}

#[test]
fn masks_values_in_signatures() {
    let t = analyze_parts(
        "Connection to 10.0.0.12:9092 failed after 3000 ms, id 123e4567-e89b-12d3-a456-426614174000 at 0xdeadbeef in '/tmp/x' file /var/lib/a.jar",
        Analyzer::Sig,
    );
    assert_eq!(
        t,
        vec![
            "connection",
            "to",
            "§ip",
            "failed",
            "after",
            "§num",
            "ms",
            "id",
            "§uuid",
            "at",
            "§hex",
            "in",
            "§str",
            "file",
            "§path"
        ]
    );
    let esc = analyze_parts(
        r"Incorrect string value: '\xF0\x9F\x98\x80' for column",
        Analyzer::Sig,
    );
    assert_eq!(
        esc,
        vec!["incorrect", "string", "value", "§str", "for", "column"]
    );
    let esc = analyze_parts(r"value \xF0\x9F\x98 for", Analyzer::Sig);
    assert_eq!(esc, vec!["value", "§hex", "for"]);
    // Same masking on both sides: different values, same tokens.
    assert_eq!(
        analyze_parts("timeout after 30000 ms", Analyzer::Sig),
        analyze_parts("timeout after 60000 ms", Analyzer::Sig)
    );
    // Apostrophes inside words are not quotes (and a contraction's suffix is no word).
    assert_eq!(
        analyze_parts("doesn't exist", Analyzer::Sig),
        vec!["doesn", "exist"]
    );
}

#[test]
fn ident_keeps_codes_and_identifiers_only() {
    let t = texts(
        "ErrorMessage=Authorization Failed [4019], You have NO privilege'ODPS:***' ODPS-0130071 at line 12",
        Analyzer::Ident,
    );
    assert!(t.contains(&"errormessage".to_string()));
    assert!(t.contains(&"4019".to_string()));
    assert!(t.contains(&"odps-0130071".to_string()));
    assert!(t.contains(&"0130071".to_string()));
    assert!(t.contains(&"no".to_string()));
    assert!(!t.contains(&"failed".to_string()));
    assert!(!t.contains(&"12".to_string()));
    let t = texts(
        "org.apache.kafka.common.errors.TimeoutException",
        Analyzer::Ident,
    );
    assert_eq!(
        t,
        vec![
            "org.apache.kafka.common.errors.timeoutexception",
            "timeoutexception"
        ]
    );
}

#[test]
fn whole_camel_case_word_is_normalised_like_a_typed_word() {
    // A title's `ClickHouse` must meet a typed `clickhouse`, which prose analysis stems.
    for (written, typed) in [("ClickHouse", "clickhouse"), ("OceanBase", "oceanbase")] {
        let typed = texts(typed, Analyzer::Prose);
        assert_eq!(typed.len(), 1);
        assert!(
            texts(written, Analyzer::Prose).contains(&typed[0]),
            "{written} vs {typed:?}"
        );
    }
    // Code keeps identifiers verbatim.
    assert!(texts("ClickHouse", Analyzer::Code).contains(&"clickhouse".to_string()));
}

#[test]
fn prose_stems_plain_words_only() {
    let t = analyze_parts("Connections failing repeatedly", Analyzer::Prose);
    assert_eq!(t, vec!["connect", "fail", "repeat"]);
    // The whole identifier is kept, normalised as the same word typed in lowercase.
    let whole = texts("batchupdateexception", Analyzer::Prose);
    assert!(texts("BatchUpdateException", Analyzer::Prose).contains(&whole[0]));
}

#[test]
fn token_stream_is_the_analysis_sorted_by_position() {
    // (CJK runs differ: see `the_index_holds_a_cjk_runs_last_character_alone…`.)
    // Parts over MAX_PART_CHARS are skipped, so a segment's whole form can sit at the
    // position of the next chunk's first part: the stream must order those exactly as a
    // stable sort by (position, !part) of the analysis does.
    let long = format!("A{}", "a".repeat(45));
    let inputs = [
        "BatchUpdateException: Duplicate entry com.mysql.cj.jdbc".to_string(),
        format!("{long}{long} next"),
        format!("x.{long}Foo.y z {long}{long}.Bar"),
        "HTTPServerError S3Client dhs:ListShard MAX_POLL_RECORDS".to_string(),
        r"Connection to 10.0.0.12:9092 failed 'x' \xF0\x9F at a.b.c:12".to_string(),
    ];
    for s in &inputs {
        for a in Analyzer::ALL {
            let mut expected = analyze(s, a);
            expected.sort_by_key(|t| (t.pos, !t.part));
            let expected: Vec<_> = expected
                .into_iter()
                .map(|t| (t.text, t.from, t.to, t.pos))
                .collect();
            let mut tokenizer = KbTokenizer(a);
            let mut stream = tokenizer.token_stream(s);
            let mut got = Vec::new();
            while stream.advance() {
                let t = stream.token();
                assert_eq!(t.position_length, 1);
                got.push((t.text.clone(), t.offset_from, t.offset_to, t.position));
            }
            assert_eq!(got, expected, "{s:?} {a:?}");
        }
    }
}

#[test]
fn stem_cache_matches_the_stemmer_across_clears() {
    let stemmer = frostem::Stemmer::new(frostem::Algorithm::English);
    // Letters only (digits would split parts): enough distinct words to clear the cache.
    let word = |n: usize| {
        let mut w = String::from("run");
        let mut n = n;
        loop {
            w.push(char::from(b'a' + (n % 26) as u8));
            n /= 26;
            if n == 0 {
                break;
            }
        }
        w.push_str("ing");
        w
    };
    for round in 0..2 {
        for n in (0..STEM_CACHE_ENTRIES + 100).step_by(if round == 0 { 1 } else { 97 }) {
            let w = word(n);
            assert_eq!(
                texts(&w, Analyzer::Prose),
                vec![stemmer.stem(&w).into_owned()]
            );
        }
    }
    // A whole CamelCase segment too long to cache is still stemmed.
    let camel = format!("Run{}Connections", "Walking".repeat(7));
    let lower = camel.to_lowercase();
    assert!(lower.len() > STEM_CACHE_WORD_BYTES);
    let whole = texts(&camel, Analyzer::Prose);
    assert_eq!(whole.last(), Some(&stemmer.stem(&lower).into_owned()));
}

#[test]
fn the_index_holds_a_cjk_runs_last_character_alone_and_queries_do_not() {
    let text = "作业很慢。慢查询";
    let mut tokenizer = KbTokenizer(Analyzer::Prose);
    let mut stream = tokenizer.token_stream(text);
    let mut got = Vec::new();
    while stream.advance() {
        let t = stream.token();
        got.push((t.text.clone(), t.position));
    }
    let want = [
        ("作业", 0),
        ("业很", 1),
        ("很慢", 2),
        ("慢", 2),
        ("慢查", 3),
        ("查询", 4),
        ("询", 4),
    ];
    assert_eq!(got, want.map(|(t, p)| (t.to_string(), p)));
    // A query's terms stay bigrams (and a lone character its own token).
    assert_eq!(
        analyze_parts(text, Analyzer::Prose),
        ["作业", "业很", "很慢", "慢查", "查询"]
    );
    assert_eq!(texts("慢", Analyzer::Prose), ["慢"]);
}

#[test]
fn cjk_runs_are_bigrams_and_latin_runs_are_split_from_them() {
    for a in [Analyzer::Prose, Analyzer::Code, Analyzer::Sig] {
        let toks = analyze("作业无法进行增量同步", a);
        let texts: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "作业", "业无", "无法", "法进", "进行", "行增", "增量", "量同", "同步"
            ],
            "{a:?}"
        );
        assert!(toks.windows(2).all(|w| w[1].pos == w[0].pos + 1));
        assert!(toks.iter().all(|t| t.part));
    }
    assert_eq!(
        analyze_parts("mysql同步到hologres时", Analyzer::Prose),
        ["mysql", "同步", "步到", "hologr", "时"]
    );
    // Full-width ASCII folds; full-width punctuation separates.
    assert_eq!(
        texts("ＭｙＳＱＬ，Kafka。", Analyzer::Code),
        ["my", "sql", "mysql", "kafka"]
    );
    assert_eq!(
        analyze_parts("增量同步", Analyzer::Ident),
        Vec::<String>::new()
    );
    assert_eq!(
        analyze_parts("同步BatchUpdateException", Analyzer::Ident).len(),
        1
    );
    // Offsets point into the original text (for highlighting).
    let t = analyze("ＭｙＳＱＬ同步", Analyzer::Prose);
    let last = t.last().map(|t| (t.from, t.to));
    assert_eq!(last, Some((15, 21)));
}

#[test]
fn survives_hostile_text() {
    for s in [
        "",
        "   ",
        "!!!???...",
        "\u{0}\u{1}\u{7f}",
        "'''\"\"\"",
        "\\x",
        "\\xZZ",
        "a\\",
        "é",
        "ß_ÄÖ",
        "::::",
        "日本語のテキスト",
        "'unbalanced",
        "\"",
        "`",
    ] {
        for a in Analyzer::ALL {
            let toks = analyze(s, a);
            for t in toks {
                assert!(t.from <= t.to && t.to <= s.len());
                assert!(!t.text.is_empty());
            }
        }
    }
    let big = "x".repeat(100_000);
    assert!(analyze(&big, Analyzer::Code).is_empty());
}

#[test]
fn contraction_suffixes_are_not_words() {
    for a in [Analyzer::Sig, Analyzer::Prose, Analyzer::Code] {
        let p = analyze_parts("Can't extract it's isn't we'll they’ve", a);
        for suffix in ["t", "s", "ll", "ve"] {
            assert!(!p.iter().any(|w| w == suffix), "{a:?}: {p:?}");
        }
        assert!(p.iter().any(|w| w == "can"), "{a:?}: {p:?}");
    }
    // Not after an apostrophe that follows a letter: a word like any other.
    assert!(analyze_parts("s3 'd' t", Analyzer::Prose).contains(&"t".to_string()));
}

#[test]
fn numbers_with_thousands_separators_are_one_value() {
    let small = analyze_parts("was 16,603 milliseconds ago.", Analyzer::Sig);
    let large = analyze_parts("was 2,816,808 milliseconds ago.", Analyzer::Sig);
    assert_eq!(small, vec!["was", "§num", "milliseconds", "ago"]);
    assert_eq!(small, large);
    assert_eq!(
        analyze_parts("took 1,234.5 ms", Analyzer::Sig),
        vec!["took", "§num", "ms"]
    );
    // Lists and longer values: every item is a value of its own, as before.
    for (list, n) in [
        ("1,2,3", 3),
        ("1,2,345", 3),
        ("1,000,00", 3),
        ("1234,567", 2),
    ] {
        assert_eq!(
            analyze_parts(list, Analyzer::Sig),
            vec!["§num"; n],
            "{list}"
        );
    }
    assert_eq!(
        analyze_parts("80,192.168.1.1", Analyzer::Sig),
        vec!["§num", "§ip"]
    );
    // Glued to a word it is not a value alone.
    assert_eq!(
        analyze_parts("10,000ms", Analyzer::Sig),
        vec!["§num", "000ms"]
    );
    assert_eq!(
        analyze_parts("10,000µs", Analyzer::Sig),
        vec!["§num", "000µs"]
    );
    // CJK text after it is a chunk of its own, as everywhere.
    assert_eq!(
        analyze_parts("耗时1,234毫秒", Analyzer::Sig),
        vec!["耗时", "§num", "毫秒"]
    );
    // Other analyzers keep the digits.
    assert_eq!(analyze_parts("16,603", Analyzer::Prose), vec!["16", "603"]);
}

#[test]
fn sentence_ends_are_marked_between_sentences_only() {
    let end = SENTENCE_END.to_string();
    let toks = analyze_sentences("Value out of range. Value: 7", Analyzer::Sig, true);
    assert_eq!(toks.iter().filter(|t| **t == end).count(), 1);
    let at = toks.iter().position(|t| *t == end).unwrap_or_default();
    assert_eq!(
        (toks[at - 1].as_str(), toks[at + 1].as_str()),
        ("range", "value")
    );
    // Dots in names, numbers and versions, and a lower-case word after a dot, end nothing.
    for text in [
        "java.sql.SQLException: Incorrect string value",
        "not found, Possible causes: 1.snapshot expires too fast",
        "the server was 28,801,234 ms ago. is longer than 'wait_timeout'",
    ] {
        let toks = analyze_sentences(text, Analyzer::Sig, true);
        assert_eq!(toks, analyze_parts(text, Analyzer::Sig), "{text}");
    }
    // `!` and `?` end sentences too; a text with no words between two ends gets one mark.
    let toks = analyze_sentences(
        "Give up committing! Retry? Conflicts... Done",
        Analyzer::Sig,
        true,
    );
    assert_eq!(toks.iter().filter(|t| **t == end).count(), 3, "{toks:?}");
}
